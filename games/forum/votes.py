"""The game's vote syntax: which lines of a post are a vote or a withdrawal.

A syntax is a list of templates with the placeholder ``Nome`` (``[b]Voto: Nome[/b]``,
``#voto Nome``, ``Voto Nome``) and a list of withdrawal phrases (``#ritiro``, ``Tolgo il
voto``). Matching ignores case, accents and formatting tags (a page copied as text has
lost its [b]), so ``[B]VOTO: Niccolò[/B]`` and ``voto niccolo`` read the same; where the
tags are there, the closing tag marks the name's end (``[b]Voto: Caio[/b] perché…``).
Knowing the players' names, a line that starts, after the vote keyword, with a
player's exact name is that vote ("Voto Tizio perché ieri…"). The last vote or
withdrawal line of a post is the post's vote. A line that starts like a vote but does
not fit a template is returned as unreadable, for the GM to read; a post with no vote
that still mentions one (a vote word, a withdrawal word, a player's name in bold) is
named by ``mention`` so the GM sees it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import re2

from games.forum.base import MAX_VOTE_LINE, compile_, fold, name_key, name_words

DEFAULT_VOTES = ("[b]Voto: Nome[/b]", "#voto Nome", "Voto Nome")
DEFAULT_WITHDRAWALS = ("#ritiro", "Tolgo il voto", "Ritiro il voto")
PLACEHOLDER = "nome"
_TAG = r"\[/?(?:b|i|u|s|color|size|font|center|strong|em)(?:=[^\]]*)?\]|\*\*|__|`"
_TAGS = compile_(
    _TAG, ignore_case=True, needles=("[", "*", "_", "`")
)  # BBCode and Markdown emphasis
_CLOSING = compile_(r"\[/[a-z]+\]|\*\*|__")
_BOLD = compile_(r"\[b\]([^\[\]]{1,60})\[/b\]|\*\*([^*]{1,60})\*\*", needles=("[b]", "**"))
_MARKDOWN_BOLD = compile_(r"\*\*([^*]{1,200})\*\*", needles=("**",))
_VOTE_WORD = compile_(r"(?:^|[^a-z])(?:voto|voti|vote|votes)(?:[^a-z]|$)", needles=("vot",))
_WITHDRAW_WORD = compile_(
    r"(?:^|[^a-z])(?:ritir[a-z]*|tolgo|unvote)(?:[^a-z]|$)", needles=("ritir", "tolgo", "unvote")
)
MAX_NAME = 40  # a bare "Voto Nome" longer than this is prose, not a vote
MAX_WORDS = 4
MAX_NAME_WORDS = 8
_EITHER = frozenset(
    ("o", "oppure", "or", "e", "and", "ovvero", "forse")
)  # two names: ask  # the words read after a vote keyword to find a player's name


@dataclass(frozen=True)
class VoteLine:
    """What a post says: a vote (``name`` as written, folded), a withdrawal
    (``withdraw``), or an unreadable line (``unreadable``)."""

    text: str
    name: str = ""
    withdraw: bool = False
    unreadable: bool = False


def _literal(part: str) -> str:
    words = [re2.escape(w) for w in part.split() if w]
    pattern = r"\s*".join(words)
    return pattern.replace(r"\:", r"\s*:")


def _sentences(line: str) -> list[str]:
    """The line cut after each '.', '!', '?' or ';' followed by a space (a loop, not a
    pattern: a line of a thousand full stops costs a thousand steps)."""
    out, start = [], 0
    for i in range(len(line) - 1):
        if line[i] in ".!?;" and line[i + 1] in " \t":
            out.append(line[start : i + 1])
            start = i + 2
    out.append(line[start:])
    return [s for s in out if s.strip()] or [line]


class VoteSyntax:
    def __init__(
        self, votes: tuple[str, ...] | list[str] = DEFAULT_VOTES,
        withdrawals: tuple[str, ...] | list[str] = DEFAULT_WITHDRAWALS,
        names: Iterable[str] = (),
    ) -> None:  # fmt: skip
        self.votes = [v for v in votes if PLACEHOLDER in fold(v)] or list(DEFAULT_VOTES)
        self.withdrawals = [w for w in withdrawals if w.strip()] or list(DEFAULT_WITHDRAWALS)
        plain_patterns, tagged, starts, keywords = [], [], [], set()
        needles_of: list[tuple[str, ...]] = []
        for template in self.votes:
            folded = fold(template[:200]).strip()
            plain = fold(_TAGS.sub("", folded)).strip()
            before, after = plain.split(PLACEHOLDER, 1)
            tail = _literal(after) if after.strip() else ""
            # "voto: nome" may be written "voto:nome"; "voto nome" needs its space
            sep = r"\s*" if before.strip()[-1:] in (":", "-", "=", ">") else r"\s+"
            plain_patterns.append(rf"^\s*{_literal(before)}{sep}(?P<name>.+?)\s*{tail}[\s.!]*$")
            needle = (before.split() or [""])[0].rstrip(":")[:4]
            needles = (needle,) if needle else ()
            starts.append(compile_(rf"^\s*{_literal(before)}{sep}", needles=needles))
            needles_of.append(needles)
            raw_before, raw_after = folded.split(PLACEHOLDER, 1)
            if _CLOSING.search(raw_after):  # the closing tag ends the name
                raw_sep = r"\s*" if raw_before.strip()[-1:] in (":", "-", "=", ">", "]") else r"\s+"
                name = r"(?P<name>[^\[\]*_]{1,60}?)"
                tag = rf"^\s*{_literal(raw_before)}{raw_sep}{name}\s*{_literal(raw_after)}"
                tagged.append(compile_(tag, needles=("[", "*", "_")))
            keywords.add(before.split()[0].rstrip(":") if before.split() else before)
        self._votes = [
            compile_(p, needles=n) for p, n in zip(plain_patterns, needles_of, strict=True)
        ]
        self._tagged = tagged
        self._starts = starts
        self._withdrawals = [
            compile_(
                rf"^\s*{_literal(fold(_TAGS.sub('', w)))}(?:[^a-z0-9]|$)",
                needles=(fold(w).split()[0][:5],),
            )
            for w in self.withdrawals
            if w.split()
        ]
        self._keywords = tuple(k for k in keywords if k)
        tags = [re2.escape(k) for k in self._keywords if k.startswith("#")]
        tags += [re2.escape(fold(w).split()[0]) for w in self.withdrawals if w.startswith("#")]
        self._hashtags = compile_(rf"(?:{'|'.join(tags)})(?:[^a-z0-9].*|$)") if tags else None
        self._lead = self._keywords + tuple(
            fold(_TAGS.sub("", w)).split()[0] for w in self.withdrawals if w.split()
        )
        self._names: dict[tuple[str, ...], set[str]] = {}
        for name in names:
            if words := tuple(name_words(name)):
                self._names.setdefault(words, set()).add(fold(name).strip())
                self._names.setdefault(("".join(words),), set()).add(fold(name).strip())
        self._name_keys = {name_key(" ".join(w)) for w in self._names}

    def read_line(self, line: str) -> VoteLine | None:
        """The vote of one line: read at the line's start or a sentence's ("Concordo.
        Voto Sam"); a #hashtag form anywhere in it."""
        line = line[:MAX_VOTE_LINE]
        low = fold(line)
        if not any(k in low for k in self._lead):
            return None
        found = None
        for sentence in _sentences(line):
            read = self._read(sentence)
            if read is not None and (found is None or found.unreadable or not read.unreadable):
                found = read
        if (found is None or found.unreadable) and self._hashtags is not None:
            for match in self._hashtags.finditer(fold(_TAGS.sub("", line))):
                return self._read(match.group()) or found
        return found

    def _read(self, line: str) -> VoteLine | None:
        folded = _MARKDOWN_BOLD.sub(r"[b]\1[/b]", fold(line).strip())
        plain = fold(_TAGS.sub("", folded)).strip()
        if not self._vote_like(plain, self._lead):
            return None
        if plain.rstrip(" .!").endswith("?"):  # "Voto Sam?": a question, for the GM to read
            return VoteLine(line.strip(), unreadable=True)
        for pattern in self._withdrawals:
            if pattern.match(plain):
                return VoteLine(line.strip(), withdraw=True)
        for pattern in self._tagged:
            if (match := pattern.match(folded)) and (name := self._name_of(match["name"])):
                return VoteLine(line.strip(), name=name)
        for pattern in self._votes:
            if (match := pattern.match(plain)) and (name := self._name_of(match["name"])):
                return VoteLine(line.strip(), name=name)
        for start in self._starts:  # "Voto Tizio perché…": a player's name first
            if (match := start.match(plain)) and (name := self._player_first(plain[match.end() :])):
                return VoteLine(line.strip(), name=name)
        if self._vote_like(plain, self._keywords):
            return VoteLine(line.strip(), unreadable=True)
        return None

    def _name_of(self, written: str) -> str:
        """The name a vote gives: a player's name it starts with, else the name as
        written if it is short enough to be one ('' when it is prose)."""
        name = written[:200].strip(" :.,;!\"'«»")
        if not name or name_key(name) in self._name_keys:
            return name
        if player := self._player_first(name):
            return player
        return name if len(name) <= MAX_NAME and len(name.split()) <= MAX_WORDS else ""

    def _player_first(self, rest: str) -> str:
        """The player whose whole name starts ``rest`` (the longest; '' for none or for
        two players that fit equally); for "Tizio o Caio" both names as written, which
        the name matcher offers as an ambiguous choice."""
        words = name_words(rest[:200])[:MAX_NAME_WORDS]
        size, found = self._longest_name(words)
        if len(found) != 1:
            return ""
        if words[size : size + 1] and words[size] in _EITHER:
            second, _found = self._longest_name(words[size + 1 :])
            if second:
                return " ".join(words[: size + 1 + second])
        return next(iter(found))

    def _longest_name(self, words: list[str]) -> tuple[int, set[str]]:
        for size in range(len(words), 0, -1):
            for cut in (tuple(words[:size]), ("".join(words[:size]),)):
                if cut in self._names:
                    return size, self._names[cut]
        return 0, set()

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

    def mention(self, lines: list[str]) -> tuple[str, str] | None:
        """Why a post with no vote may still hold one, and the line: ``mention.vote``
        (a vote word, "Io voto Tizio, che…", "Cambio voto: Tizio"), ``mention.withdraw``
        (a withdrawal word) or ``mention.bold_name`` (a player's name in bold)."""
        for line in lines:
            folded = fold(line[:MAX_VOTE_LINE])
            plain = _TAGS.sub("", folded)
            if _VOTE_WORD.search(plain) or any(k in plain for k in self._keywords if len(k) > 3):
                return "mention.vote", line.strip()
            if _WITHDRAW_WORD.search(plain):
                return "mention.withdraw", line.strip()
            for bold in _BOLD.finditer(folded):
                if name_key(bold.group(1) or bold.group(2) or "") in self._name_keys:
                    return "mention.bold_name", line.strip()
        return None
