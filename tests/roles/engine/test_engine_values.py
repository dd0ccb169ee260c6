"""The engine's values and shortcuts keep their contracts: a message compares and hashes by
value, a ruleset's setup-specific target check runs for every ability unless the ruleset
names the few it judges, the abilities' timing reads any night label, and a status expires
after its phase whatever else stands."""

from __future__ import annotations

import pytest

from roles.engine.abilities import Ability, available, night_number
from roles.engine.errors import RuleViolation
from roles.engine.messages import Message, msg
from roles.engine.model import Action, Status
from roles.engine.registry import ruleset_class, ruleset_for
from roles.engine.ruleset import Ruleset
from roles.inquisizione.abilities import MAUL, PROTECT
from roles.wild_west_wolf.abilities import ACCOMPANY, INVESTIGATE, PACK_KILL
from tests.roles.engine.helpers import inq, www


def test_a_message_compares_and_hashes_by_value():
    said = msg("vote.self", "WWW-D4", voter="Ada")
    assert said == Message("vote.self", {"voter": "Ada"}, "WWW-D4")
    assert said != Message("vote.self", {"voter": "Bea"}, "WWW-D4")
    assert said != Message("vote.self", {"voter": "Ada"}, "")
    assert Message("vote.self") == Message("vote.self", {})
    assert repr(said) == "Message(id='vote.self', params={'voter': 'Ada'}, rules='WWW-D4')"
    assert str(said) == "cannot vote for himself [WWW-D4]"
    with pytest.raises(TypeError):  # unhashable parameters, as with the frozen dataclass
        hash(said)


def test_the_setups_name_the_abilities_whose_targets_they_judge():
    assert ruleset_for("wild-west-wolf").targets_checked == {PACK_KILL}  # WWW-D19
    assert ruleset_for("inquisizione").targets_checked == {PROTECT, MAUL}  # INQ-D11, D12


def test_a_ruleset_with_its_own_target_check_judges_every_ability_unless_it_names_some():
    """A setup that says nothing about which abilities check_target judges gets every one of
    its abilities judged (the conservative default); one without a check_target, none."""
    village = ruleset_class("classic-village")()
    abilities = {a for role in village.setup.cards for a in village.card_abilities(role)}
    assert abilities
    assert village.targets_checked == abilities
    coin = ruleset_class("coin-toss")()
    assert type(coin).check_target is Ruleset.check_target
    assert coin.targets_checked == frozenset()


def test_the_setup_target_check_still_refuses():
    state = www()
    rules = ruleset_for("wild-west-wolf")
    indian = next(p for p in state.players if p.faction == "indiani")
    other = next(p for p in state.players if p.faction == "indiani" and p is not indian)
    rules.play(state, "N0")
    rules.play(state, "D1")
    with pytest.raises(RuleViolation, match="WWW-D19"):
        rules.check_action(state, "N1", Action(indian.name, other.name))


@pytest.mark.parametrize("label", ["N0", "N7", "N199", "N250", "D1", "D250"])
def test_the_timing_reads_any_night_label(label):
    """WWW-R18: from N1 only; by day never (a label past the table parses as well)."""
    night = night_number(label)
    assert night == (int(label[1:]) if label[0] == "N" else None)
    state = www()
    actor = state.players[0]
    assert available(state, label, actor, ACCOMPANY) == (night is not None and night >= 1)
    assert available(state, label, actor, INVESTIGATE) == (night is not None)


def test_a_status_expires_after_its_phase_only():
    state = inq()
    state.set_status(Status("standing", None, "Ada"))
    state.set_status(Status("tonight", 4, "Bea"))
    state.set_status(Status("later", 6, "Cid"))
    state.phase_index = 4
    state.expire()
    assert set(state.statuses) == {"standing", "tonight", "later"}
    state.phase_index = 5
    state.expire()
    assert set(state.statuses) == {"standing", "later"}


def test_an_ability_remembers_its_targets_only_under_a_ban():
    assert ACCOMPANY.remembered  # WWW-R37
    assert not INVESTIGATE.remembered
    assert Ability("x", "x", "R", never_twice_rule="R").remembered
