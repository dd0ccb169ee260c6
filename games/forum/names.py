"""Who a written name is: exactly a player, then an alias the GM added (a nickname, the
name before a substitution), then a fuzzy match (rapidfuzz) that is only ever offered,
never applied: an approximate or ambiguous match waits for the GM's confirmation."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rapidfuzz import fuzz, process, utils

from games.forum.base import fold

EXACT, ALIAS, APPROX, AMBIGUOUS, UNKNOWN = "exact", "alias", "approx", "ambiguous", "unknown"
CUTOFF = 70  # below this a name suggests nobody
CLEAR_LEAD = 8  # a suggestion this far ahead of the next is "approximate", not "ambiguous"


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
        self._exact = {fold(name).strip(): key for key, name in players.items()}
        self._alias = {fold(a).strip(): key for a, key in aliases.items() if a.strip()}
        self._choices = {**{k: fold(n) for k, n in players.items()}}
        self._cache: dict[str, NameMatch] = {}

    def match(self, written: str) -> NameMatch:
        name = fold(written).strip().lstrip("@").strip()
        if name in self._cache:
            return self._cache[name]
        if name in self._exact:
            found = NameMatch(EXACT, self._exact[name])
        elif name in self._alias:
            found = NameMatch(ALIAS, self._alias[name])
        else:
            found = self._fuzzy(name)
        self._cache[name] = found
        return found

    def _fuzzy(self, name: str) -> NameMatch:
        scored = process.extract(
            name, self._choices, scorer=fuzz.WRatio, processor=utils.default_process,
            limit=3, score_cutoff=CUTOFF,
        )  # fmt: skip
        if not scored:
            return NameMatch(UNKNOWN)
        keys = tuple(key for _choice, _score, key in scored)
        if len(scored) == 1 or scored[0][1] - scored[1][1] >= CLEAR_LEAD:
            return NameMatch(APPROX, candidates=keys)
        return NameMatch(AMBIGUOUS, candidates=keys)
