"""Wild West Wolf's options as the rules say them (issue 29 §1, §2): each test switches
one option away from its default and asserts the outcome, citing its rule."""

from __future__ import annotations

import pytest

from roles.engine.announce import announce, post
from roles.engine.errors import RuleViolation
from roles.engine.model import GameState
from roles.engine.registry import ruleset_for
from roles.wild_west_wolf.messages import RESULTS as WWW_RESULTS
from tests.roles.engine.helpers import WWW_TABLE, play, www
from tests.roles.engine.option_cases import option_test

SEEDS = range(16)  # every random draw of the Maestrina's Indian is tried


def seeded(seed: int, **options: object) -> GameState:
    state, _ = ruleset_for("wild-west-wolf").new_game(
        WWW_TABLE, seed=seed, options={f"www.{k}": v for k, v in options.items()},
        draws={"bounty_target": "Carla"},
    )  # fmt: skip
    return state


def results(outcome, kind: str) -> list[tuple[str, str | None, object]]:
    return [(r.to, r.about, r.value) for r in outcome.results if r.kind == kind]


@option_test("www.teacher_learns_role", True)
@pytest.mark.parametrize("seed", SEEDS)
def test_teacher_learns_the_indians_identity_name_and_role(seed):
    """WWW-R36, WWW-D15: she learns his identity, name and role card (not the role alone)."""
    state = seeded(seed, teacher_learns_role=True)
    play(state, "N0")
    play(state, "D1")
    night = play(state, "N1", actions=[{"actor": "Mia", "target": "Carla"},
                                       {"actor": "Ivan", "target": "Carla"}])  # fmt: skip
    [(to, about, value)] = results(night, "spotted")
    assert to == "Mia"
    assert about in ("Sara", "Ivan")
    assert value == state.by_name[about].role


def test_teacher_learns_the_name_by_default():
    """WWW-D15: by default the name alone ("X is an Indian")."""
    state = www()
    play(state, "N0")
    play(state, "D1")
    night = play(state, "N1", actions=[{"actor": "Mia", "target": "Carla"},
                                       {"actor": "Ivan", "target": "Carla"}])  # fmt: skip
    [(to, about, value)] = results(night, "spotted")
    assert (to, about) == ("Mia", None)
    assert value in ("Sara", "Ivan")


@option_test("www.indians_can_target_indians", True)
@pytest.mark.parametrize("seed", SEEDS)
def test_teacher_draws_among_the_indians_alive_after_the_attack(seed):
    """WWW-D15: the Indian she learns is drawn among those alive after the attack, so never
    the one the attack killed; the killed one still learns her (WWW-D33)."""
    state = seeded(seed, indians_can_target_indians=True)
    play(state, "N0")
    play(state, "D1")
    night = play(state, "N1", actions=[{"actor": "Mia", "target": "Sara"},
                                       {"actor": "Ivan", "target": "Sara"}])  # fmt: skip
    assert [(d.player, d.cause) for d in night.deaths] == [("Sara", "pack")]
    assert results(night, "spotted") == [("Mia", None, "Ivan")]
    assert sorted(to for to, _, _ in results(night, "spotted_by")) == ["Capo", "Ivan", "Sara"]


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_teacher_learns_nothing_when_the_attack_leaves_only_the_capo(seed):
    """WWW-R40, WWW-D15: the attack kills the last Indian but the Capo: she learns nothing,
    every Indian of the night still learns her (WWW-D33)."""
    state = seeded(seed, indians_can_target_indians=True)
    play(state, "N0")
    play(state, "D1", votes=[{"voter": "Sam", "target": "Ivan"}])
    night = play(state, "N1", actions=[{"actor": "Mia", "target": "Sara"},
                                       {"actor": "Capo", "target": "Sara"}])  # fmt: skip
    assert [d.player for d in night.deaths] == ["Sara"]
    assert results(night, "spotted") == []
    assert sorted(to for to, _, _ in results(night, "spotted_by")) == ["Capo", "Sara"]


def test_the_indians_victim_is_never_the_sender():
    """WWW-D32: allowed to attack an Indian, an Indian still cannot attack himself."""
    state = www(indians_can_target_indians=True)
    play(state, "N0")
    play(state, "D1")
    with pytest.raises(RuleViolation):
        play(state, "N1", actions=[{"actor": "Ivan", "target": "Ivan"}])


def revenge_night(order: list[dict], **options: object):
    """The Capo executed on D1: two victims on N1 (WWW-R69), submitted in ``order``."""
    state = www(**options)
    play(state, "N0")
    play(state, "D1", votes=[{"voter": "Sam", "target": "Capo"}])
    return play(state, "N1", actions=order)


SHERIFF_FIRST = [{"actor": "Ivan", "target": "Sam"}, {"actor": "Sara", "target": "Vito"}]
DEPUTY_FIRST = [{"actor": "Ivan", "target": "Vito"}, {"actor": "Sara", "target": "Sam"}]


@option_test("www.deputy_saves_on_double", False)
@pytest.mark.parametrize("order", [SHERIFF_FIRST, DEPUTY_FIRST], ids=["sheriff", "deputy"])
def test_no_save_on_a_double_attack_kills_both_in_any_order(order):
    """WWW-D16 switched off: Sheriff and Vicesceriffo both attacked both die, whichever
    entry came first."""
    night = revenge_night(order, deputy_saves_on_double=False)
    assert sorted(d.player for d in night.deaths) == ["Sam", "Vito"]


@pytest.mark.parametrize("order", [SHERIFF_FIRST, DEPUTY_FIRST], ids=["sheriff", "deputy"])
def test_the_deputy_saves_on_a_double_attack_in_any_order(order):
    """WWW-D16: by default the Vicesceriffo dies once and the Sheriff survives."""
    night = revenge_night(order)
    assert [d.player for d in night.deaths] == ["Vito"]


@option_test("www.allow_vote_change", False)
def test_with_changes_off_the_same_vote_again_is_no_change():
    """WWW-D31: re-posting the vote one has is not a change; its time stays the first."""
    state = www(allow_vote_change=False)
    play(state, "N0")
    day = play(state, "D1", votes=[{"voter": "Sam", "target": "Pia"},
                                   {"voter": "Mar", "target": "Gino"},
                                   {"voter": "Sam", "target": "Pia"}])  # fmt: skip
    assert day.execution.executed == "Pia"  # Sam's vote is the earlier: the tie goes to Pia


def test_with_changes_off_a_withdrawal_with_no_vote_withdraws_nothing():
    """WWW-D31: a withdrawal before any vote withdraws nothing: the vote after it is the
    first; withdrawing or moving a standing vote is refused (WWW-D4)."""
    state = www(allow_vote_change=False)
    play(state, "N0")
    day = play(state, "D1", votes=[{"voter": "Sam", "target": None},
                                   {"voter": "Sam", "target": "Pia"}])  # fmt: skip
    assert day.execution.executed == "Pia"
    for second in ("Gino", None):
        state = www(allow_vote_change=False)
        play(state, "N0")
        with pytest.raises(RuleViolation) as refused:
            play(state, "D1", votes=[{"voter": "Sam", "target": "Pia"},
                                     {"voter": "Sam", "target": second}])  # fmt: skip
        assert (refused.value.code, refused.value.rule) == ("vote.no_change", "WWW-D4")


@option_test("www.reveal_role_on_death", True)
def test_a_dead_vicesceriffo_is_revealed_as_a_cowboy():
    """WWW-R52, WWW-D34: the death announcement shows the role he was told (Cowboy); the
    end-of-game reveal tells the truth."""
    state = www(reveal_role_on_death=True)
    play(state, "N0")
    day = play(state, "D1", votes=[{"voter": "Sam", "target": "Vito"}])
    said = announce(state, day, "en")
    assert "Vito (Cowboy)" in said
    assert "Deputy" not in said
    state.winning_factions, state.winners = ["legge"], ["Sam"]
    assert ("Vito", "Deputy") in post(state, day, "en").roles  # the card's English title
    assert ("Vito", "Vicesceriffo") in post(state, day, "it").roles


def test_roles_are_not_revealed_on_death_by_default():
    """WWW-D2: names only."""
    state = www()
    play(state, "N0")
    day = play(state, "D1", votes=[{"voter": "Sam", "target": "Capo"}])
    assert "Capo is executed." in announce(state, day, "en")


@option_test("www.reveal_all_at_end", False)
def test_no_roles_at_the_end_when_switched_off():
    """WWW-D28 switched off: the end-of-game post lists no roles."""
    state = www(reveal_all_at_end=False)
    play(state, "N0")
    day = play(state, "D1", votes=[{"voter": "Sam", "target": "Vito"}])
    state.winning_factions, state.winners = ["legge"], ["Sam"]
    assert post(state, day, "en").roles == []


@option_test("www.marshal_self_target", False)
def test_the_marshal_cannot_investigate_himself_when_switched_off():
    """WWW-D13 switched off: the Maresciallo's own name is refused."""
    state = www()
    night = play(state, "N0", actions=[{"actor": "Mar", "target": "Mar"}])
    assert results(night, "investigation") == [("Mar", "Mar", "americano")]
    state = www(marshal_self_target=False)
    with pytest.raises(RuleViolation) as refused:
        play(state, "N0", actions=[{"actor": "Mar", "target": "Mar"}])
    assert refused.value.rule == "WWW-D13"


@option_test("www.pianist_block_beats_revenge", False)
def test_revenge_beats_the_pianists_block_when_switched_off():
    """WWW-D18 switched off: the night after the Pianista was shot, the Capo's revenge still
    gives two attacks."""
    for beats, deaths in ((True, None), (False, ["Gino", "Anna"])):
        state = www(pianist_block_beats_revenge=beats)
        play(state, "N0")
        play(state, "D1")
        play(state, "N1", actions=[{"actor": "Ivan", "target": "Pia"}])
        play(state, "D2", votes=[{"voter": "Sam", "target": "Capo"}])
        two = [{"actor": "Ivan", "target": "Gino"}, {"actor": "Sara", "target": "Anna"}]
        if deaths is None:
            with pytest.raises(RuleViolation):
                play(state, "N2", actions=two)
        else:
            assert [d.player for d in play(state, "N2", actions=two).deaths] == deaths


@option_test("www.will_word_limit", 5)
def test_a_will_is_cut_after_the_chosen_word():
    """WWW-D22: the will limit is the option's."""
    state = www(will_word_limit=5)
    play(state, "N0")
    play(state, "D1", votes=[{"voter": "Sam", "target": "Gino"}], wills={"Gino": "a b c d e f g"})
    assert state.wills["Gino"] == "a b c d e"


@option_test("www.day_death_will_deadline", "23:00")
def test_the_day_death_will_deadline_is_the_options():
    """WWW-D23: a day death's will is due at the option's time."""
    state = www(day_death_will_deadline="23:00")
    play(state, "N0")
    play(state, "D1", votes=[{"voter": "Sam", "target": "Gino"}])
    assert ruleset_for("wild-west-wolf").will_deadline(state, "Gino") == ("D1", "23:00")


@option_test("www.departed_cemetery_access", False)
def test_the_departed_hunter_stays_out_of_the_cemetery_when_switched_off():
    """WWW-D21 switched off: after collecting his bounty the Cacciatore has no Cemetery."""
    state = www(departed_cemetery_access=False)
    play(state, "N0")
    play(state, "D1", votes=[{"voter": "Sam", "target": "Carla"}])
    cemetery = {c.key: c for c in ruleset_for("wild-west-wolf").channels(state)}["cimitero"]
    assert "Cac" not in cemetery.members


@pytest.mark.parametrize(
    ("options", "code"),
    [({"www.public_posting_until": "22:15"}, "option.retired"),
     ({"www.made_up": True}, "option.unknown")],
)  # fmt: skip
def test_a_retired_or_unknown_setting_is_refused_naming_it(options, code):
    """WWW-D35: never accepted and ignored; the message names the key."""
    with pytest.raises(RuleViolation) as refused:
        ruleset_for("wild-west-wolf").new_game(WWW_TABLE, options=options,
                                               draws={"bounty_target": "Carla"})  # fmt: skip
    assert refused.value.code == code
    assert refused.value.params["option"] == next(iter(options))
    assert next(iter(options)) in str(refused.value)


def test_the_teachers_identity_reads_with_name_and_role():
    """WWW-R36: her result names the Indian and gives his card."""
    said = str(WWW_RESULTS["spotted"].say("Sara", "sciamano"))
    assert said == "You recognized Sara: the sciamano."
    assert str(WWW_RESULTS["spotted"].say(None, "Sara")) == "Sara is Indian."
