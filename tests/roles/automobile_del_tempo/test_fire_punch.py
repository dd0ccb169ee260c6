"""Fire and Punch with the Time Car (ADT-R6..R10, R19, D2, D3, D9)."""

from __future__ import annotations

import pytest

from roles.automobile_del_tempo.answers import TimeCarViolation
from tests.roles.automobile_del_tempo.helpers import ask, do, table, where

LOS_OPTION = "adt.stagecoach_fire_needs_los"


def verdict(answer):
    return answer.allowed, answer.message, answer.rule


def test_adt_r6_time_car_and_a_car_roof_fire_both_ways_within_line_of_sight():
    """ADT-R6: from the Time Car onto the roof of any car, within Line of Sight, and vice
    versa; never at someone else in the Time Car."""
    game = table(Ada="time_car", Bea="car3:roof", Cid="car4:interior")
    assert verdict(ask(game, "fire", "Ada", target="Bea")) == (
        True, "adt.fire.roof_in_sight", "ADT-D2",
    )  # fmt: skip
    assert verdict(ask(game, "fire", "Bea", target="Ada")) == (
        True, "adt.fire.roof_in_sight", "ADT-R6",
    )  # fmt: skip
    game.bandits["Cid"].place = game.train.place("car2:roof")  # now between them
    blocked = ask(game, "fire", "Bea", target="Ada")
    assert verdict(blocked) == (False, "adt.fire.no_line_of_sight", "ADT-R6")
    assert blocked.params == {"target": "Ada", "blocker": "Cid"}
    game.bandits["Cid"].place = game.train.place("time_car")
    assert verdict(ask(game, "fire", "Ada", target="Cid")) == (False, "adt.fire.same_car", "ADT-R6")


def test_adt_r7_time_car_and_the_locomotive_interior_fire_both_ways():
    """ADT-R7: the Locomotive's interior and the Time Car shoot each other; no other
    interior does."""
    game = table(Ada="time_car", Bea="locomotive:interior", Cid="car1:interior")
    assert verdict(ask(game, "fire", "Ada", target="Bea"))[2] == "ADT-R7"
    assert ask(game, "fire", "Ada", target="Bea").allowed
    assert ask(game, "fire", "Bea", target="Ada").allowed
    assert verdict(ask(game, "fire", "Cid", target="Ada")) == (
        False, "adt.fire.interior_not_adjacent", "ADT-R7",
    )  # fmt: skip
    assert not ask(game, "fire", "Ada", target="Cid").allowed


def test_adt_r8_stagecoach_roof_and_time_car_fire_both_ways():
    """ADT-R8: with the Stagecoach, its roof and the Time Car shoot each other; its
    interior does not."""
    game = table(Ada="time_car", Bea="stagecoach:roof", Cid="stagecoach:interior", hs=True)
    assert verdict(ask(game, "fire", "Bea", target="Ada")) == (
        True, "adt.fire.stagecoach_roof", "ADT-R8",
    )  # fmt: skip
    assert ask(game, "fire", "Ada", target="Bea").allowed
    assert verdict(ask(game, "fire", "Cid", target="Ada")) == (
        False, "adt.fire.stagecoach_interior", "ADT-R8",
    )  # fmt: skip


@pytest.mark.parametrize("floor", ["roof", "interior"])
def test_adt_r9_punch_from_the_locomotive_into_the_time_car(floor):
    """ADT-R9: a Bandit on the Locomotive's roof or inside it can be punched into it."""
    game = table(Ada=f"locomotive:{floor}", Bea=f"locomotive:{floor}")
    answer = do(game, "punch", "Ada", target="Bea", to="time_car")
    assert verdict(answer) == (True, "adt.punch.into_time_car", "ADT-R9")
    assert where(game, "Bea") == "time_car"
    assert where(game, "Ada") == f"locomotive:{floor}"


def test_adt_r9_not_from_a_car():
    """ADT-R9: from a car's roof the Time Car is not a Punch destination."""
    game = table(Ada="car1:roof", Bea="car1:roof")
    assert verdict(ask(game, "punch", "Ada", target="Bea", to="time_car")) == (
        False, "adt.punch.not_from_locomotive", "ADT-R9",
    )  # fmt: skip


def test_adt_r10_punched_out_of_the_time_car_only_into_the_locomotive_interior():
    """ADT-R10: the only destination is the Locomotive's interior, never its roof; the
    loot he drops stays in the Time Car."""
    game = table(Ada="time_car", Bea="time_car")
    assert verdict(ask(game, "punch", "Ada", target="Bea", to="locomotive:roof")) == (
        False, "adt.punch.never_to_roof", "ADT-R10",
    )  # fmt: skip
    assert verdict(ask(game, "punch", "Ada", target="Bea", to="car1:interior")) == (
        False, "adt.punch.only_locomotive_interior", "ADT-R10",
    )  # fmt: skip
    answer = do(game, "punch", "Ada", target="Bea", to="locomotive:interior", loot="jewel")
    assert verdict(answer) == (True, "adt.punch.out_to_interior", "ADT-R10")
    assert where(game, "Bea") == "locomotive:interior"
    assert game.time_car_loot == ["jewel"]
    with pytest.raises(TimeCarViolation) as refused:
        do(game, "punch", "Ada", target="Bea", to="locomotive:interior")
    assert refused.value.rule == "ADT-R10"  # not in the same place any more


def test_adt_r19_django_from_the_train_pushes_the_locomotive_roof_into_the_time_car():
    """ADT-R19: Django fires from a car's roof at the nearest Bandit on the Locomotive's
    roof: the victim goes into the Time Car."""
    game = table(Django="car2:roof", Bea="locomotive:roof", Cid="car3:roof")
    answer = do(game, "fire", "Django", target="Bea")
    assert verdict(answer) == (True, "adt.fire.django_into_time_car", "ADT-R19")
    assert where(game, "Bea") == "time_car"
    assert [m.as_dict() for m in answer.moved] == [
        {"figure": "Bea", "from": "locomotive:roof", "to": "time_car", "rule": "ADT-R19"}
    ]


def test_adt_r19_only_a_shot_that_can_reach_the_locomotive_roof():
    """ADT-R19: from an interior (no roof shot) or past a Bandit on car 1's roof, no."""
    game = table(Django="car1:interior", Bea="locomotive:roof", Cid="car1:roof")
    assert verdict(ask(game, "fire", "Django", target="Bea")) == (
        False, "adt.fire.django_out_of_reach", "ADT-R19",
    )  # fmt: skip
    game.bandits["Django"].place = game.train.place("car3:roof")
    answer = ask(game, "fire", "Django", target="Bea")
    assert verdict(answer) == (False, "adt.fire.no_line_of_sight", "ADT-R19")
    assert answer.params["blocker"] == "Cid"


def test_another_bandits_shot_at_the_locomotive_roof_moves_nobody():
    """ADT-R19 is Django's: Belle's shot is the base game's and nobody is pushed."""
    game = table(Ada="car2:roof", Bea="locomotive:roof")
    answer = do(game, "fire", "Ada", target="Bea")
    assert (answer.message, answer.rule, answer.moved) == ("adt.base_game", None, ())
    assert where(game, "Bea") == "locomotive:roof"


def test_adt_d2_line_of_sight_from_the_time_car_starts_at_the_locomotive_roof():
    """ADT-D2: as if just in front of the Locomotive's roof looking back: the Locomotive's
    roof is in sight, and a Bandit on it hides the roofs behind."""
    game = table(Ada="time_car", Bea="locomotive:roof", Cid="car1:roof")
    assert verdict(ask(game, "fire", "Ada", target="Bea")) == (
        True, "adt.fire.roof_in_sight", "ADT-D2",
    )  # fmt: skip
    blocked = ask(game, "fire", "Ada", target="Cid")
    assert verdict(blocked) == (False, "adt.fire.no_line_of_sight", "ADT-D2")
    assert blocked.params["blocker"] == "Bea"


def test_adt_d3_stagecoach_fire_regardless_of_line_of_sight_unless_the_option_says():
    """ADT-D3: by default a Bandit on car 1's roof does not block it; with
    adt.stagecoach_fire_needs_los the Stagecoach's roof sees as the car it runs beside."""
    places = {"Ada": "time_car", "Bea": "stagecoach:roof", "Cid": "car1:roof"}
    game = table(hs=True, stagecoach="car3", **places)
    assert ask(game, "fire", "Bea", target="Ada").allowed
    strict = table(hs=True, stagecoach="car3", options={LOS_OPTION: True}, **places)
    assert verdict(ask(strict, "fire", "Bea", target="Ada")) == (
        False, "adt.fire.no_line_of_sight", "ADT-D3",
    )  # fmt: skip
    strict.bandits["Cid"].place = strict.train.place("car4:roof")
    assert verdict(ask(strict, "fire", "Bea", target="Ada")) == (
        True, "adt.fire.stagecoach_roof", "ADT-D3",
    )  # fmt: skip


def test_adt_d9_django_firing_from_the_time_car_pushes_as_in_the_base_game():
    """ADT-D9: from the Time Car his shot pushes the victim one car further back (not into
    the Time Car), and not off the train from the Caboose."""
    game = table(Django="time_car", Bea="locomotive:roof", Cid="car4:roof", cars=4)
    answer = do(game, "fire", "Django", target="Bea")
    assert (answer.rule, [m.as_dict() for m in answer.moved]) == (
        "ADT-D2",
        [{"figure": "Bea", "from": "locomotive:roof", "to": "car1:roof", "rule": "ADT-D9"}],
    )
    assert where(game, "Bea") == "car1:roof"
    lone = table(Django="time_car", Cid="car4:roof", cars=4)
    assert do(lone, "fire", "Django", target="Cid").moved == ()
    assert where(lone, "Cid") == "car4:roof"
