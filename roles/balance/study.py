"""The balance study: many simulated games of one setup variant, aggregated (docs/balance.md).

A study is cut into chunks of ``CHUNK`` games; chunk ``i`` draws its games' seeds from a
generator seeded with (the study's seed, ``i``), so the figures depend only on the study,
never on how its chunks were spread over processes or Celery workers. A chunk returns an
:class:`Aggregate` (counters only, JSON-ready); aggregates merge by addition.

Pure Python: no Django. ``manage.py simulate``, the site's Celery tasks and
``bench/simulate.py`` all call :func:`run_chunk` and :func:`summary`.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from roles.balance.counting import GameCounter
from roles.balance.informed import InformedModel, profile
from roles.engine.registry import ruleset_class, ruleset_for
from roles.engine.ruleset import Ruleset
from roles.engine.setups import SetupError
from roles.engine.simulate import random_game

CHUNK = 500  # games per chunk: the unit of seeding and of distribution
MODELS = {"random": None, "informed": InformedModel}
PILOT_GAMES = 60  # random games that tell which shared abilities kill (see _killers)


@dataclass(frozen=True)
class Variant:
    """What is played: a setup, its options overridden, optionally one card swapped for
    another of the setup's cards (``swap = (dealt less, dealt more)``)."""

    setup: str
    options: Mapping[str, Any] = field(default_factory=dict)
    swap: tuple[str, str] | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "setup": self.setup,
            "options": dict(self.options),
            "swap": list(self.swap) if self.swap else None,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Variant:
        swap = data.get("swap")
        return cls(data["setup"], dict(data.get("options") or {}), tuple(swap) if swap else None)


@dataclass(frozen=True)
class Study:
    """``games`` games of ``variant`` played by ``model`` from ``seed``."""

    variant: Variant
    games: int
    model: str = "random"
    seed: int = 0

    def __post_init__(self) -> None:
        if self.model not in MODELS:
            raise SetupError(f"Unknown player model {self.model!r} ({', '.join(MODELS)})")
        if self.games < 1:
            raise SetupError("A study plays at least one game")

    @property
    def chunks(self) -> int:
        return -(-self.games // CHUNK)

    def chunk_size(self, index: int) -> int:
        return min(CHUNK, self.games - index * CHUNK)

    def as_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant.as_dict(),
            "games": self.games,
            "model": self.model,
            "seed": self.seed,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Study:
        return cls(
            Variant.from_dict(data["variant"]), int(data["games"]), data["model"], int(data["seed"])
        )


@cache
def variant_rules(setup: str, swap: tuple[str, str] | None) -> Ruleset:
    """The setup's ruleset, or one whose deal has one ``swap[0]`` fewer and one ``swap[1]``
    more (both must be cards of the setup)."""
    if swap is None:
        return ruleset_for(setup)
    rules = ruleset_class(setup)()
    cards = dict(rules.setup.cards)
    less, more = swap
    for card in (less, more):
        if card not in cards:
            raise SetupError(f"Setup {setup!r} has no card {card!r}")
    if less == more or not cards[less].count:
        raise SetupError(f"Setup {setup!r}: cannot swap {less!r} for {more!r}")
    cards[less] = dataclasses.replace(cards[less], count=cards[less].count - 1)
    cards[more] = dataclasses.replace(cards[more], count=cards[more].count + 1)
    rules.setup = dataclasses.replace(rules.setup, cards=cards)
    return rules


@dataclass
class Aggregate:
    """Counters over a number of games; everything a summary needs, mergeable by addition."""

    games: int = 0
    wins: Counter = field(default_factory=Counter)  # faction -> games it won
    loner_wins: Counter = field(default_factory=Counter)  # loner card -> games he won
    loner_games: Counter = field(default_factory=Counter)  # loner card -> games dealt
    days: Counter = field(default_factory=Counter)  # game length in days -> games
    deaths: Counter = field(default_factory=Counter)  # "cause|day" -> deaths
    dealt: Counter = field(default_factory=Counter)  # card -> players dealt it
    role_deaths: Counter = field(default_factory=Counter)  # "card|day" -> deaths
    powers: Counter = field(default_factory=Counter)  # "kind|card" -> games it happened

    def merge(self, other: Aggregate) -> Aggregate:
        self.games += other.games
        for name in _COUNTERS:
            getattr(self, name).update(getattr(other, name))
        return self

    def as_dict(self) -> dict[str, Any]:
        return {"games": self.games, **{name: dict(getattr(self, name)) for name in _COUNTERS}}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Aggregate:
        days = Counter({int(k): v for k, v in data.get("days", {}).items()})
        return cls(
            int(data.get("games", 0)),
            days=days,
            **{name: Counter(data.get(name, {})) for name in _COUNTERS if name != "days"},
        )


_COUNTERS = (
    "wins",
    "loner_wins",
    "loner_games",
    "days",
    "deaths",
    "dealt",
    "role_deaths",
    "powers",
)


def merge_all(aggregates: Iterable[Aggregate]) -> Aggregate:
    total = Aggregate()
    for aggregate in aggregates:
        total.merge(aggregate)
    return total


def chunk_seeds(study: Study, index: int) -> list[int]:
    """The seeds of chunk ``index``'s games: from (the study's seed, the chunk's index)."""
    rng = random.Random(f"tabula-study:{study.seed}:{index}")
    return [rng.getrandbits(62) for _ in range(study.chunk_size(index))]


def run_chunk(study: Study, index: int) -> Aggregate:
    """Play chunk ``index`` of ``study`` and count what happened."""
    variant = study.variant
    rules = variant_rules(variant.setup, variant.swap)
    model = MODELS[study.model]
    options = dict(variant.options) or None
    counter = GameCounter(rules, _killers(rules))
    count = counter.count
    setup = variant.setup
    for seed in chunk_seeds(study, index):
        state, log = random_game(setup, seed, options=options, rules=rules, model=model)
        count(state, log)
    return counter.aggregate()


def warm(study: Study) -> None:
    """Compute once what every chunk of ``study`` reads (so that forked workers inherit
    it): the ruleset, the abilities that kill, the model's tables, a game's tables."""
    variant = study.variant
    rules = variant_rules(variant.setup, variant.swap)
    _killers(rules)
    profile(rules)
    random_game(variant.setup, 0, options=dict(variant.options) or None, rules=rules,
                model=MODELS[study.model])  # fmt: skip


def run_study(study: Study, chunks: Iterable[int] | None = None) -> Aggregate:
    """Every chunk (or those named) in this process, merged."""
    indexes = range(study.chunks) if chunks is None else chunks
    return merge_all(run_chunk(study, i) for i in indexes)


@cache
def _killers(rules: Ruleset) -> frozenset[str]:
    """The shared abilities whose target dies of the pack's kill the same night, learned
    from a few random games (the rules name no "kill" ability; the deaths' causes do)."""
    found: set[str] = set()
    for seed in range(PILOT_GAMES):
        state, log = random_game(rules.key, seed, rules=rules)
        for label, actions, _, outcome in log:
            if label[0] != "N":
                continue
            mauled = {d.player for d in outcome.deaths if d.cause == "pack"}
            for action in actions:
                ability = _ability(rules, state, action)
                if ability is not None and ability.shared and action.target in mauled:
                    found.add(ability.key)
    return frozenset(found)


def _ability(rules: Ruleset, state: Any, action: Any) -> Any:
    """The ability an action used (None when its card has none, e.g. after a turn)."""
    actor = state.by_name[action.actor]
    abilities = rules.card_abilities(actor.dealt_role)
    if len(abilities) == 1:
        return abilities[0]
    key = rules.ability_key(actor, action)
    return next((a for a in abilities if a.key == key), None)
