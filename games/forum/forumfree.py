"""ForumFree / ForumCommunity copied as text. Each post's first row holds the nickname
and "view post Inviato il 12/3/2025, 21:47" (in one line, tab-separated, or on two);
then the member column ("Gruppo", "Messaggi", "Stato" with their values) and the text.
A quote shows as "CITAZIONE (Tempesta @ 12/3/2025, 21:30)" before its text."""

from __future__ import annotations

import re

from games.forum.base import Clock, ForumPost, parse_when

HEADER = re.compile(
    r"^\s*(?:(?P<author>[^\t]+?)\s*\t+\s*)?(?:view post\s+|#\d+\s+)?"
    r"(?:inviato il|posted on)\s+(?P<when>\S.*?)\s*(?:\t.*)?$",
    re.IGNORECASE,
)
_DETAIL = re.compile(
    r"^\s*(?:gruppo|group|messaggi|posts|stato|status|località|location|sesso|gender|"
    r"member|administrator|amministratore|moderatore|moderator|utente|offline|online|"
    r"[\d.,]+)\s*$",
    re.IGNORECASE,
)


class ForumFree:
    key = "forumfree"
    label = "ForumFree / ForumCommunity"

    def score(self, text: str) -> int:
        return sum(1 for line in text.splitlines() if HEADER.match(line))

    def copied(self, text: str) -> bool:
        return True

    def parse(self, text: str, clock: Clock) -> list[ForumPost]:
        lines = text.splitlines()
        heads = [(i, m) for i, line in enumerate(lines) if (m := HEADER.match(line))]
        posts: list[ForumPost] = []
        for n, (i, match) in enumerate(heads):
            author = (match["author"] or "").strip()
            if not author:  # the nickname is the line above
                above = [line.strip() for line in lines[max(0, i - 3) : i] if line.strip()]
                author = above[-1] if above else ""
            stop = heads[n + 1][0] if n + 1 < len(heads) else len(lines)
            body = lines[i + 1 : stop]
            if n + 1 < len(heads) and not heads[n + 1][1]["author"]:
                body = body[:-1] if body else body  # the next post's nickname
                while body and not body[-1].strip():
                    body = body[:-1]
            body = [line for line in body if not _DETAIL.match(line)]
            mine, unsure = body, []
            when = parse_when(match["when"], clock)
            posts.append(ForumPost(author, when[0] if when else None, bool(when and when[1]),
                                   mine, i + 1, unsure, match["when"]))  # fmt: skip
        return posts
