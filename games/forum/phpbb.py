"""phpBB (prosilver style). Two shapes:

* the page copied as text: each post shows its subject, then the author line of
  ``viewtopic_body.html`` (``<span class="responsive-hide">{L_POST_BY_AUTHOR}
  <strong>{POST_AUTHOR_FULL}</strong> &raquo; </span>{POST_DATE}``), in Italian
  "Messaggio da Tempesta » mer 12 mar 2025, 21:47" (or "Oggi, 21:47", "12 minuti fa"),
  then the text; the next post's profile column (name, "Messaggi:", "Iscritto il:")
  precedes its subject;
* the BBCode of a multi-quote: ``[quote="Tempesta" post_id=812 time=1741812453
  user_id=57]…[/quote]`` per post, whose ``time`` gives the second.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from games.forum.base import Clock, ForumPost, compile_, split_blocks
from games.forum.dates import parse_when

HEADER = compile_(
    r"^\s*(?:messaggio\s+|post\s+)?(?:da|by)\s+(?P<author>\S.{0,79}?)\s+»\s+(?P<when>.{1,80}?)\s*$",
    ignore_case=True,
    needles=("»",),
)
_MULTIQUOTE = (
    r"\[quote=\"?(?P<author>[^\"\]]{1,80}?)\"?\s+post_id=\d+\s+time=(?P<time>\d{1,12})[^\]]*\]"
)
MULTIQUOTE = compile_(_MULTIQUOTE, ignore_case=True, needles=("post_id",))
_TOKEN = compile_(
    rf"{_MULTIQUOTE}|\[quote[^\]]*\]|\[/quote\]", ignore_case=True, needles=("[quote", "[/quote")
)
_PROFILE = compile_(
    r"^\s*(?:messaggi|iscritto il|località|localita|posts|joined|location|top|cita|quote|re:)"
    r"(?:[^a-z]|$)",
    ignore_case=True,
)


class PhpBB:
    key = "phpbb"
    label = "phpBB"

    def score(self, text: str) -> int:
        bbcode = sum(1 for _match in MULTIQUOTE.finditer(text))
        return bbcode or sum(1 for line in text.splitlines() if HEADER.match(line))

    def copied(self, text: str) -> bool:
        return not MULTIQUOTE.search(text)

    def parse(self, text: str, clock: Clock) -> list[ForumPost]:
        if MULTIQUOTE.search(text):
            return _from_bbcode(text, clock)
        blocks = split_blocks(text, HEADER)
        posts = []
        for i, (match, number, body) in enumerate(blocks):
            if i + 1 < len(blocks):  # the next post's profile column and subject
                body = _cut_profile(body, blocks[i + 1][0]["author"])
            body = _cut_top(body)
            when = parse_when(match["when"], clock)
            posts.append(ForumPost(
                match["author"].strip(), when[0] if when else None, bool(when and when[1]),
                body, number, [], match["when"],
            ))  # fmt: skip
        return posts


def _cut_top(body: list[str]) -> list[str]:
    """The post's lines up to its "Top" link (``back2top``): after it, the page's own
    lines (the next page's title, the pagination) when the post ends a page."""
    tops = [i for i, line in enumerate(body) if line.strip() in ("Top", "Torna in cima")]
    return body[: tops[-1]] if tops else body


def _cut_profile(body: list[str], next_author: str) -> list[str]:
    for back in range(1, min(len(body), 10) + 1):
        if body[-back].strip() == next_author.strip():
            return body[:-back]
    while body and (not body[-1].strip() or _PROFILE.match(body[-1])):
        body = body[:-1]
    return body


def _from_bbcode(text: str, clock: Clock) -> list[ForumPost]:
    """Each top-level multi-quote block is a post; quotes inside it are quoted text."""
    posts: list[ForumPost] = []
    depth = 0
    current: tuple[Any, int] | None = None
    for token in _TOKEN.finditer(text):
        closing = token.group().lower() == "[/quote]"
        if not closing:
            if depth == 0 and token["time"]:
                current = (token, token.end())
            depth += 1
            continue
        depth = max(depth - 1, 0)
        if depth == 0 and current is not None:
            opening, start = current
            at = dt.datetime.fromtimestamp(int(opening["time"]), tz=dt.UTC).astimezone(clock.zone)
            lines, unsure = text[start : token.start()].split("\n"), []
            number = text.count("\n", 0, opening.start()) + 1
            posts.append(ForumPost(opening["author"].strip(), at, True, lines, number, unsure,
                                   opening["time"]))  # fmt: skip
            current = None
    return posts
