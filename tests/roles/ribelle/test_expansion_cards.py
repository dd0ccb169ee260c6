"""Ghost Town and Dead Man as printed (issue 29 §3): each card only with its event deck,
Dead Man only for the first player eliminated, a ghost only for his own turn (BANG-B8,
RIB-D15, RIB-D16); and a Deputy eliminated between two Revolutions (RIB-D14)."""

from __future__ import annotations

import pytest

from roles.ribelle.table import RibelleViolation
from tests.roles.ribelle.helpers import FISTFUL, HIGH_NOON, REVOLUTION, rules_of, table

TWO_FALL = [
    {"turn": "Sam"}, {"eliminated": "Olga", "by": "Sam", "card": "bang"},
    {"turn": "Vic"}, {"eliminated": "Otto", "by": "Vic", "card": "bang"},
]  # fmt: skip


def refusal(events, options) -> RibelleViolation:
    with pytest.raises(RibelleViolation) as caught:
        table(events, options=options)
    return caught.value


def test_dead_man_brings_back_only_the_first_player_eliminated():
    """BANG-B8, RIB-D16: "il giocatore che è stato eliminato per primo rientra in gioco"."""
    refused = refusal([*TWO_FALL, {"returns": "Otto", "via": "dead_man"}], FISTFUL)
    assert (refused.msg, refused.rule) == ("rib.error.not_first_eliminated", "BANG-B8")
    assert refused.params["first"] == "Olga"
    assert "only the first player eliminated" in str(refused)
    state, outcomes = table([*TWO_FALL, {"returns": "Olga", "via": "dead_man"},
                             {"turn": "Olga"}], options=FISTFUL)  # fmt: skip
    assert state.by_name["Olga"].in_play
    assert not state.by_name["Olga"].ghost
    assert ("rib.returns", "BANG-B8") in rules_of(outcomes[-2])


def test_the_first_of_one_cards_victims_is_the_first_eliminated():
    """RIB-D16: one card's victims fell in the order the log lists them."""
    events = [{"turn": "Reb"}, {"eliminated": ["Otto", "Olga"], "by": "Reb", "card": "gatling"}]
    assert refusal([*events, {"returns": "Olga", "via": "dead_man"}], FISTFUL).rule == "BANG-B8"
    state, _ = table([*events, {"returns": "Otto", "via": "dead_man"}], options=FISTFUL)
    assert state.by_name["Otto"].in_play


@pytest.mark.parametrize(
    ("via", "options"),
    [("ghost_town", None), ("ghost_town", FISTFUL), ("dead_man", None), ("dead_man", HIGH_NOON)],
)
def test_a_return_card_needs_its_event_deck(via, options):
    """BANG-B8, RIB-R13: Ghost Town is a High Noon card, Dead Man one of A Fistful of Cards."""
    events = [{"turn": "Sam"}, {"eliminated": "Olga", "by": "Sam"}, {"returns": "Olga", "via": via}]
    refused = refusal(events, options)
    assert (refused.msg, refused.rule) == ("rib.error.card_not_in_deck", "BANG-B8")
    assert refused.params["via"] == via
    assert "deck is not in play" in str(refused)


def test_a_ghost_whose_turn_was_not_logged_is_out_when_the_next_turn_begins():
    """BANG-B8, RIB-D15: back during his own turn, out at its end, logged or not."""
    events = [{"turn": "Sam"}, {"eliminated": "Reb", "by": "Sam"},
              {"returns": "Reb", "via": "ghost_town"}, {"turn": "Vic"}]  # fmt: skip
    state, outcomes = table(events, options=HIGH_NOON)
    assert not state.by_name["Reb"].in_play
    assert state.snapshot()["ghosts"] == []
    assert ("rib.ghost_leaves", "BANG-B8") in rules_of(outcomes[-1])
    refused = refusal([*events, {"turn": "Vic", "phase": 2},
                       {"eliminated": "Olga", "by": "Reb"}], HIGH_NOON)  # fmt: skip
    assert (refused.msg, refused.rule) == ("rib.error.out_of_play", "BANG-B2")


def test_a_ghost_eliminates_nobody_in_another_players_turn():
    """BANG-B8, RIB-D15: a ghost plays his own turn only."""
    events = [
        {"turn": "Sam"},
        {"eliminated": "Reb", "by": "Sam"},
        {"returns": "Reb", "via": "ghost_town"},
        {"eliminated": "Olga", "by": "Reb"},
    ]
    refused = refusal(events, HIGH_NOON)
    assert (refused.msg, refused.rule) == ("rib.error.out_of_play", "BANG-B8")


def test_a_deputy_eliminated_between_two_revolutions_has_lost():
    """RIB-D14, RIB-R21: out of play at the latest Revolution, he has lost (RIB-D7 covers
    only the Deputies who fall after it)."""
    events = [
        *REVOLUTION,
        {"turn": "Olga"}, {"eliminated": "Vic", "by": "Olga", "card": "bang"},
        {"returns": "Sam", "via": "ghost_town"}, {"turn": "Sam", "phase": 2},
        {"eliminated": "Reb", "by": "Sam", "card": "bang"},
        {"turn": "Sam", "phase": 2},
        {"eliminated": ["Olga", "Otto", "Rina"], "by": "Sam", "card": "gatling"},
    ]  # fmt: skip
    state, outcomes = table(events, options=HIGH_NOON)
    assert state.revolutions == 2
    assert state.over
    assert state.side == "legge"
    assert state.winners == ["Sam"]
    assert ("rib.deputies_lost", "RIB-R21") in rules_of(outcomes[-3])
