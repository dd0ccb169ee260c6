"""Who a written name is: exactly a player (case, accents, spaces and punctuation
aside: 'tizio caio' is 'Tizio.Caio', 'Il_Conte' is 'Il Conte'), then an alias the GM
added (a nickname, the name before a substitution), then a fuzzy match (rapidfuzz) that
is only ever offered, never applied. A name that could be two players ("Tizio o Caio",
a name built from parts of both, two players whose names differ only in punctuation)
is ambiguous: every candidate is offered first, none is chosen."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rapidfuzz import fuzz, process, utils

from games.forum.base import fold, name_key, name_words

EXACT, ALIAS, APPROX, AMBIGUOUS, UNKNOWN = "exact", "alias", "approx", "ambiguous", "unknown"
CUTOFF = 70  # below this a name suggests nobody
CLEAR_LEAD = 8  # a suggestion this far ahead of the next is "approximate", not "ambiguous"
PART = 4  # a written name holding this many letters of a player's word names him in part


@dataclass(frozen=True)
class NameMatch:
    kind: str
    key: int | None = None  # the player's key when certain (exact, alias)
    candidates: tuple[int, ...] = field(default=())  # the suggestions, best first

    @property
    def sure(self) -> bool:
        return self.kind in (EXACT, ALIAS)


class NameMatcher:
    """``players``: key -> forum name; ``aliases``: written form -> key."""

    def __init__(self, players: Mapping[int, str], aliases: Mapping[str, int] = {}) -> None:
        self._exact: dict[str, list[int]] = {}
        for key, name in players.items():
            self._exact.setdefault(name_key(name), []).append(key)
        self._alias = {name_key(a): key for a, key in aliases.items() if name_key(a)}
        self._choices = {k: fold(n) for k, n in players.items()}
        self._words = {k: [w for w in name_words(n) if len(w) >= PART] for k, n in players.items()}
        self._cache: dict[str, NameMatch] = {}

    def match(self, written: str) -> NameMatch:
        name = fold(written).strip().lstrip("@").strip()
        key = name_key(name)
        if key in self._cache:
            return self._cache[key]
        exact = self._exact.get(key, [])
        if len(exact) == 1:
            found = NameMatch(EXACT, exact[0])
        elif exact:
            found = NameMatch(AMBIGUOUS, candidates=tuple(exact))
        elif key in self._alias:
            found = NameMatch(ALIAS, self._alias[key])
        else:
            found = self._fuzzy(name, key)
        self._cache[key] = found
        return found

    def _parts(self, name: str, key: str) -> list[int]:
        """The players a written name names in part: one of its words is a player's
        whole name ("tizio" in "tizio o caio") or holds the start or the end of a word of
        it ("gianpolo": "gian" of "Gianmarco", "polo" of "Marco Polo")."""
        words = name_words(name)
        hits = [k for k, ws in self._words.items()
                if any(w[:PART] in key or w[-PART:] in key for w in ws)
                or name_key(self._choices[k]) in words]  # fmt: skip
        return hits

    def _fuzzy(self, name: str, key: str) -> NameMatch:
        scored = process.extract(
            name, self._choices, scorer=fuzz.WRatio, processor=utils.default_process,
            limit=5, score_cutoff=CUTOFF,
        )  # fmt: skip
        keys = [k for _choice, _score, k in scored]
        parts = self._parts(name, key)
        if len(parts) >= 2:  # built from two players' names: both, first
            parts.sort(key=lambda k: keys.index(k) if k in keys else len(keys))
            rest = [k for k in keys if k not in parts]
            return NameMatch(AMBIGUOUS, candidates=tuple(parts + rest))
        if not scored:
            return NameMatch(UNKNOWN, candidates=tuple(parts))
        near = [k for _c, score, k in scored if scored[0][1] - score < CLEAR_LEAD]
        if len(near) == 1:
            return NameMatch(APPROX, candidates=tuple(keys))
        return NameMatch(AMBIGUOUS, candidates=tuple(near + [k for k in keys if k not in near]))
