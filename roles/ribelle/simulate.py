"""Random legal BANG! logs with Il Ribelle!, for the property tests and bench/ribelle.py.

Turns go round the table in seat order; in his phase 2 the player whose turn it is may
eliminate someone (sometimes several with one area card); the Rebel! sometimes reveals at
the end of his phase 1; an eliminated player sometimes comes back, through the return card
of the game's event deck (Ghost Town with High Noon; Dead Man, for the first player
eliminated, with A Fistful of Cards). Every event is checked by the referee as it is
proposed, so the log is legal by construction."""

from __future__ import annotations

import random
from typing import Any

from roles.ribelle.referee import apply
from roles.ribelle.replay import parse_event
from roles.ribelle.state import TableState
from roles.ribelle.table import (
    AREA_CARDS,
    CARDS,
    EVENT_DECKS,
    PLAYER_COUNTS,
    REBEL,
    RETURN_DECK,
    deal,
    game_options,
)

RETURN_BY_DECK = {deck: via for via, deck in RETURN_DECK.items()}

MAX_EVENTS = 400


def random_game(seed: int) -> tuple[dict[str, str], list[dict[str, Any]], TableState]:
    """A dealt table, its log (replay format) and the state at the end."""
    rng = random.Random(seed)
    names = [f"P{i}" for i in range(rng.choice(PLAYER_COUNTS))]
    roles = deal(names, seed=seed)
    deck = rng.choice(EVENT_DECKS)
    state = TableState.new(dict(roles), game_options({"rib.event_deck": deck}))
    via = RETURN_BY_DECK.get(deck)
    log: list[dict[str, Any]] = []

    def play(entry: dict[str, Any]) -> None:
        apply(state, parse_event(entry, len(log) + 1), f"event {len(log) + 1}")
        log.append(entry)

    seat = 0
    while not state.over and len(log) < MAX_EVENTS:
        player = state.seats[seat % len(state.seats)]
        seat += 1
        if not player.in_play:
            back = via == "ghost_town" or (via and player.name == state.first_eliminated)
            if back and rng.random() < 0.05:
                play({"returns": player.name, "via": via})
            else:
                continue
        play({"turn": player.name})
        if player.role == REBEL and not player.face_up and rng.random() < 0.5:
            play({"reveal": player.name})
        play({"turn": player.name, "phase": 2})
        targets = [s.name for s in state.seats if s.in_play and not s.ghost and s is not player]
        if targets and rng.random() < 0.6:
            card = rng.choice(CARDS)
            count = rng.randint(1, min(3, len(targets))) if card in AREA_CARDS else 1
            play({"eliminated": rng.sample(targets, count), "by": player.name, "card": card})
        if not state.over and player.in_play:
            play({"turn": player.name, "phase": 3})
    return roles, log, state
