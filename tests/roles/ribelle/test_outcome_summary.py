"""ribelle.md's "Outcome summary" table, one row per case (table-driven)."""

from __future__ import annotations

import pytest

from tests.roles.ribelle.helpers import HIGH_NOON, REVOLUTION, table

KILL_THE_REST = {"eliminated": ["Olga", "Otto", "Rina"], "by": "Reb", "card": "gatling"}
ROWS = [
    (  # Rebel! eliminates the Sheriff during his turn -> Revolution (RIB-R11..R15)
        "revolution", REVOLUTION, False, None, None, "Reb",
    ),
    (  # Sheriff eliminated any other way, incl. a Duel (RIB-R16, R18, D3)
        "duel", [{"turn": "Sam"}, {"eliminated": "Sam", "by": "Reb", "card": "duello"}],
        True, "fuorilegge", ["Olga", "Otto"], "Sam",
    ),
    (  # all Outlaws and Renegades out, no Revolution -> Law, the Rebel! loses (RIB-R8)
        "law", [{"turn": "Sam"}, {**KILL_THE_REST, "by": "Sam"}],
        True, "legge", ["Sam", "Vic"], "Sam",
    ),
    (  # the same through the Rebel!'s area card that also kills the Sheriff (RIB-R17)
        "area-card",
        [{"turn": "Reb"}, {**KILL_THE_REST, "eliminated": ["Sam", "Olga", "Otto", "Rina"]}],
        True, "legge", ["Vic", "Reb"], "Reb",
    ),
    (  # after the Revolution, Outlaws and Renegades out -> Rebel!-Sheriff + Deputies (RIB-R21)
        "after-revolution", [{"turn": "Olga"}, {"eliminated": "Vic", "by": "Olga"},
                             *REVOLUTION, KILL_THE_REST],
        True, "legge", ["Reb"], "Reb",
    ),
    (  # after the Revolution the new Sheriff is eliminated -> as RIB-R16
        "new-sheriff-falls", [*REVOLUTION, {"turn": "Otto"}, {"eliminated": "Reb", "by": "Otto"}],
        True, "fuorilegge", ["Olga", "Otto"], "Reb",
    ),
    (  # ... unless a returned Rebel! kills him during his own turn (RIB-R19, R22)
        "returned-rebel", [*REVOLUTION, {"returns": "Sam", "via": "ghost_town"},
                           {"turn": "Sam"}, {"eliminated": "Reb", "by": "Sam"}],
        False, None, None, "Sam",
    ),
]  # fmt: skip


@pytest.mark.parametrize(
    ("events", "over", "side", "winners", "sheriff"),
    [row[1:] for row in ROWS],
    ids=[row[0] for row in ROWS],
)
def test_outcome_summary(events, over, side, winners, sheriff):
    state, _ = table(events, options=HIGH_NOON)  # the returned Rebel!'s Ghost Town (BANG-B8)
    assert (state.over, state.side, state.winners) == (over, side, winners)
    assert state.sheriff.name == sheriff
