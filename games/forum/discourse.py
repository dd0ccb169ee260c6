"""Discourse: the topic's Markdown as its ``/raw/<topic id>`` address gives it (one page
of posts per ``?page=``): for each post "username | 2025-03-12 20:47:33 UTC | #12", a
blank line, the post's Markdown, and a line of dashes. The time is the post's
``updated_at`` (PostsController#markdown_num writes it): its last edit, not its writing;
the number is the post's own, kept through edits. Quotes are
``[quote="tempesta, post:5, topic:812"]…[/quote]`` or '>' lines."""

from __future__ import annotations

from games.forum.base import Clock, ForumPost, compile_, split_blocks
from games.forum.dates import parse_when

HEADER = compile_(
    r"^(?P<author>[^\s|]{1,60}) \| (?P<when>\d{4}-\d\d-\d\d [\d:]+ \S+) \| #(?P<number>\d+)\s*$",
    needles=(" | ",),
)
_RULE = compile_(r"^-{20,}\s*$", needles=("-----",))


class Discourse:
    key = "discourse"
    label = "Discourse"

    def score(self, text: str) -> int:
        return sum(1 for line in text.splitlines() if HEADER.match(line))

    def copied(self, text: str) -> bool:
        return False

    def parse(self, text: str, clock: Clock) -> list[ForumPost]:
        posts = []
        for match, number, body in split_blocks(text, HEADER):
            lines = [b for b in body if not _RULE.match(b)]
            when = parse_when(match["when"], clock)
            posts.append(ForumPost(match["author"], when[0] if when else None,
                                   bool(when and when[1]), lines, number, [],
                                   match["when"], number=int(match["number"])))  # fmt: skip
        return posts
