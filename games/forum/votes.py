"""The game's vote syntax: which lines of a post are a vote or a withdrawal.

A syntax is a list of templates with the placeholder ``Nome`` (``[b]Voto: Nome[/b]``,
``#voto Nome``, ``Voto Nome``) and a list of withdrawal phrases (``#ritiro``, ``Tolgo il
voto``). Matching ignores case, accents and formatting tags (a page copied as text has
lost its [b]), so ``[B]VOTO: Niccolò[/B]`` and ``voto niccolo`` read the same. The last
vote or withdrawal line of a post is the post's vote. A line that starts like a vote but
does not fit a template is returned as unreadable, for the GM to read."""

from __future__ import annotations

import re
from dataclasses import dataclass

from games.forum.base import fold

DEFAULT_VOTES = ("[b]Voto: Nome[/b]", "#voto Nome", "Voto Nome")
DEFAULT_WITHDRAWALS = ("#ritiro", "Tolgo il voto", "Ritiro il voto")
PLACEHOLDER = "nome"
_TAGS = re.compile(
    r"\[/?(?:b|i|u|s|color|size|font|center|strong|em)(?:=[^\]]*)?\]|\*\*|__|`", re.I
)  # BBCode and Markdown emphasis
MAX_NAME = 40  # a bare "Voto Nome" longer than this is prose, not a vote
MAX_WORDS = 4
_SENTENCES = re.compile(r"(?<=[.!?;])\s+")


@dataclass(frozen=True)
class VoteLine:
    """What a post says: a vote (``name`` as written, folded), a withdrawal
    (``withdraw``), or an unreadable line (``unreadable``)."""

    text: str
    name: str = ""
    withdraw: bool = False
    unreadable: bool = False


def _literal(part: str) -> str:
    words = [re.escape(w) for w in re.split(r"\s+", part.strip()) if w]
    pattern = r"\s*".join(words)
    return pattern.replace(r"\:", r"\s*:")


class VoteSyntax:
    def __init__(
        self, votes: tuple[str, ...] | list[str] = DEFAULT_VOTES,
        withdrawals: tuple[str, ...] | list[str] = DEFAULT_WITHDRAWALS,
    ) -> None:  # fmt: skip
        self.votes = [v for v in votes if PLACEHOLDER in fold(v)] or list(DEFAULT_VOTES)
        self.withdrawals = [w for w in withdrawals if w.strip()] or list(DEFAULT_WITHDRAWALS)
        patterns = []
        keywords = set()
        for template in self.votes:
            plain = fold(_TAGS.sub("", template)).strip()
            before, after = plain.split(PLACEHOLDER, 1)
            tail = _literal(after) if after.strip() else ""
            # "voto: nome" may be written "voto:nome"; "voto nome" needs its space
            sep = r"\s*" if before.strip()[-1:] in (":", "-", "=", ">") else r"\s+"
            patterns.append(rf"{_literal(before)}{sep}(?P<name>.+?)\s*{tail}[\s.!]*$")
            keywords.add(before.split()[0].rstrip(":") if before.split() else before)
        self._votes = [re.compile(rf"^\s*{p}") for p in patterns]
        self._withdrawals = [
            re.compile(rf"^\s*{_literal(fold(_TAGS.sub('', w)))}\b") for w in self.withdrawals
        ]
        self._keywords = tuple(k for k in keywords if k)
        tags = [re.escape(k) for k in self._keywords if k.startswith("#")]
        tags += [re.escape(fold(w).split()[0]) for w in self.withdrawals if w.startswith("#")]
        self._hashtags = re.compile(rf"(?:{'|'.join(tags)})\b.*" if tags else r"(?!x)x")
        self._starts = self._keywords + tuple(
            fold(_TAGS.sub("", w)).split()[0] for w in self.withdrawals if w.split()
        )

    def read_line(self, line: str) -> VoteLine | None:
        """The vote of one line: read at the line's start or a sentence's ("Concordo.
        Voto Sam"); a #hashtag form anywhere in it."""
        found = None
        for sentence in _SENTENCES.split(line):
            read = self._read(sentence)
            if read is not None and (found is None or found.unreadable or not read.unreadable):
                found = read
        if found is None or found.unreadable:
            for match in self._hashtags.finditer(fold(_TAGS.sub("", line))):
                return self._read(match.group()) or found
        return found

    def _read(self, line: str) -> VoteLine | None:
        plain = fold(_TAGS.sub("", line)).strip()
        if not self._vote_like(plain, self._starts):
            return None
        for pattern in self._withdrawals:
            if pattern.match(plain):
                return VoteLine(line.strip(), withdraw=True)
        for pattern in self._votes:
            match = pattern.match(plain)
            if match:
                name = match["name"].strip(" :.,;!\"'«»")
                if name and len(name) <= MAX_NAME and len(name.split()) <= MAX_WORDS:
                    return VoteLine(line.strip(), name=name)
        if self._vote_like(plain, self._keywords):
            return VoteLine(line.strip(), unreadable=True)
        return None

    @staticmethod
    def _vote_like(plain: str, starts: tuple[str, ...]) -> bool:
        """Starts with a keyword as a whole word ("voto gino", not "votogino")."""
        return any(plain.startswith(k) and not plain[len(k) : len(k) + 1].isalnum() for k in starts)

    def read_post(self, lines: list[str]) -> VoteLine | None:
        """The post's vote: its last vote or withdrawal line (a readable one wins over an
        unreadable line written after it only when nothing readable follows)."""
        found: VoteLine | None = None
        for line in lines:
            read = self.read_line(line)
            if read is not None and (not read.unreadable or found is None or found.unreadable):
                found = read
        return found
