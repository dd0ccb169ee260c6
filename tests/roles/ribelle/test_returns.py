"""Returns through Ghost Town and Dead Man: RIB-R19..R22, D8; and the log's own checks."""

from __future__ import annotations

import pytest

from roles.ribelle.table import RibelleViolation
from tests.roles.ribelle.helpers import DECK_OF, FISTFUL, HIGH_NOON, REVOLUTION, rules_of, table


def test_dethroned_sheriff_comes_back_as_the_rebel():
    """RIB-R19: the Sheriff killed by the Rebel! returns playing as the Rebel!."""
    state, outcomes = table([*REVOLUTION, {"returns": "Sam", "via": "dead_man"}], options=FISTFUL)
    assert state.by_name["Sam"].role == "ribelle"
    assert state.rebel.name == "Sam"
    assert ("rib.returns_as_rebel", "RIB-R19") in rules_of(outcomes[-1])


@pytest.mark.parametrize("via", ["ghost_town", "dead_man"])
def test_returned_rebel_is_face_up(via):
    """RIB-R20: an eliminated Rebel! (or Sheriff) who comes back is face-up."""
    events = [{"turn": "Sam"}, {"eliminated": "Reb", "by": "Sam"}, {"returns": "Reb", "via": via}]
    state, outcomes = table(events, options=DECK_OF[via])
    assert state.by_name["Reb"].face_up
    assert "Reb" in state.snapshot()["face_up"]
    assert ("rib.returns_face_up", "RIB-R20") in rules_of(outcomes[-1])
    state, _ = table([*REVOLUTION, {"returns": "Sam", "via": via}], options=DECK_OF[via])
    assert "Sam" in state.snapshot()["face_up"]


def test_ghost_leaves_after_his_turn():
    """BANG-B8: a Ghost Town return lasts his turn; the next player's turn sends him back."""
    events = [{"turn": "Sam"}, {"eliminated": "Reb", "by": "Sam"},
              {"returns": "Reb", "via": "ghost_town"}, {"turn": "Reb"},
              {"turn": "Olga"}]  # fmt: skip
    state, outcomes = table(events, options=HIGH_NOON)
    assert not state.by_name["Reb"].in_play
    assert ("rib.ghost_leaves", "BANG-B8") in rules_of(outcomes[-1])


def test_ghost_rebel_revolution_returns_for_good():
    """RIB-R22, RIB-D8: the old Sheriff, back as a ghost Rebel!, kills the Sheriff in his
    turn: Revolution, he is alive for good (1 life point, a new turn without Ghost Town),
    Sheriff again, and wins with the Law."""
    events = [
        *REVOLUTION,
        {"returns": "Sam", "via": "ghost_town"}, {"turn": "Sam", "phase": 2},
        {"eliminated": "Reb", "by": "Sam", "card": "bang"},
    ]  # fmt: skip
    state, outcomes = table(events, options=HIGH_NOON)
    revolution = outcomes[-1].revolution
    assert revolution["rebel"] == "Sam"
    assert revolution["ghost"] is True
    assert ("rib.ghost_returns_for_good", "RIB-R22") in rules_of(outcomes[-1])
    assert state.sheriff.name == "Sam"
    assert not state.by_name["Sam"].ghost
    state, _ = table([*events, {"turn": "Olga"},
                      {"eliminated": ["Olga", "Otto", "Rina"], "by": "Sam", "card": "gatling",
                       "during": "Olga"}], options=HIGH_NOON)  # fmt: skip
    assert state.by_name["Sam"].in_play  # still there after the next player's turn
    assert state.over
    assert state.side == "legge"
    assert state.winners == ["Sam", "Vic"]  # Reb, dethroned in turn, has lost (RIB-D8)


def test_ghost_cannot_be_eliminated():
    """BANG-B8: a ghost does not die during his Ghost Town turn."""
    events = [{"turn": "Sam"}, {"eliminated": "Reb", "by": "Sam"},
              {"returns": "Reb", "via": "ghost_town"}, {"turn": "Reb"},
              {"eliminated": "Reb", "by": "Olga"}]  # fmt: skip
    with pytest.raises(RibelleViolation) as caught:
        table(events, options=HIGH_NOON)
    assert (caught.value.msg, caught.value.rule) == ("rib.error.ghost", "BANG-B8")


@pytest.mark.parametrize(
    ("events", "rule"),
    [
        ([{"turn": "Sam"}, {"eliminated": "Olga", "by": "Sam"}, {"turn": "Olga"}], "BANG-B2"),
        ([{"turn": "Sam"}, {"eliminated": "Olga", "by": "Sam"},
          {"eliminated": "Vic", "by": "Olga"}], "BANG-B2"),
        ([{"turn": "Sam"}, {"eliminated": "Olga", "by": "Sam"},
          {"eliminated": "Olga", "by": "Sam"}], "BANG-B2"),
        ([{"turn": "Sam"}, {"eliminated": "Vic", "by": "Sam", "during": "Olga"}], "RIB-D2"),
        ([{"eliminated": "Vic", "by": "Sam"}], "BANG-B1"),
        ([{"turn": "Sam", "phase": 2}, {"turn": "Sam", "phase": 2}], "BANG-B1"),
        ([{"returns": "Sam", "via": "dead_man"}], "BANG-B8"),
    ],
)  # fmt: skip
def test_eliminated_players_do_not_act(events, rule):
    """BANG-B1, BANG-B2, RIB-D2: the log's own consistency (an eliminated player acting,
    a turn that is not the log's, phases out of order)."""
    with pytest.raises(RibelleViolation) as caught:
        table(events)
    assert caught.value.rule == rule
