"""The Time Car game as the site keeps it, a log replayed by the referee: the round's
stages, the wait for the hiding Bandit, the posts (ADT-R13, R14, R16, R17, D4)."""

from __future__ import annotations

import pytest

from roles.automobile_del_tempo.answers import TimeCarViolation
from roles.automobile_del_tempo.table import HIDING, OVER, SCHEMIN, STEALIN, rebuild, setup

CONFIG = {"cars": 3, "rounds": 2, "starts": {"Bea": "locomotive:interior"}}
CHARACTERS = {"Ada": "django", "Bea": "belle"}


def log(*entries):
    return rebuild(setup(CONFIG, CHARACTERS), entries)


def test_a_lone_bandit_makes_the_table_wait_for_his_hiding_then_the_reveal_places_him():
    """ADT-R13, ADT-R14: the round ends waiting for Bea's choice; ADT-R16: the next Stealin'
    opens with her reveal and its post."""
    enter = ("action", {"kind": "move", "actor": "Bea", "to": "time_car"})
    table = log(("stealin", {}), enter, ("round_end", {"event": None}))
    assert (table.stage, table.awaiting) == (HIDING, "Bea")
    table = log(("stealin", {}), enter, ("round_end", {}), ("hide", {"under": "car1"}))
    assert (table.stage, table.awaiting, table.game.public_positions()["Bea"]) == (
        SCHEMIN, None, None,
    )  # fmt: skip
    assert [p.line for p in table.posts] == ["post.hid"]
    table = log(
        ("stealin", {}), enter, ("round_end", {}), ("hide", {"under": "car1"}), ("stealin", {})
    )
    assert table.stage == STEALIN
    assert table.game.public_positions()["Bea"] == "car1:interior"
    assert table.posts[-1].text("it") == (
        "Inizia la fase di Furto del round 2: Bea riappare nell'interno del Vagone 1."
    )


def test_the_last_round_ends_the_game_with_the_bonus_post():
    """ADT-D4, ADT-R17: no waiting on the last round; the end post follows."""
    enter = ("action", {"kind": "move", "actor": "Bea", "to": "time_car"})
    table = log(("stealin", {}), ("round_end", {}), ("stealin", {}), enter, ("round_end", {}))
    assert table.stage == OVER
    assert table.end["bonus"]["bandit"] == "Bea"
    assert table.posts[-1].line == "post.end_bonus"


def test_entries_out_of_their_stage_are_refused():
    """ADT-R16: no action before the Stealin' phase opens; ADT-R13: no hiding unless one
    Bandit is alone."""
    with pytest.raises(TimeCarViolation) as refused:
        log(("action", {"kind": "change_floor", "actor": "Ada"}))
    assert refused.value.rule == "ADT-R16"
    with pytest.raises(TimeCarViolation) as refused:
        log(("stealin", {}), ("round_end", {}), ("hide", {"under": "car1"}))
    assert refused.value.rule == "ADT-R13"
