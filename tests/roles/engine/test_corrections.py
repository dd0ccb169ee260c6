"""A GM's correction is an input to the resolution (a death prevented or added at a named
step), so every consequence the rules attach to a death follows from the corrected facts."""

from __future__ import annotations

import pytest

from roles.engine.errors import RuleViolation
from roles.engine.registry import ruleset_for
from roles.wild_west_wolf.abilities import PACK_KILL
from tests.roles.engine.helpers import inq, play, www


def deaths(outcome):
    return [(d.player, d.cause) for d in outcome.deaths]


def kinds(outcome, kind):
    return [r for r in outcome.results if r.kind == kind]


def www_to_n1():
    state = www()
    play(state, "N0", [{"actor": "Pia", "fake_role": "cowboy"}])
    play(state, "D1")
    return state


@pytest.mark.parametrize("spared", [False, True])
def test_spared_pianista_neither_blocks_the_pack_nor_meets_her_goal(spared):
    """WWW-R91, WWW-R92: only a Pianista the Indians kill blocks their next attack and wins."""
    state = www_to_n1()
    fix = [{"kind": "spare", "player": "Pia"}] if spared else []
    out = play(state, "N1", [{"actor": "Ivan", "target": "Pia"}], corrections=fix)
    assert deaths(out) == ([] if spared else [("Pia", "pack")])
    assert state.by_name["Pia"].alive is spared
    assert ("Pia" in state.goal_met) is not spared
    play(state, "D2")
    if spared:
        out = play(state, "N2", [{"actor": "Ivan", "target": "Gino"}])
        assert deaths(out) == [("Gino", "pack")]
    else:
        with pytest.raises(RuleViolation, match="WWW-R91"):
            play(state, "N2", [{"actor": "Ivan", "target": "Gino"}])


@pytest.mark.parametrize("spared", [False, True])
def test_spared_bounty_target_makes_no_rinnegato(spared):
    """WWW-R84, WWW-D21: the Cacciatore turns only when his bounty dies in the night."""
    state = www_to_n1()
    fix = [{"kind": "spare", "player": "Carla", "step": "indiani"}] if spared else []
    out = play(state, "N1", [{"actor": "Ivan", "target": "Carla"}], corrections=fix)
    assert bool(kinds(out, "rinnegato")) is not spared
    assert state.by_name["Cac"].role == ("cacciatore_di_taglie" if spared else "rinnegato")


def test_spare_at_another_step_does_not_prevent_the_death():
    """A spare names the step where the death is prevented: the attack comes in phase 5."""
    state = www_to_n1()
    fix = [{"kind": "spare", "player": "Carla", "step": "pastore"}]
    out = play(state, "N1", [{"actor": "Ivan", "target": "Carla"}], corrections=fix)
    assert deaths(out) == [("Carla", "pack")]


@pytest.mark.parametrize("spared", [False, True])
def test_spared_departing_cacciatore_stays(spared):
    """WWW-R81, WWW-R82: the bounty executed, the Cacciatore collects (his goal is met) and
    leaves; the GM's spare keeps him in the game."""
    state = www()
    play(state, "N0")
    fix = [{"kind": "spare", "player": "Cac"}] if spared else []
    out = play(state, "D1", votes=[{"voter": "Sam", "target": "Carla"}], corrections=fix)
    hunter = state.by_name["Cac"]
    assert deaths(out) == [("Carla", "executed")] + ([] if spared else [("Cac", "left")])
    assert hunter.alive is spared
    assert hunter.departed is not spared
    assert "Cac" in state.goal_met


@pytest.mark.parametrize("spared", [False, True])
def test_spared_executed_capo_brings_no_revenge(spared):
    """WWW-R69: only an executed Capo gives the Indians two attacks; the Pastore learns of
    the execution that happened (WWW-R35, WWW-D14)."""
    state = www()
    play(state, "N0")
    fix = [{"kind": "spare", "player": "Capo", "step": "vote"}] if spared else []
    out = play(state, "D1", votes=[{"voter": "Sam", "target": "Capo"}], corrections=fix)
    assert out.execution.executed == (None if spared else "Capo")
    rules = ruleset_for("wild-west-wolf")
    assert rules.shared_uses(state, "N1", PACK_KILL) == (1 if spared else 2)
    out = play(state, "N1")
    autopsy = kinds(out, "autopsy")[0]
    assert (autopsy.about, autopsy.value) == ((None, "nessuno") if spared else ("Capo", "indiano"))


@pytest.mark.parametrize(("step", "investigates"), [("notaio", False), ("maresciallo", True)])
def test_kill_at_a_named_step(step, investigates):
    """WWW-R93, WWW-D8: a death added at a step applies at its end; the Maresciallo killed
    in the Notaio's phase does not act in his own, killed in his own he has acted."""
    state = www_to_n1()
    fix = [{"kind": "kill", "player": "Mar", "step": step}]
    out = play(state, "N1", [{"actor": "Mar", "target": "Ivan"}], corrections=fix)
    assert deaths(out) == [("Mar", "gm")]
    assert bool(kinds(out, "investigation")) is investigates


def test_killed_bounty_target_turns_the_cacciatore():
    """WWW-R84: a death the GM adds in the night is a night death like any other."""
    state = www_to_n1()
    out = play(state, "N1", corrections=[{"kind": "kill", "player": "Carla", "step": "pastore"}])
    assert [r.value for r in kinds(out, "rinnegato")] == ["Carla"]


def test_killed_pianista_does_not_block_the_pack():
    """WWW-R91: a Pianista the GM kills was not shot by the Indians."""
    state = www_to_n1()
    play(state, "N1", corrections=[{"kind": "kill", "player": "Pia"}])
    assert "Pia" not in state.goal_met
    play(state, "D2")
    assert deaths(play(state, "N2", [{"actor": "Ivan", "target": "Gino"}])) == [("Gino", "pack")]


def test_a_gm_kill_can_end_the_game():
    """WWW §6: the win check runs on the corrected facts."""
    state = www_to_n1()
    out = play(state, "N1", corrections=[
        {"kind": "kill", "player": name} for name in ("Capo", "Sara", "Ivan")
    ])  # fmt: skip
    assert [d.player for d in out.deaths] == ["Capo", "Sara", "Ivan"]
    assert state.winning_factions == ["legge"]


def test_a_correction_at_an_unknown_step_is_refused():
    state = www_to_n1()
    with pytest.raises(RuleViolation, match="no step 'lupi'"):
        play(state, "N1", corrections=[{"kind": "kill", "player": "Gino", "step": "lupi"}])


def inq_to_n1():
    state = inq()
    play(state, "N0")
    play(state, "D1")
    return state


@pytest.mark.parametrize("spared", [False, True])
def test_spared_martire_neither_blocks_the_maul_nor_wins(spared):
    """INQ-R61, INQ-R62, INQ-D15: only a mauled Martire blocks the next maul and wins."""
    state = inq_to_n1()
    fix = [{"kind": "spare", "player": "Mara", "step": "lupi"}] if spared else []
    out = play(state, "N1", [{"actor": "Luca", "target": "Mara"}], corrections=fix)
    assert deaths(out) == ([] if spared else [("Mara", "pack")])
    assert ("Mara" in state.goal_met) is not spared
    play(state, "D2")
    if spared:
        assert deaths(play(state, "N2", [{"actor": "Luca", "target": "Rita"}])) == [
            ("Rita", "pack")
        ]
    else:
        with pytest.raises(RuleViolation, match="INQ-R61"):
            play(state, "N2", [{"actor": "Luca", "target": "Rita"}])


def test_spared_mauled_templare_takes_nobody():
    """INQ-R50: the designation acts at the Templare's death; spared, he does not die."""
    state = inq_to_n1()
    actions = [{"actor": "Tea", "target": "Paolo"}, {"actor": "Luca", "target": "Tea"}]
    out = play(state, "N1", actions, corrections=[{"kind": "spare", "player": "Tea"}])
    assert deaths(out) == []


@pytest.mark.parametrize("label", ["N1", "D2"])
def test_templare_killed_by_the_gm_takes_his_heretic(label):
    """INQ-R50: the Templare killed "for any reason" takes his designated Heretic along."""
    state = inq_to_n1()
    if label == "D2":
        play(state, "N1")
    out = play(state, label, [{"actor": "Tea", "target": "Paolo"}],
               corrections=[{"kind": "kill", "player": "Tea"}])  # fmt: skip
    assert deaths(out) == [("Tea", "gm"), ("Paolo", "templare")]


def test_spared_heretic_survives_the_templare():
    """INQ-R50: the GM may spare the designated Heretic."""
    state = inq_to_n1()
    play(state, "N1", [{"actor": "Tea", "target": "Paolo"}])
    out = play(state, "D2", votes=[{"voter": "Carlo", "target": "Tea"}],
               corrections=[{"kind": "spare", "player": "Paolo"}])  # fmt: skip
    assert deaths(out) == [("Tea", "executed")]


@pytest.mark.parametrize(("step", "protected"), [("postino", False), ("lupi", True)])
def test_guard_killed_before_the_guards_step_protects_nobody(step, protected):
    """INQ-R35, INQ-R38: the protection needs both Guards alive at their step."""
    state = inq_to_n1()
    actions = [{"actor": "Gina", "target": "Rita"}, {"actor": "Luca", "target": "Rita"}]
    fix = [{"kind": "kill", "player": "Gianni", "step": step}]
    out = play(state, "N1", actions, corrections=fix)
    assert (("Rita", "pack") in deaths(out)) is not protected


@pytest.mark.parametrize("spared", [False, True])
def test_spared_rinnegato_neither_wins_nor_brings_guilt(spared):
    """WWW-R88, WWW-R89: only an executed Rinnegato meets his goal and kills his decisive
    voter with guilt the next night."""
    state = www_to_n1()
    play(state, "N1", [{"actor": "Ivan", "target": "Carla"}])  # the bounty dies: Cac turns
    fix = [{"kind": "spare", "player": "Cac"}] if spared else []
    play(state, "D2", votes=[{"voter": "Gino", "target": "Cac"}], corrections=fix)
    assert ("Cac" in state.goal_met) is not spared
    out = play(state, "N2")
    assert deaths(out) == ([] if spared else [("Gino", "guilt")])


@pytest.mark.parametrize("spared", [False, True])
def test_spared_victim_brings_no_vip_news(spared):
    """WWW-R66, WWW-D17: the Capo learns about the players the attack killed."""
    state = www_to_n1()
    fix = [{"kind": "spare", "player": "Mar"}] if spared else []
    out = play(state, "N1", [{"actor": "Ivan", "target": "Mar"}], corrections=fix)
    assert [(r.about, r.value) for r in kinds(out, "vip")] == ([] if spared else [("Mar", "vip")])


@pytest.mark.parametrize("spared", [False, True])
def test_spared_guard_keeps_the_pair_power(spared):
    """INQ-R38: a Guard's death ends the pair's power; spared, they still protect."""
    state = inq_to_n1()
    fix = [{"kind": "spare", "player": "Gina"}] if spared else []
    play(state, "N1", [{"actor": "Luca", "target": "Gina"}], corrections=fix)
    play(state, "D2")
    if spared:
        out = play(state, "N2", [{"actor": "Gianni", "target": "Rita"},
                                 {"actor": "Luca", "target": "Rita"}])  # fmt: skip
        assert deaths(out) == []
    else:
        with pytest.raises(RuleViolation, match="INQ-R38"):
            play(state, "N2", [{"actor": "Gianni", "target": "Rita"}])


@pytest.mark.parametrize("spared", [False, True])
def test_spared_last_werewolf_leaves_the_scorbutico_out_of_the_maul(spared):
    """INQ-R58: the Lupo Scorbutico is told, and mauls, once the last Lupo Mannaro is dead."""
    state = inq_to_n1()
    play(state, "N1")
    play(state, "D2", votes=[{"voter": "Carlo", "target": "Luca"}])
    play(state, "N2")
    play(state, "D3", votes=[{"voter": "Carlo", "target": "Lia"}])
    play(state, "N3")
    fix = [{"kind": "spare", "player": "Leo"}] if spared else []
    out = play(state, "D4", votes=[{"voter": "Carlo", "target": "Leo"}], corrections=fix)
    assert bool(kinds(out, "last_wolf")) is not spared
    assert state.by_name["Leo"].alive is spared
