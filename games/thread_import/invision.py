"""Invision Community (4.x) copied as text. Each post: the author column (name, member
group, "1.234 messaggi"), then "Inviato Ieri alle 23:10" (the ``ipsComment_meta``
line: "Inviato 3 minuti fa", "Inviato Oggi alle 21:47", "Inviato 12 marzo 2025"), then
the text, closed by "Link al commento" / "Condividi su altri siti". A quote shows as
"Tempesta ha detto:" followed by its paragraphs."""

from __future__ import annotations

import re

from games.thread_import.base import Clock, ForumPost, parse_when

HEADER = re.compile(
    r"^\s*(?:inviato|pubblicato|posted)\s+(?!il\b|on\b)(?P<when>.+?)\s*"
    r"(?:\((?:modificato|edited)\))?\s*$",
    re.IGNORECASE,
)
END = re.compile(
    r"^\s*(?:link al commento|condividi su altri siti|condividi questo messaggio|"
    r"link to comment|share on other sites|share this post)\s*$",
    re.IGNORECASE,
)
_COUNT = re.compile(r"^\s*[\d.,]+\s*(?:messaggi|post|posts|contenuti|reazioni)?\s*$", re.I)


class Invision:
    key = "invision"
    label = "Invision Community"

    def score(self, text: str) -> int:
        lines = text.splitlines()
        headers = sum(1 for line in lines if HEADER.match(line))
        return headers if any(END.match(line) for line in lines) else 0

    def copied(self, text: str) -> bool:
        return True

    def parse(self, text: str, clock: Clock) -> list[ForumPost]:
        lines = text.splitlines()
        posts: list[ForumPost] = []
        pane_start = 0
        i = 0
        while i < len(lines):
            match = HEADER.match(lines[i])
            if not match:
                i += 1
                continue
            pane = [p.strip() for p in lines[pane_start:i] if p.strip() and not _COUNT.match(p)]
            # the column is: name, [title], group; after a post's end, the name comes first
            author = pane[0] if pane_start else (pane[-2] if len(pane) >= 2 else "")
            end = i + 1
            while end < len(lines) and not END.match(lines[end]) and not HEADER.match(lines[end]):
                end += 1
            body, unsure = lines[i + 1 : end], []
            when = parse_when(match["when"], clock)
            posts.append(ForumPost(author, when[0] if when else None, bool(when and when[1]),
                                   body, i + 1, unsure, match["when"]))  # fmt: skip
            while end < len(lines) and END.match(lines[end]):
                end += 1
            pane_start = i = end
        return posts
