"""Setups are data: one YAML file per setup under ``roles/setups/``.

Loading validates the file (role counts add up to the player count, deadlines are
HH:MM) and fails with a message that names the setup and the problem.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import yaml

SETUPS_DIR = Path(__file__).resolve().parent.parent / "setups"
_TIME = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")


class SetupError(ValueError):
    """A setup file is missing or inconsistent."""


@dataclass(frozen=True)
class Setup:
    key: str
    name: str
    players: int
    factions: tuple[str, ...]
    roles: dict[str, int]
    deadlines: dict[str, str] = field(default_factory=dict)

    def role_list(self) -> list[str]:
        """Every role card of the setup, in the file's order, one per player."""
        return [role for role, count in self.roles.items() for _ in range(count)]


def available_setups() -> list[str]:
    """The keys of every setup shipped with Tabula, sorted."""
    return sorted(path.stem for path in SETUPS_DIR.glob("*.yaml"))


@cache
def load_setup(key: str) -> Setup:
    """Load and validate the setup called ``key``."""
    path = SETUPS_DIR / f"{key}.yaml"
    if not path.is_file():
        raise SetupError(f"Unknown setup {key!r}; known setups: {', '.join(available_setups())}")
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    roles = {str(role): int(count) for role, count in (data.get("roles") or {}).items()}
    setup = Setup(
        key=data["key"],
        name=data["name"],
        players=int(data["players"]),
        factions=tuple(data.get("factions") or ()),
        roles=roles,
        deadlines=dict(data.get("deadlines") or {}),
    )
    if setup.key != key:
        raise SetupError(f"Setup file {path.name} declares key {setup.key!r}, expected {key!r}")
    if sum(roles.values()) != setup.players:
        raise SetupError(
            f"Setup {key!r}: role counts add up to {sum(roles.values())}, not {setup.players}"
        )
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
