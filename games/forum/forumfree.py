"""ForumFree / ForumCommunity copied as text. The topic's markup (a saved page of the
stock skin: Simone40/forumfreeskin, ``skin_base/skin-topic.html``) puts each post in a
table: the first row holds the nickname (``div.nick``) and "Inviato il: 31/8/2009,
06:00" (``<b>Inviato il:</b>``, with the colon; older skins and the English board write
"view post Inviato il 12/3/2025" or "Posted on"), in one line, tab-separated, or on
two; the second row the member column (``div.details``: "Gruppo: Amministratore",
"Messaggi: 15000", "Stato:", or each label and value on its own line) beside the text
(``div.color``), so the copy joins the column's last line and the text's first with a
tab. A quote shows as "CITAZIONE (Tempesta @ 12/3/2025, 21:30)" before its text; an
edit as "Modificato da Sam - 12/3/2025, 22:05" (``div.edit``)."""

from __future__ import annotations

from games.forum.base import Clock, ForumPost, compile_
from games.forum.dates import parse_when

HEADER = compile_(
    r"^\s*(?:(?P<author>[^\t]{1,80}?)\s*\t+\s*)?(?:view post\s+|#\d+\s+)?"
    r"(?:inviato il|posted on)\s*:?\s+(?P<when>\S[^\t]{0,60}?)\s*(?:\t.*)?$",
    ignore_case=True,
    needles=("inviato il", "posted on"),
)
_DETAIL = compile_(
    r"^\s*(?:(?:gruppo|group|messaggi|posts|stato|status|località|localita|location|sesso|gender)"
    r"\s*(?::[^\t]{0,60})?|member|administrator|amministratore|moderatore|moderator|utente|"
    r"offline|online|[\d.,]+)\s*$",
    ignore_case=True,
)
_JOINED = compile_(
    r"^\s*(?:stato|status)\s*:?[^\t]{0,40}\t+(?P<rest>.*)$", ignore_case=True, needles=("\t",)
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
            when = parse_when(match["when"], clock)
            posts.append(ForumPost(author, when[0] if when else None, bool(when and when[1]),
                                   _text(body), i + 1, [], match["when"]))  # fmt: skip
        return posts


def _text(body: list[str]) -> list[str]:
    """The post's text: the member column's lines dropped (only before the text)."""
    out: list[str] = []
    column = True
    for line in body:
        if column and (joined := _JOINED.match(line)):
            out.append(joined["rest"])
            column = False
        elif column and (_DETAIL.match(line) or not line.strip()):
            continue
        else:
            column = False
            out.append(line)
    return out
