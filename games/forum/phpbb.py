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
import re

from games.forum.base import Clock, ForumPost, parse_when, split_blocks

HEADER = re.compile(
    r"^\s*(?:messaggio\s+|post\s+)?(?:da|by)\s+(?P<author>\S.{0,79}?)\s+»\s+(?P<when>.+?)\s*$",
    re.IGNORECASE,
)
MULTIQUOTE = re.compile(
    r"\[quote=\"?(?P<author>[^\"\]]+?)\"?\s+post_id=\d+\s+time=(?P<time>\d+)[^\]]*\]", re.I
)
_TOKEN = re.compile(rf"{MULTIQUOTE.pattern}|\[quote[^\]]*\]|\[/quote\]", re.IGNORECASE)
_PROFILE = re.compile(
    r"^\s*(?:messaggi|iscritto il|località|posts|joined|location|top|cita|quote|re:)\b",
    re.IGNORECASE,
)


class PhpBB:
    key = "phpbb"
    label = "phpBB"

    def score(self, text: str) -> int:
        bbcode = len(MULTIQUOTE.findall(text))
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
            when = parse_when(match["when"], clock)
            lines, unsure = body, []
            posts.append(ForumPost(
                match["author"].strip(), when[0] if when else None, bool(when and when[1]),
                lines, number, unsure, match["when"],
            ))  # fmt: skip
        return posts


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
    current: tuple[re.Match[str], int] | None = None
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
