"""Invision Community (4.x) copied as text. Each post: the author column (name, member
group, "1.234 messaggi"), then "Inviato Ieri alle 23:10" (the ``ipsComment_meta``
line: "Inviato 3 minuti fa", "Inviato Oggi alle 21:47", "Inviato 12 marzo 2025"), then
the text, closed by "Link al commento" / "Condividi su altri siti" or by the post's
controls ("Cita", ``ipsComment_controls``: the signature follows them). A quote shows as
"Tempesta ha detto:" followed by its paragraphs; an edit as "Modificato 12 marzo 2025
da Sam" at the top of the text (``commentEditLine``)."""

from __future__ import annotations

from typing import Any

from games.forum.base import Clock, ForumPost, compile_, fold
from games.forum.dates import parse_when

_HEADER = compile_(
    r"^\s*(?:inviato|pubblicato|posted)\s+(?P<when>.{1,80}?)\s*"
    r"(?:\((?:modificato|edited)\))?\s*$",
    ignore_case=True,
    needles=("inviato", "pubblicato", "posted"),
)
_NOT_INVISION = ("il ", "il:", "on ", "on:")  # ForumFree's "Inviato il: …", "Posted on …"
END = compile_(
    r"^\s*(?:link al commento|condividi su altri siti|condividi questo messaggio|"
    r"link to comment|share on other sites|share this post|cita|quote)\s*$",
    ignore_case=True,
    needles=("link", "condividi", "share", "cita", "quote"),
)
_COUNT = compile_(
    r"^\s*[\d.,]+\s*(?:messaggi|post|posts|contenuti|reazioni)?\s*$", ignore_case=True
)


def header(line: str) -> Any:
    match = _HEADER.match(line)
    if match is None or fold(match["when"]).startswith(_NOT_INVISION):
        return None
    return match


class Invision:
    key = "invision"
    label = "Invision Community"

    def score(self, text: str) -> int:
        return sum(1 for line in text.splitlines() if header(line))

    def copied(self, text: str) -> bool:
        return True

    def parse(self, text: str, clock: Clock) -> list[ForumPost]:
        lines = text.splitlines()
        posts: list[ForumPost] = []
        pane_start = 0
        marked = False  # the column starts right after an end marker
        i = 0
        while i < len(lines):
            match = header(lines[i])
            if not match:
                i += 1
                continue
            pane = [p.strip() for p in lines[pane_start:i] if p.strip() and not _COUNT.match(p)]
            author = _author(pane, marked, clock.known)
            end = i + 1
            while end < len(lines) and not END.match(lines[end]) and not header(lines[end]):
                end += 1
            when = parse_when(match["when"], clock)
            posts.append(ForumPost(author, when[0] if when else None, bool(when and when[1]),
                                   lines[i + 1 : end], i + 1, [], match["when"]))  # fmt: skip
            while end < len(lines) and END.match(lines[end]):
                end += 1
            if end < len(lines) and header(lines[end]):  # no end marker: the next
                pane_start, marked = max(i + 1, end - PANE), False  # column is above it
                i = end
                continue
            pane_start, marked, i = end, True, end
        return posts


PANE = 8  # lines of the author column above "Inviato …", when nothing marks its start


def _author(pane: list[str], after_end: bool, known: frozenset[str]) -> str:
    """The author in the column above "Inviato …": a name the site knows (nearest
    first); else, after a post's end marker, the column's first line; else the line
    above the member group (name, group, count)."""
    for line in reversed(pane):
        if fold(line) in known:
            return line
    if after_end:
        return pane[0] if pane else ""
    return pane[-2] if len(pane) >= 2 else (pane[-1] if pane else "")
