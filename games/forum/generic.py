"""Any forum, written out by hand or by a script: a header line per post
"Autore — 12/03/2025 21:47" (a dash, en dash or em dash; seconds optional; "Oggi, 21:47"
and "Ieri alle 23:10" too), then the post's text. An edit notice ("Modificato da Sam -
12/3/2025, 22:05", as ForumFree writes it) is not a header."""

from __future__ import annotations

from games.forum.base import Clock, ForumPost, compile_, split_blocks
from games.forum.dates import parse_when

HEADER = compile_(
    r"^\s*(?P<author>[^\s—–-].{0,79}?)\s+[—–-]\s+(?P<when>(?:\d{1,2}/\d{1,2}/\d{2,4}|oggi|ieri)"
    r"[ ,]*(?:alle\s+|ore\s+)?\d{1,2}[:.]\d{2}(?::\d{2})?)\s*$",
    ignore_case=True,
    needles=("-", "–", "—"),
)
_EDIT_START = compile_(
    r"^\s*(?:modificato|edited|ultima modifica|last edited)\b",
    ignore_case=True,
    needles=("modific", "edited"),
)


def _is_edit(line: str) -> bool:
    return bool(_EDIT_START.match(line))


class Generic:
    key = "generic"
    label = "Autore — gg/mm/aaaa hh:mm"

    def score(self, text: str) -> int:
        return sum(1 for line in text.splitlines() if HEADER.match(line) and not _is_edit(line))

    def copied(self, text: str) -> bool:
        return True

    def parse(self, text: str, clock: Clock) -> list[ForumPost]:
        posts = []
        for match, number, body in split_blocks(text, HEADER, _is_edit):
            when = parse_when(match["when"], clock)
            posts.append(ForumPost(match["author"].strip(), when[0] if when else None,
                                   bool(when and when[1]), body, number, [],
                                   match["when"]))  # fmt: skip
        return posts
