"""Il Ribelle!'s table: the role keys, the deal (RIB-R1, RIB-R2, RIB-D1), the cards the
referee distinguishes and the game options (one per DECISION that has a setting)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from roles.engine.errors import RuleViolation

SETUP_KEY = "ribelle"
SHERIFF, DEPUTY, OUTLAW, RENEGADE, REBEL = "sceriffo", "vice", "fuorilegge", "rinnegato", "ribelle"
ROLES = (SHERIFF, DEPUTY, OUTLAW, RENEGADE, REBEL)

# RIB-R2: players -> how many of each role (Sheriff, Deputy, Outlaw, Renegade, Rebel!).
ROLE_TABLE: dict[int, dict[str, int]] = {
    4: {SHERIFF: 1, DEPUTY: 0, OUTLAW: 1, RENEGADE: 1, REBEL: 1},
    6: {SHERIFF: 1, DEPUTY: 1, OUTLAW: 2, RENEGADE: 1, REBEL: 1},
    8: {SHERIFF: 1, DEPUTY: 2, OUTLAW: 3, RENEGADE: 1, REBEL: 1},
    9: {SHERIFF: 1, DEPUTY: 2, OUTLAW: 3, RENEGADE: 2, REBEL: 1},
    10: {SHERIFF: 1, DEPUTY: 2, OUTLAW: 4, RENEGADE: 2, REBEL: 1},
}
PLAYER_COUNTS = tuple(ROLE_TABLE)  # RIB-R1

# The cards an elimination names. The area cards resolve completely before a Revolution
# (RIB-R17); the Duel matters for RIB-R18.
CARDS = ("bang", "duello", "gatling", "indiani", "howitzer", "dinamite", "altro")
AREA_CARDS = frozenset({"gatling", "indiani", "howitzer"})
RETURN_VIA = ("ghost_town", "dead_man")  # Città Fantasma, Dead Man (RIB-R19..R22)
# The event deck each return card belongs to: Ghost Town is a High Noon card, Dead Man one of
# A Fistful of Cards; neither comes up without its deck (BANG-B8, RIB-R13).
RETURN_DECK = {"ghost_town": "high_noon", "dead_man": "fistful_of_cards"}
EVENT_DECKS = ("none", "high_noon", "fistful_of_cards")  # RIB-R13

OPTIONS: dict[str, Any] = {
    "rib.allowed_player_counts": list(PLAYER_COUNTS),  # RIB-D1
    "rib.revolution_requires_rebel_source": False,  # RIB-D2
    "rib.new_turn_skips_pre_phase_checks": True,  # RIB-D9
    "rib.event_deck": "none",  # RIB-R13: High Noon or A Fistful of Cards in play
}


class RibelleViolation(RuleViolation):
    """A refusal of the referee: a message id and its parameters for the site, the rule, and
    an English line for `manage.py replay` (RuleViolation's format)."""

    def __init__(
        self, msg: str, params: Mapping[str, Any], text: str, rule: str, **where: str
    ) -> None:
        super().__init__(text, rule, **where)
        self.msg = msg
        self.params = dict(params)


def game_options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The defaults with the GM's switches applied; an unknown key or a wrong type is refused."""
    merged = dict(OPTIONS)
    for key, value in (options or {}).items():
        if key not in OPTIONS:
            raise RibelleViolation(
                "rib.error.unknown_option",
                {"option": key},
                f"unknown option {key!r}",
                "RIB-D1",
                phase="setup",
            )
        default = OPTIONS[key]
        if type(value) is not type(default) or (
            key == "rib.event_deck" and value not in EVENT_DECKS
        ):
            raise RibelleViolation(
                "rib.error.bad_option",
                {"option": key, "value": value},
                f"option {key} cannot be {value!r}",
                "RIB-D1",
                phase="setup",
            )
        merged[key] = value
    allowed = merged["rib.allowed_player_counts"]
    if not all(isinstance(n, int) and n in ROLE_TABLE for n in allowed):
        raise RibelleViolation(
            "rib.error.bad_option",
            {"option": "rib.allowed_player_counts", "value": allowed},
            "rib.allowed_player_counts may only list 4, 6, 8, 9, 10",
            "RIB-D1",
            phase="setup",
        )
    return merged


def check_player_count(count: int, options: Mapping[str, Any] | None = None) -> None:
    """RIB-R1 / RIB-D1: the Rebel! is played by 4, 6, 8, 9 or 10 players, no other count."""
    allowed = game_options(options)["rib.allowed_player_counts"]
    if count not in allowed:
        counts = ", ".join(str(n) for n in allowed)
        raise RibelleViolation(
            "rib.error.player_count",
            {"count": count, "allowed": counts},
            f"Il Ribelle! is played with {counts} players, not {count}",
            "RIB-D1" if count not in ROLE_TABLE else "RIB-R1",
            phase="setup",
        )


def deal(
    names: Sequence[str], *, seed: int, options: Mapping[str, Any] | None = None
) -> dict[str, str]:
    """RIB-R2: the roles of the table for this many players, shuffled by the seeded RNG."""
    check_player_count(len(names), options)
    cards = [role for role in ROLES for _ in range(ROLE_TABLE[len(names)][role])]
    random.Random(seed).shuffle(cards)
    return dict(zip(names, cards, strict=True))


def check_roles(roles: Mapping[str, str], options: Mapping[str, Any] | None = None) -> None:
    """A given deal must be exactly RIB-R2's row for its player count."""
    check_player_count(len(roles), options)
    unknown = sorted({r for r in roles.values() if r not in ROLES})
    if unknown:
        raise RibelleViolation(
            "rib.error.unknown_role",
            {"role": unknown[0]},
            f"unknown role {unknown[0]!r} (roles: {', '.join(ROLES)})",
            "RIB-R2",
            phase="setup",
        )
    want = {r: n for r, n in ROLE_TABLE[len(roles)].items()}
    got = Counter(roles.values())
    if any(got[r] != want[r] for r in ROLES):
        needed = ", ".join(f"{want[r]} {r}" for r in ROLES)
        raise RibelleViolation(
            "rib.error.role_counts",
            {"count": len(roles), "needed": needed},
            f"{len(roles)} players are dealt {needed}",
            "RIB-R2",
            phase="setup",
        )
