"""The reveal (RIB-R9, D10) and the Sheriff's Deputy penalty (RIB-R10, R12, D5)."""

from __future__ import annotations

import pytest

from roles.ribelle.table import RibelleViolation
from tests.roles.ribelle.helpers import FISTFUL, REVOLUTION, rules_of, table

REVEAL = [{"turn": "Reb"}, {"reveal": "Reb"}]
SHERIFF_SHOOTS_DEPUTY = [{"turn": "Sam"}, {"eliminated": "Vic", "by": "Sam", "card": "bang"}]


def test_reveal_at_the_end_of_phase_1_of_his_turn():
    """RIB-R9: the Rebel! reveals in phase 1 of his own turn; he is face-up from then on."""
    state, outcomes = table(REVEAL)
    assert state.snapshot()["face_up"] == ["Sam", "Reb"]
    assert rules_of(outcomes[-1]) == [
        ("rib.reveal", "RIB-R9"),
        ("rib.penalty_suspended", "RIB-R10"),
    ]


@pytest.mark.parametrize(
    "events",
    [
        [{"turn": "Reb", "phase": 2}, {"reveal": "Reb"}],  # too late in his turn
        [{"turn": "Sam"}, {"reveal": "Reb"}],  # not his turn
        [{"reveal": "Reb"}],  # no turn at all
    ],
)
def test_reveal_outside_his_phase_1_is_refused(events):
    """RIB-R9: only at the end of phase 1 of his own turn."""
    with pytest.raises(RibelleViolation) as caught:
        table(events)
    assert caught.value.rule == "RIB-R9"
    assert caught.value.msg == "rib.error.reveal_time"


def test_only_the_rebel_reveals():
    """RIB-R9: "unlike every other role": an Outlaw cannot use it."""
    with pytest.raises(RibelleViolation) as caught:
        table([{"turn": "Olga"}, {"reveal": "Olga"}])
    assert (caught.value.rule, caught.value.msg) == ("RIB-R9", "rib.error.not_rebel")
    assert str(caught.value) == (
        "event 2: Olga (fuorilegge) is not the Rebel!: only the Rebel! may reveal his role [RIB-R9]"
    )


def test_revealing_is_optional_and_permanent():
    """RIB-R9 optional (a hidden Rebel! still makes the Revolution); RIB-D10 permanent."""
    _, outcomes = table(REVOLUTION)
    assert outcomes[-1].revolution is not None
    state, _ = table([*REVEAL, {"turn": "Olga"}, {"turn": "Reb"}])
    assert state.by_name["Reb"].face_up
    with pytest.raises(RibelleViolation) as caught:
        table([*REVEAL, {"turn": "Olga"}, {"turn": "Reb"}, {"reveal": "Reb"}])
    assert caught.value.rule == "RIB-D10"


def test_sheriff_eliminating_a_deputy_discards():
    """RIB-R10 (the traditional rule): no face-up Rebel!, the Sheriff discards every card."""
    _, outcomes = table(SHERIFF_SHOOTS_DEPUTY)
    assert outcomes[-1].penalty == {
        "sheriff": "Sam", "deputies": ["Vic"], "discards": True, "rule": "RIB-R10",
        "msg": "rib.penalty.discard",
    }  # fmt: skip


def test_face_up_rebel_suspends_the_penalty():
    """RIB-R10: while the Rebel! is face-up the Sheriff keeps his cards."""
    _, outcomes = table([*REVEAL, *SHERIFF_SHOOTS_DEPUTY])
    penalty = outcomes[-1].penalty
    assert (penalty["discards"], penalty["rule"]) == (False, "RIB-R10")


def test_face_up_rebel_out_of_play_suspends_nothing():
    """RIB-D5: the suspension needs a face-up Rebel! *in play*."""
    events = [*REVEAL, {"turn": "Sam"}, {"eliminated": "Reb", "by": "Sam", "card": "bang"},
              {"eliminated": "Vic", "by": "Sam", "card": "bang"}]  # fmt: skip
    _, outcomes = table(events)
    assert outcomes[-1].penalty["discards"] is True


def test_the_new_sheriff_pays_the_penalty():
    """RIB-R12: after the Revolution the Rebel!-Sheriff discards if he kills a Deputy."""
    events = [*REVOLUTION, {"eliminated": "Vic", "by": "Reb", "card": "bang"}]
    _, outcomes = table(events)
    penalty = outcomes[-1].penalty
    assert (penalty["sheriff"], penalty["discards"], penalty["rule"]) == ("Reb", True, "RIB-R12")


def test_returned_face_up_rebel_suspends_it_again():
    """RIB-D5: the old Sheriff back as a (face-up) Rebel!: the new Sheriff keeps his cards."""
    events = [*REVOLUTION, {"returns": "Sam", "via": "dead_man"},
              {"eliminated": "Vic", "by": "Reb", "card": "bang"}]  # fmt: skip
    _, outcomes = table(events, options=FISTFUL)
    penalty = outcomes[-1].penalty
    assert (penalty["discards"], penalty["rule"]) == (False, "RIB-D5")
