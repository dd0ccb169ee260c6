"""Eresia vs Inquisizione's options as the rules say them (issue 29 §1, §2): each test
switches one option away from its default and asserts the outcome, citing its rule."""

from __future__ import annotations

import pytest

from roles.engine.announce import announce, post
from roles.engine.errors import RuleViolation
from roles.engine.registry import ruleset_for
from tests.roles.engine.helpers import INQ_TABLE, inq, play
from tests.roles.engine.option_cases import option_test

RULES = ruleset_for("inquisizione")


def day_one(votes: list[dict], **options: object):
    state = inq(**options)
    play(state, "N0")
    return state, play(state, "D1", votes=votes)


@option_test("inq.allow_vote_change", False)
def test_with_changes_off_the_boia_still_changes_his_secret_vote():
    """INQ-R48, INQ-D26: vote changes off do not reach the Boia's secret vote: he changes
    it, abstains and withdraws it freely (withdrawal: INQ-D7's own option)."""
    secret = [{"voter": "Bea", "target": "Luca", "secret": True},
              {"voter": "Bea", "target": None, "secret": True, "abstain": True},
              {"voter": "Bea", "target": None, "secret": True},
              {"voter": "Bea", "target": "Lia", "secret": True}]  # fmt: skip
    _, day = day_one([{"voter": "Sara", "target": "Luca"}, *secret], allow_vote_change=False)
    assert day.execution.executed == "Lia"
    assert day.execution.totals == {"Luca": 1, "Lia": 3}


def test_with_changes_off_a_public_vote_repeated_or_after_nothing_stands():
    """INQ-D26: the same vote again is no change; a withdrawal with no vote withdraws
    nothing; moving a standing public vote is refused (INQ-D5)."""
    votes = [{"voter": "Sara", "target": None}, {"voter": "Sara", "target": "Luca"},
             {"voter": "Ivo", "target": "Leo"}, {"voter": "Sara", "target": "Luca"}]  # fmt: skip
    _, day = day_one(votes, allow_vote_change=False)
    assert day.execution.executed == "Luca"  # Sara's time is her first: Luca's vote came first
    with pytest.raises(RuleViolation) as refused:
        day_one([{"voter": "Sara", "target": "Luca"}, {"voter": "Sara", "target": "Leo"}],
                allow_vote_change=False)  # fmt: skip
    assert (refused.value.code, refused.value.rule) == ("vote.no_change", "INQ-D5")


@option_test("inq.boia_secret_withdrawable", False)
def test_withdrawing_a_secret_vote_he_does_not_have_is_a_no_op():
    """INQ-D27: with secret withdrawal off, withdrawing a secret vote the Boia does not hold
    does nothing; withdrawing one he holds is refused (INQ-D7)."""
    votes = [{"voter": "Bea", "target": None, "secret": True},
             {"voter": "Bea", "target": "Luca", "secret": True}]  # fmt: skip
    _, day = day_one(votes, boia_secret_withdrawable=False)
    assert day.execution.executed == "Luca"
    with pytest.raises(RuleViolation) as refused:
        day_one(votes[::-1], boia_secret_withdrawable=False)
    assert (refused.value.code, refused.value.rule) == ("inq.secret_withdraw", "INQ-D7")


def mauled_and_executed(**options: object):
    """Carlo (Farmer) executed on D1, Rita (Farmer) mauled on N1; the wolves then die."""
    state = inq(**options)
    play(state, "N0")
    play(state, "D1", votes=[{"voter": "Sara", "target": "Carlo"}])
    play(state, "N1", actions=[{"actor": "Luca", "target": "Rita"}])
    return state


@option_test("inq.mauled_farmer_loses", True)
def test_only_a_mauled_farmer_loses():
    """INQ-D4 switched on: a mauled Farmer does not win; an executed one does, as the living."""
    state = mauled_and_executed(mauled_farmer_loses=True)
    winners = RULES.faction_winners(state, ["eresia"])
    assert "Carlo" in winners
    assert "Anna" in winners
    assert "Rita" not in winners


def test_the_farmers_old_key_is_read_as_the_new_one():
    """INQ-D4: inq.farmer_must_survive (a game file or backup before the rename) still loads."""
    state = mauled_and_executed(farmer_must_survive=True)
    assert state.options["inq.mauled_farmer_loses"] is True
    assert "inq.farmer_must_survive" not in state.options
    winners = RULES.faction_winners(state, ["inquisizione"])
    assert "Carlo" in winners
    assert "Rita" not in winners
    with pytest.raises(RuleViolation) as refused:
        inq(farmer_must_survive=True, mauled_farmer_loses=True)
    assert refused.value.code == "option.twice"


def test_every_farmer_wins_alive_or_dead_by_default():
    """INQ-R25, INQ-D4: executed or mauled, a Farmer wins with Heresy or the Inquisition."""
    winners = RULES.faction_winners(mauled_and_executed(), ["eresia"])
    assert {"Carlo", "Rita", "Anna"} <= winners


@option_test("inq.dead_members_share_win", False)
def test_dead_farmers_win_even_when_the_dead_do_not_share():
    """INQ-D3: the Farmers win alive or dead whatever dead_members_share_win says; a dead
    member of the winning faction does not."""
    state = mauled_and_executed(dead_members_share_win=False)
    play(state, "D2", votes=[{"voter": "Sara", "target": "Gina"}])
    winners = RULES.faction_winners(state, ["eresia"])
    assert {"Carlo", "Rita"} <= winners
    assert "Gina" not in winners
    assert "Sara" in winners


@option_test("inq.wolves_can_target_wolves", True)
def test_wolves_may_maul_a_wolf_but_never_the_sender():
    """INQ-D12 switched on, INQ-D28: a wolf may be mauled, not by himself."""
    state = inq(wolves_can_target_wolves=True)
    play(state, "N0")
    play(state, "D1")
    night = play(state, "N1", actions=[{"actor": "Luca", "target": "Lia"}])
    assert [(d.player, d.cause) for d in night.deaths] == [("Lia", "pack")]
    state = inq(wolves_can_target_wolves=True)
    play(state, "N0")
    play(state, "D1")
    with pytest.raises(RuleViolation):
        play(state, "N1", actions=[{"actor": "Luca", "target": "Luca"}])


@option_test("inq.allow_self_vote", True)
def test_a_self_vote_counts_when_allowed():
    """INQ-D5 switched on: a player may vote for himself."""
    _, day = day_one([{"voter": "Carlo", "target": "Carlo"}], allow_self_vote=True)
    assert day.execution.executed == "Carlo"
    with pytest.raises(RuleViolation):
        day_one([{"voter": "Carlo", "target": "Carlo"}])


@option_test("inq.reveal_role_on_death", True)
@option_test("inq.announce_cause_of_death", True)
def test_a_death_shows_role_and_cause_when_switched_on():
    """INQ-D2 switched on: the announcement names the role and the cause."""
    state, day = day_one([{"voter": "Sara", "target": "Luca"}], reveal_role_on_death=True,
                         announce_cause_of_death=True)  # fmt: skip
    assert "Luca (Werewolf, executed) is executed." in announce(state, day, "en")
    assert "Luca (Lupo Mannaro, " in announce(state, day, "it")
    state, day = day_one([{"voter": "Sara", "target": "Luca"}])
    assert "Luca is executed." in announce(state, day, "en")


@option_test("inq.reveal_all_at_end", False)
def test_no_roles_at_the_end_when_switched_off():
    """INQ-D24 switched off: the end-of-game post lists no roles."""
    state, day = day_one([{"voter": "Sara", "target": "Luca"}], reveal_all_at_end=False)
    state.winning_factions, state.winners = ["eresia"], ["Sara"]
    assert post(state, day, "en").roles == []


@option_test("inq.investigate_dead", True)
def test_the_seer_may_probe_the_dead_when_switched_on():
    """INQ-D9 switched on: a dead player may be probed."""
    for allowed in (True, False):
        state, _ = day_one([{"voter": "Sara", "target": "Luca"}], investigate_dead=allowed)
        probe = [{"actor": "Sara", "target": "Luca"}]
        if allowed:
            night = play(state, "N1", actions=probe)
            assert [(r.to, r.about, r.value) for r in night.results
                    if r.kind == "investigation"] == [("Sara", "Luca", "losco")]  # fmt: skip
        else:
            with pytest.raises(RuleViolation):
                play(state, "N1", actions=probe)


@option_test("inq.record_maul_executor", False)
def test_the_record_does_not_name_the_wolf_when_switched_off():
    """INQ-D12 switched off: the trace says who was mauled, not by which wolf."""
    for record in (True, False):
        state = inq(record_maul_executor=record)
        play(state, "N0")
        play(state, "D1")
        night = play(state, "N1", actions=[{"actor": "Luca", "target": "Rita"}])
        ids = [line.id for line in night.trace]
        assert ("inq.trace.maul_by" in ids) is record
        assert ("inq.trace.maul" in ids) is not record


@pytest.mark.parametrize(
    ("options", "code"),
    [({"inq.starts_with": "day"}, "option.retired"), ({"inq.made_up": 1}, "option.unknown")],
)
def test_a_retired_or_unknown_setting_is_refused_naming_it(options, code):
    """INQ-D29: inq.starts_with: day was accepted and ignored; now refused, named."""
    with pytest.raises(RuleViolation) as refused:
        RULES.new_game(INQ_TABLE, options=options)
    assert refused.value.code == code
    assert refused.value.params["option"] == next(iter(options))
    assert next(iter(options)) in str(refused.value)
