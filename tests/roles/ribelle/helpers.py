"""Small BANG! tables for the referee's tests: events written as in a replay file."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from roles.ribelle.events import Outcome
from roles.ribelle.referee import apply
from roles.ribelle.replay import parse_event
from roles.ribelle.state import TableState
from roles.ribelle.table import check_roles, game_options

SIX = {
    "Sam": "sceriffo", "Vic": "vice", "Olga": "fuorilegge", "Otto": "fuorilegge",
    "Rina": "rinnegato", "Reb": "ribelle",
}  # fmt: skip
FOUR = {"Sam": "sceriffo", "Olga": "fuorilegge", "Rina": "rinnegato", "Reb": "ribelle"}
NINE = {
    "Sam": "sceriffo", "Vic": "vice", "Vera": "vice", "Olga": "fuorilegge", "Otto": "fuorilegge",
    "Oscar": "fuorilegge", "Rina": "rinnegato", "Remo": "rinnegato", "Reb": "ribelle",
}  # fmt: skip


def table(
    events: Sequence[Mapping[str, Any]],
    roles: Mapping[str, str] = SIX,
    options: Mapping[str, Any] | None = None,
) -> tuple[TableState, list[Outcome]]:
    """The state after every event, and each event's outcome."""
    opts = game_options(options)
    check_roles(roles, opts)
    state = TableState.new(dict(roles), opts)
    outcomes = [
        apply(state, parse_event(e, n), f"event {n}") for n, e in enumerate(events, start=1)
    ]
    return state, outcomes


def rules_of(outcome: Outcome) -> list[tuple[str, str]]:
    return [(r.msg, r.rule) for r in outcome.rulings]


# A Revolution in the 6-player table: the Rebel! shoots the Sheriff in his own turn.
# The event deck each return card needs (BANG-B8): Ghost Town in High Noon, Dead Man in A
# Fistful of Cards.
HIGH_NOON = {"rib.event_deck": "high_noon"}
FISTFUL = {"rib.event_deck": "fistful_of_cards"}
DECK_OF = {"ghost_town": HIGH_NOON, "dead_man": FISTFUL}

REVOLUTION = [
    {"turn": "Reb"},
    {"turn": "Reb", "phase": 2},
    {"eliminated": "Sam", "by": "Reb", "card": "bang"},
]
