"""The Rebel!'s goal and the Revolution: RIB-R3, R4, R11..R15, R17, D2, D9, D11, D13."""

from __future__ import annotations

import pytest

from tests.roles.ribelle.helpers import NINE, REVOLUTION, rules_of, table


def test_rebel_eliminating_the_sheriff_in_his_turn_is_a_revolution():
    """RIB-R3, RIB-R4, RIB-R11: the game goes on and the Rebel! is the Sheriff."""
    state, outcomes = table(REVOLUTION)
    revolution = outcomes[-1].revolution
    assert revolution["rebel"] == "Reb"
    assert revolution["sheriff"] == "Sam"
    assert revolution["rule"] == "RIB-R11"
    assert ("rib.revolution", "RIB-R11") in rules_of(outcomes[-1])
    assert not state.over
    assert state.sheriff.name == "Reb"
    assert state.by_name["Sam"].role == "ribelle"
    assert not state.by_name["Sam"].in_play


def test_the_four_steps_in_order():
    """RIB-R11..R15: step 1 (R12), 2 (R13), 3 (R14), 4 (R15), in this order."""
    _, outcomes = table(REVOLUTION)
    steps = outcomes[-1].revolution["steps"]
    assert [(s["step"], s["rule"], s["msg"]) for s in steps] == [
        (1, "RIB-R12", "rib.revolution.step1"),
        (2, "RIB-R13", "rib.revolution.step2"),
        (3, "RIB-R14", "rib.revolution.step3"),
        (4, "RIB-R15", "rib.revolution.step4"),
    ]


def test_step_1_shows_the_card_and_interrupts_the_turn():
    """RIB-R12: the hidden Rebel! shows his card; his turn stops in phase 2; from now he is
    the Sheriff (face-up, the Deputy penalty is his)."""
    state, outcomes = table(REVOLUTION)
    assert outcomes[1].revolution is None
    assert state.by_name["Reb"].face_up
    assert state.snapshot()["face_up"] == ["Reb"]
    assert state.by_name["Reb"].sheriff_by_revolution


def test_step_2_only_with_an_event_deck():
    """RIB-R13: the High Noon / Fistful of Cards step applies only when that deck is used."""
    _, plain = table(REVOLUTION)
    _, noon = table(REVOLUTION, options={"rib.event_deck": "high_noon"})
    assert plain[-1].revolution["steps"][1]["applies"] is False
    assert noon[-1].revolution["steps"][1] | {} == {
        "step": 2, "msg": "rib.revolution.step2", "rule": "RIB-R13", "applies": True,
        "deck": "high_noon",
    }  # fmt: skip


def test_step_3_new_turn_from_phase_1():
    """RIB-R14: the new Sheriff starts a new turn from phase 1 at once (phase 3 skipped)."""
    state, _ = table(REVOLUTION)
    assert (state.turn, state.phase) == ("Reb", 1)
    # the new turn's phases go on from 1
    state, _ = table([*REVOLUTION, {"turn": "Reb", "phase": 2}])
    assert (state.turn, state.phase) == ("Reb", 2)


def test_step_3_pre_phase_checks_option():
    """RIB-D9: by default the new turn skips the checks before phase 1 (Dynamite...)."""
    _, default = table(REVOLUTION)
    _, switched = table(REVOLUTION, options={"rib.new_turn_skips_pre_phase_checks": False})
    assert default[-1].revolution["steps"][2]["skips_pre_phase_checks"] is True
    assert switched[-1].revolution["steps"][2]["skips_pre_phase_checks"] is False


def test_step_2_card_serves_the_new_turn():
    """RIB-D11: no second High Noon card is turned at the start of the step-3 turn."""
    _, outcomes = table(REVOLUTION, options={"rib.event_deck": "fistful_of_cards"})
    steps = outcomes[-1].revolution["steps"]
    assert steps[1]["applies"]
    assert steps[2]["turns_event_card"] is False


def test_step_4_everyone_keeps_his_role():
    """RIB-R15: every other player keeps role and place; the game goes on."""
    state, _ = table(REVOLUTION)
    assert {s.name: s.role for s in state.seats if s.name not in {"Sam", "Reb"}} == {
        "Vic": "vice", "Olga": "fuorilegge", "Otto": "fuorilegge", "Rina": "rinnegato",
    }  # fmt: skip
    assert [s.name for s in state.living()] == ["Vic", "Olga", "Otto", "Rina", "Reb"]


def test_the_turn_decides_not_who_shot():
    """RIB-D2: the Sheriff eliminated in the Rebel!'s turn by someone else still starts
    the Revolution (rib.revolution_requires_rebel_source = false)."""
    events = [{"turn": "Reb"}, {"eliminated": "Sam", "by": "Olga", "card": "altro"}]
    state, outcomes = table(events)
    assert outcomes[-1].revolution["rebel"] == "Reb"
    assert state.sheriff.name == "Reb"


def test_the_option_asking_for_the_rebel_himself():
    """RIB-D2 switched: with rib.revolution_requires_rebel_source the Sheriff shot by
    another in the Rebel!'s turn ends the game (Outlaws win)."""
    events = [{"turn": "Reb"}, {"eliminated": "Sam", "by": "Olga", "card": "altro"}]
    state, outcomes = table(events, options={"rib.revolution_requires_rebel_source": True})
    assert outcomes[-1].revolution is None
    assert state.over
    assert state.side == "fuorilegge"
    assert ("rib.game_over.sheriff", "RIB-D2") in rules_of(outcomes[-1])


def test_area_card_resolves_before_the_revolution_no_penalty():
    """RIB-R17: a Gatling that eliminates the Sheriff and a Deputy: the card first, no
    penalty for the Rebel! (not yet Sheriff), then the Revolution."""
    events = [{"turn": "Reb"}, {"eliminated": ["Vic", "Sam"], "by": "Reb", "card": "gatling"}]
    _, outcomes = table(events)
    last = outcomes[-1]
    assert last.penalty is None
    assert ("rib.no_penalty_not_yet_sheriff", "RIB-R17") in rules_of(last)
    assert last.revolution["after_card"] is True
    assert ("rib.revolution_after_card", "RIB-R17") in rules_of(last)
    # the Deputy fell before the Revolution: he has lost (RIB-R21)
    assert last.revolution["deputies_lost"] == ["Vic"]


def test_area_card_killing_the_last_outlaw_gives_the_law_the_win():
    """RIB-R17: Indians! that eliminates the Sheriff and the last Outlaw/Renegade: the
    Revolution still happens; the Rebel!-Sheriff and the living Deputies win."""
    events = [
        {"turn": "Olga"}, {"eliminated": "Otto", "by": "Sam", "during": "Olga", "card": "bang"},
        {"turn": "Rina"}, {"eliminated": "Olga", "by": "Vic", "card": "bang"},
        {"turn": "Reb"},
        {"eliminated": ["Sam", "Rina"], "by": "Reb", "card": "indiani"},
    ]  # fmt: skip
    state, outcomes = table(events)
    assert outcomes[-1].revolution is not None
    assert state.over
    assert state.side == "legge"
    assert state.end_rule == "RIB-R17"
    assert state.winners == ["Vic", "Reb"]


def test_no_revolution_when_the_rebel_is_out_too():
    """RIB-D13: the Rebel! out of play when the Sheriff's elimination resolves: no
    Revolution, traditional end (RIB-R16)."""
    events = [{"turn": "Reb"}, {"eliminated": ["Reb", "Sam"], "card": "altro"}]
    state, outcomes = table(events)
    assert outcomes[-1].revolution is None
    assert state.over
    assert state.side == "fuorilegge"
    assert ("rib.game_over.sheriff", "RIB-D13") in rules_of(outcomes[-1])


def test_nine_players_need_every_renegade():
    """RIB-D12: with two Renegades the Law (here the Rebel!-Sheriff) must eliminate both."""
    events = [
        *REVOLUTION,
        {"eliminated": ["Olga", "Otto", "Oscar", "Rina"], "by": "Reb", "card": "gatling"},
    ]
    state, _ = table(events, roles=NINE)
    assert not state.over
    state, _ = table([*events, {"eliminated": "Remo", "by": "Reb", "card": "bang"}], roles=NINE)
    assert state.over
    assert state.side == "legge"
    assert state.winners == ["Vic", "Vera", "Reb"]


@pytest.mark.parametrize("card", ["bang", "dinamite", "howitzer"])
def test_any_effect_in_the_rebels_turn(card):
    """RIB-D2: whatever the effect, the test is the turn."""
    _, outcomes = table([{"turn": "Reb"}, {"eliminated": "Sam", "by": "Reb", "card": card}])
    assert outcomes[-1].revolution is not None
