"""Goals and the end of the game: RIB-R4..R8, R16, R18, R21, D3, D4, D6, D7, D8."""

from __future__ import annotations

from tests.roles.ribelle.helpers import FISTFUL, FOUR, REVOLUTION, rules_of, table

LAW_AFTER_REVOLUTION = [
    *REVOLUTION,
    {"eliminated": ["Olga", "Otto", "Rina"], "by": "Reb", "card": "gatling"},
]


def test_deputies_become_the_rebels_allies():
    """RIB-R4, RIB-R6: the Deputy still in play wins with the Rebel!-Sheriff."""
    state, outcomes = table(LAW_AFTER_REVOLUTION)
    assert state.over
    assert state.side == "legge"
    assert state.end_rule == "RIB-R4"
    assert state.winners == ["Vic", "Reb"]
    assert ("rib.game_over.law", "RIB-R4") in rules_of(outcomes[-1])


def test_deputy_wins_with_the_original_sheriff():
    """RIB-R6, RIB-R7, RIB-R8: no Revolution, the Law wins with the Rebel! alive: the Rebel!
    need not be eliminated and is defeated."""
    events = [{"turn": "Sam"}, {"eliminated": ["Olga", "Otto", "Rina"], "by": "Sam",
                                "card": "gatling"}]  # fmt: skip
    state, outcomes = table(events)
    assert state.over
    assert state.side == "legge"
    assert state.end_rule == "RIB-R8"
    assert state.winners == ["Sam", "Vic"]
    assert state.by_name["Reb"].in_play
    assert ("rib.rebel_defeated", "RIB-R8") in rules_of(outcomes[-1])


def test_goals_do_not_change_after_the_revolution():
    """RIB-R5, RIB-R16: the Outlaws still want the Sheriff: the new one falls to an Outlaw
    in the Outlaw's turn and the Outlaws win."""
    events = [*REVOLUTION, {"turn": "Olga"}, {"eliminated": "Reb", "by": "Olga", "card": "bang"}]
    state, outcomes = table(events)
    assert state.over
    assert state.side == "fuorilegge"
    assert state.end_rule == "RIB-R16"
    assert state.winners == ["Olga", "Otto"]
    assert ("rib.game_over.sheriff", "RIB-R16") in rules_of(outcomes[-1])


def test_sheriff_eliminated_otherwise_ends_the_game_and_the_rebel_loses():
    """RIB-R16, RIB-D3: an Outlaw shoots the Sheriff in his own turn: Outlaws win, the
    Rebel! loses."""
    state, outcomes = table([{"turn": "Otto"}, {"eliminated": "Sam", "by": "Otto"}])
    assert state.over
    assert state.side == "fuorilegge"
    assert state.winners == ["Olga", "Otto"]
    assert ("rib.rebel_loses", "RIB-D3") in rules_of(outcomes[-1])


def test_duel_against_the_rebel_in_the_sheriffs_turn():
    """RIB-R18: the Sheriff dies of a Duel he played against the Rebel!: not the Rebel!'s
    turn, no Revolution, the Outlaws win."""
    events = [{"turn": "Sam", "phase": 2}, {"eliminated": "Sam", "by": "Reb", "card": "duello"}]
    state, outcomes = table(events)
    assert outcomes[-1].revolution is None
    assert state.over
    assert state.side == "fuorilegge"
    assert ("rib.game_over.sheriff", "RIB-R18") in rules_of(outcomes[-1])


def test_renegade_is_not_last_while_the_rebel_lives():
    """RIB-D4: the Renegade eliminates the Sheriff with the Rebel! still alive: the Outlaws
    win, even with none alive."""
    events = [
        {"turn": "Sam"}, {"eliminated": "Olga", "by": "Sam", "card": "bang"},
        {"turn": "Rina"}, {"eliminated": "Sam", "by": "Rina", "card": "bang"},
    ]  # fmt: skip
    state, outcomes = table(events, roles=FOUR)
    assert state.over
    assert state.side == "fuorilegge"
    assert state.winners == ["Olga"]
    assert ("rib.game_over.sheriff", "RIB-D4") in rules_of(outcomes[-1])


def test_renegade_last_in_play_wins():
    """Traditional rule kept by RIB-R16 (BANG-B5): the Renegade alone with the Sheriff wins."""
    events = [
        {"turn": "Sam"}, {"eliminated": ["Olga", "Reb"], "by": "Sam", "card": "gatling"},
        {"turn": "Rina"}, {"eliminated": "Sam", "by": "Rina", "card": "bang"},
    ]  # fmt: skip
    state, _ = table(events, roles=FOUR)
    assert state.over
    assert state.side == "rinnegato"
    assert state.winners == ["Rina"]


def test_deputy_eliminated_before_the_revolution_has_lost():
    """RIB-R21: Vic falls before the Revolution: the Rebel!-Sheriff wins without him."""
    events = [
        {"turn": "Olga"}, {"eliminated": "Vic", "by": "Olga", "card": "bang"},
        *LAW_AFTER_REVOLUTION,
    ]  # fmt: skip
    state, outcomes = table(events)
    assert state.winners == ["Reb"]
    assert ("rib.deputies_lost", "RIB-R21") in rules_of(outcomes[-2])


def test_deputy_back_after_the_revolution_wins():
    """RIB-R21: the Deputy out before the Revolution, back through Dead Man after it, wins."""
    events = [
        {"turn": "Olga"}, {"eliminated": "Vic", "by": "Olga", "card": "bang"},
        *REVOLUTION,
        {"returns": "Vic", "via": "dead_man"},
        {"eliminated": ["Olga", "Otto", "Rina"], "by": "Reb", "card": "gatling"},
    ]  # fmt: skip
    state, outcomes = table(events, options=FISTFUL)
    assert ("rib.deputy_back_after_revolution", "RIB-R21") in rules_of(outcomes[-2])
    assert state.winners == ["Vic", "Reb"]


def test_deputy_eliminated_after_the_revolution_still_wins():
    """RIB-D7: a Deputy who falls after the Revolution wins if the Law wins."""
    events = [
        *REVOLUTION, {"turn": "Olga"}, {"eliminated": "Vic", "by": "Olga", "card": "bang"},
        {"turn": "Reb"}, {"eliminated": ["Olga", "Otto", "Rina"], "by": "Reb", "card": "gatling"},
    ]  # fmt: skip
    state, _ = table(events)
    assert state.over
    assert state.winners == ["Vic", "Reb"]


def test_dethroned_sheriff_has_lost_unless_he_returns():
    """RIB-D8: the Sheriff killed by the Rebel! is out of the Law's win."""
    state, outcomes = table(LAW_AFTER_REVOLUTION)
    assert "Sam" not in state.winners
    assert ("rib.dethroned_loses", "RIB-D8") in rules_of(outcomes[-1])


def test_no_reward_for_the_rebel():
    """RIB-D6: eliminating the Rebel! draws no cards; an Outlaw still gives 3 (BANG-B9)."""
    _, outcomes = table([{"turn": "Sam"}, {"eliminated": "Reb", "by": "Sam", "card": "bang"},
                         {"eliminated": "Olga", "by": "Sam", "card": "bang"}])  # fmt: skip
    assert ("rib.no_reward_rebel", "RIB-D6") in rules_of(outcomes[1])
    assert ("rib.reward_outlaw", "BANG-B9") in rules_of(outcomes[2])
    assert not any(msg == "rib.reward_outlaw" for msg, _ in rules_of(outcomes[1]))
