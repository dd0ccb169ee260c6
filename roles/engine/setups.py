"""Setups are data: one YAML file per setup under ``roles/setups/``.

Loading validates the file (role counts add up to the player count, every role card
is complete, deadlines are HH:MM, option values have their default's type) and fails
with a message that names the setup and the problem.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import Any

import yaml

SETUPS_DIR = Path(__file__).resolve().parent.parent / "setups"
_TIME = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")
_CARD_FIELDS = ("count", "seen_as", "counts_as", "faction")


class SetupError(ValueError):
    """A setup file is missing or inconsistent, or options do not fit it."""


@dataclass(frozen=True, slots=True)
class RoleCard:
    key: str
    count: int
    seen_as: str
    counts_as: str
    faction: str
    told_as: str  # the role the holder is told he has (the Vicesceriffo is told cowboy)
    name: str = ""  # the card's title, in Italian
    text: str = ""  # the card's rule text, in Italian, as the original gives it


@dataclass(frozen=True)
class Setup:
    key: str
    name: str
    players: int
    factions: tuple[str, ...]
    cards: dict[str, RoleCard]
    night_order: tuple[str, ...]
    deadlines: dict[str, str] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    option_choices: dict[str, tuple[str, ...]] = field(default_factory=dict)
    info: dict[str, Any] = field(default_factory=dict)

    @cached_property
    def roles(self) -> dict[str, int]:
        """Role key -> how many are dealt (roles dealt 0 times are left out)."""
        return {key: card.count for key, card in self.cards.items() if card.count}

    @cached_property
    def dealt_cards(self) -> tuple[str, ...]:
        """Every role card of the setup, in the file's order, one per player."""
        return tuple(role for role, count in self.roles.items() for _ in range(count))

    def role_list(self) -> list[str]:
        """Every role card of the setup, in the file's order, one per player."""
        return list(self.dealt_cards)

    def with_options(self, overrides: Mapping[str, Any] | None) -> dict[str, Any]:
        """The setup's options with ``overrides`` applied, each checked against its default."""
        merged = dict(self.options)
        for name, value in (overrides or {}).items():
            if name not in self.options:
                raise SetupError(f"Unknown option {name!r} for setup {self.key!r}")
            default = self.options[name]
            if isinstance(default, bool) != isinstance(value, bool) or (
                not isinstance(default, bool) and type(default) is not type(value)
            ):
                raise SetupError(f"Option {name} must be a {type(default).__name__}, got {value!r}")
            merged[name] = value
        return merged


def available_setups() -> list[str]:
    """The keys of every setup shipped with Tabula, sorted."""
    return sorted(path.stem for path in SETUPS_DIR.glob("*.yaml"))


def _card(setup_key: str, role: str, data: Any, text: Any) -> RoleCard:
    if not isinstance(data, dict) or any(name not in data for name in _CARD_FIELDS):
        raise SetupError(f"Setup {setup_key!r}: role {role!r} needs {', '.join(_CARD_FIELDS)}")
    if not isinstance(text, dict) or not text.get("name") or not text.get("text"):
        raise SetupError(f"Setup {setup_key!r}: role {role!r} has no card (name and text)")
    return RoleCard(
        key=role,
        count=int(data["count"]),
        seen_as=str(data["seen_as"]),
        counts_as=str(data["counts_as"]),
        faction=str(data["faction"]),
        told_as=str(data.get("told_as", role)),
        name=str(text["name"]),
        text=" ".join(str(text["text"]).split()),
    )


@cache
def load_setup(key: str) -> Setup:
    """Load and validate the setup called ``key``."""
    path = SETUPS_DIR / f"{key}.yaml"
    if not path.is_file():
        raise SetupError(f"Unknown setup {key!r}; known setups: {', '.join(available_setups())}")
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    texts = data.get("cards") or {}
    cards = {
        str(role): _card(key, str(role), spec, texts.get(role))
        for role, spec in data["roles"].items()
    }
    setup = Setup(
        key=data["key"],
        name=data["name"],
        players=int(data["players"]),
        factions=tuple(data.get("factions") or ()),
        cards=cards,
        night_order=tuple(data.get("night_order") or ()),
        deadlines=dict(data.get("deadlines") or {}),
        options=dict(data.get("options") or {}),
        option_choices={k: tuple(v) for k, v in (data.get("option_choices") or {}).items()},
        info=dict(data.get("info") or {}),
    )
    if setup.key != key:
        raise SetupError(f"Setup file {path.name} declares key {setup.key!r}, expected {key!r}")
    total = sum(card.count for card in cards.values())
    if total != setup.players:
        raise SetupError(f"Setup {key!r}: role counts add up to {total}, not {setup.players}")
    for card in cards.values():
        if card.faction not in (*setup.factions, "solitario", "villaggio"):
            raise SetupError(f"Setup {key!r}: role {card.key!r} has unknown faction")
        if card.told_as not in cards:
            raise SetupError(f"Setup {key!r}: role {card.key!r} is told an unknown role")
    for name, choices in setup.option_choices.items():
        if setup.options.get(name) not in choices:
            raise SetupError(f"Setup {key!r}: option {name} defaults outside its choices")
    for name, value in setup.deadlines.items():
        if not _TIME.match(str(value)):
            raise SetupError(f"Setup {key!r}: deadline {name} = {value!r} is not HH:MM")
    return setup


def deal_roles(setup: Setup, names: Sequence[str], rng: random.Random) -> dict[str, str]:
    """Deal the setup's role cards at random to ``names`` (seating order kept)."""
    if len(names) != setup.players:
        raise SetupError(
            f"Setup {setup.key!r} needs exactly {setup.players} players, got {len(names)}"
        )
    cards = setup.role_list()
    rng.shuffle(cards)
    return dict(zip(names, cards, strict=True))
