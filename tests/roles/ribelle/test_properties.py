"""Random legal games (roles/ribelle/simulate.py): whatever happens, the end is one of the
rules' ends and the winners are the ones the goals name (RIB-R4..R8, R16, R21, D3, D7, D8)."""

from __future__ import annotations

import pytest

from roles.ribelle.replay import run_ribelle
from roles.ribelle.simulate import random_game
from roles.ribelle.table import DEPUTY, OUTLAW, REBEL, RENEGADE, SHERIFF

GAMES = range(400)


@pytest.mark.parametrize("chunk", range(4))
def test_random_games_end_with_the_goals_winners(chunk):
    ends = set()
    for seed in GAMES[chunk::4]:
        roles, log, state = random_game(seed)
        assert state.over, f"seed {seed}: no end after {len(log)} events"
        assert sum(s.role == SHERIFF for s in state.seats) == 1
        winners = set(state.winners)
        plays = {s.name: s.role for s in state.seats}
        if state.side == "legge":
            assert not state.outlaws_and_renegades_left()
            assert state.sheriff.name in winners
            assert winners <= {n for n, r in plays.items() if r in (SHERIFF, DEPUTY)}
        elif state.side == "fuorilegge":
            assert winners == {n for n, r in roles.items() if r == OUTLAW}
        else:
            assert state.side == "rinnegato"
            assert [plays[n] for n in winners] == [RENEGADE]
        assert not any(plays[n] == REBEL for n in winners)  # RIB-R7, R8, D3, D8
        ends.add((state.side, state.end_rule))
        # the same log, replayed from the file format, gives the same report
        deck = {"rib.event_deck": state.options["rib.event_deck"]}
        report = run_ribelle({"setup": "ribelle", "players": roles, "events": log, "options": deck})
        assert (report["winning_side"], report["winners"]) == (state.side, state.winners)
    assert len(ends) >= 3  # the random games reach several different ends
