"""The Time Car on the train, and moving in and out of it (ADT-R1..R5, R12, R18, D1, D8)."""

from __future__ import annotations

import pytest

from roles.automobile_del_tempo.answers import TimeCarViolation
from roles.automobile_del_tempo.checker import ActionError
from roles.automobile_del_tempo.state import SetupError, new_game
from roles.automobile_del_tempo.train import IN_TIME_CAR, PlaceError, Train
from tests.roles.automobile_del_tempo.helpers import ask, do, table, where

ROOF_STEP = "adt.time_car_counts_as_roof_step"


def test_adt_r1_the_time_car_works_with_or_without_horses_and_stagecoach():
    """ADT-R1: the same Move into the Time Car is answered alike with and without the
    expansion; only with it does the Stagecoach exist."""
    plain = table(Ada="locomotive:roof", Bea="car1:roof")
    horses = table(Ada="locomotive:roof", Bea="car1:roof", hs=True)
    assert ask(plain, "move", "Ada", to="time_car") == ask(horses, "move", "Ada", to="time_car")
    assert ask(plain, "move", "Ada", to="time_car").rule == "ADT-R4"
    with pytest.raises(PlaceError):
        plain.train.place("stagecoach:roof")
    assert str(horses.train.place("stagecoach:roof")) == "stagecoach:roof"


def test_adt_r2_the_time_car_stands_in_front_of_the_locomotive_and_nobody_starts_there():
    """ADT-R2: in front of the Locomotive (index -1, before the Locomotive's 0); the rest of
    the setup is the base game's, so no Bandit starts in it."""
    assert IN_TIME_CAR.index == -1
    assert Train(cars=4).place("locomotive:roof").index == 0
    assert Train(cars=4).place("car1:roof").index == 1
    with pytest.raises(TimeCarViolation) as refused:
        new_game(cars=4, bandits={"Ada": ("belle", "time_car"), "Bea": ("doc", None)})
    assert refused.value.rule == "ADT-R2"
    assert str(refused.value) == "setup: Ada (belle) cannot start the game in the Time Car [ADT-R2]"


def test_adt_r3_not_into_the_time_car_during_the_horse_attack():
    """ADT-R3: with Horses & Stagecoach the Horse Attack cannot place a Bandit in it."""
    start = {"Ada": ("belle", "car4:interior"), "Bea": ("doc", "time_car")}
    with pytest.raises(TimeCarViolation) as refused:
        new_game(cars=4, bandits=start, horses_and_stagecoach=True)
    assert refused.value.rule == "ADT-R3"
    assert refused.value.player == "Bea"
    start["Bea"] = ("doc", "locomotive:interior")
    game = new_game(cars=4, bandits=start, horses_and_stagecoach=True)
    assert where(game, "Bea") == "locomotive:interior"


@pytest.mark.parametrize("origin", ["locomotive:roof", "locomotive:interior"])
def test_adt_r4_move_in_and_out_from_the_locomotive_roof_and_interior(origin):
    """ADT-R4: adjacent to the Locomotive's roof and interior, so a Move enters it (and
    leaves it back to either)."""
    game = table(Ada=origin, Bea="car3:interior")
    entered = do(game, "move", "Ada", to="time_car")
    assert (entered.allowed, entered.message, entered.rule) == (True, "adt.move.enter", "ADT-R4")
    assert where(game, "Ada") == "time_car"
    left = do(game, "move", "Ada", to=origin)
    assert (left.message, left.rule) == ("adt.move.leave", "ADT-R4")
    assert where(game, "Ada") == origin


def test_adt_r4_no_move_from_another_interior_or_the_stagecoach():
    """ADT-R4: only the Locomotive is adjacent; a car's interior or the Stagecoach is not."""
    game = table(Ada="car1:interior", Bea="stagecoach:roof", hs=True)
    for name in ("Ada", "Bea"):
        answer = ask(game, "move", name, to="time_car")
        assert (answer.allowed, answer.message, answer.rule) == (
            False, "adt.move.not_adjacent", "ADT-R4",
        )  # fmt: skip
    with pytest.raises(TimeCarViolation) as refused:
        do(game, "move", "Ada", to="time_car")
    assert where(game, "Ada") == "car1:interior"
    assert str(refused.value) == (
        "Round 0: Ada (belle) cannot move between the interior of car 1 and the Time Car: "
        "the Time Car is adjacent only to the Locomotive's roof and interior [ADT-R4]"
    )


def test_adt_r4_ride_only_with_the_expansion():
    """ADT-R4: a Ride enters it only "when playing with the expansion"."""
    answer = ask(table(Ada="car1:interior", Bea="car2:interior"), "ride", "Ada", to="time_car")
    assert (answer.allowed, answer.message, answer.rule) == (False, "adt.ride.no_horses", "ADT-R4")


def test_adt_r5_change_floor_is_useless_in_the_time_car():
    """ADT-R5: allowed (the card is played) but it changes nothing."""
    game = table(Ada="time_car", Bea="car3:interior")
    answer = do(game, "change_floor", "Ada")
    assert (answer.allowed, answer.message, answer.rule) == (
        True, "adt.change_floor.useless", "ADT-R5",
    )  # fmt: skip
    assert answer.moved == ()
    assert where(game, "Ada") == "time_car"


def test_adt_r12_several_bandits_in_the_time_car_at_once():
    """ADT-R12: entering an occupied Time Car is allowed; they stay together."""
    game = table(Ada="time_car", Bea="locomotive:interior", Cid="locomotive:roof")
    do(game, "move", "Bea", to="time_car")
    do(game, "move", "Cid", to="time_car")
    assert game.in_time_car() == ["Ada", "Bea", "Cid"]


def test_adt_r18_the_marshal_never_enters_the_time_car():
    """ADT-R18: not by his own move, not at the start."""
    game = table(Ada="car1:interior", Bea="car2:interior")
    answer = ask(game, "marshal", to="time_car")
    assert (answer.allowed, answer.message, answer.rule) == (False, "adt.marshal.never", "ADT-R18")
    with pytest.raises(TimeCarViolation):
        do(game, "marshal", to="time_car")
    assert str(game.marshal) == "locomotive:interior"
    with pytest.raises(TimeCarViolation) as refused:
        new_game(cars=3, bandits={"Ada": ("belle", None), "Bea": ("doc", None)}, marshal="time_car")
    assert refused.value.rule == "ADT-R18"
    do(game, "marshal", to="car1:interior")
    assert str(game.marshal) == "car1:interior"


@pytest.mark.parametrize(("origin", "steps"), [("car1:roof", 2), ("car2:roof", 3)])
def test_adt_d1_a_roof_move_of_several_cars_may_end_in_the_time_car(origin, steps):
    """ADT-D1: the Time Car is one more roof step beyond the Locomotive's roof (a roof Move
    goes up to 3 cars), both ways."""
    game = table(Ada=origin, Bea="car4:interior")
    entered = do(game, "move", "Ada", to="time_car")
    assert (entered.message, entered.rule, entered.params["steps"]) == (
        "adt.move.enter_over_roof", "ADT-D1", steps,
    )  # fmt: skip
    left = do(game, "move", "Ada", to=origin)
    assert (left.message, left.rule) == ("adt.move.leave_over_roof", "ADT-D1")
    assert where(game, "Ada") == origin


def test_adt_d1_too_far_along_the_roof_and_never_from_an_interior():
    """ADT-D1: from car 3's roof it is 4 steps (at most 3); from/to an interior only the
    Locomotive's; with the option off only the Locomotive is adjacent (ADT-R4)."""
    game = table(Ada="car3:roof", Bea="car2:interior", Cid="time_car")
    far = ask(game, "move", "Ada", to="time_car")
    assert (far.allowed, far.message, far.rule, far.params["steps"]) == (
        False, "adt.move.too_far", "ADT-D1", 4,
    )  # fmt: skip
    assert ask(game, "move", "Cid", to="car1:interior").rule == "ADT-R4"
    assert not ask(game, "move", "Cid", to="car1:interior").allowed
    strict = table(Ada="car1:roof", Bea="car2:interior", options={ROOF_STEP: False})
    answer = ask(strict, "move", "Ada", to="time_car")
    assert (answer.allowed, answer.rule) == (False, "ADT-R4")


def test_adt_d8_a_ride_may_end_in_the_time_car_instead_of_the_locomotive():
    """ADT-D8: with the expansion a Ride that could end at the Locomotive ends in the Time
    Car, as a Move could; and one rides out of it as from the Locomotive."""
    game = table(Ada="car2:interior", Bea="car3:interior", hs=True)
    entered = do(game, "ride", "Ada", to="time_car")
    assert (entered.allowed, entered.message, entered.rule) == (True, "adt.ride.enter", "ADT-D8")
    assert where(game, "Ada") == "time_car"
    left = do(game, "ride", "Ada", to="car2:interior")
    assert (left.message, left.rule) == ("adt.ride.leave", "ADT-D8")
    assert where(game, "Ada") == "car2:interior"


def test_malformed_actions_are_not_rule_answers():
    game = table(Ada="car1:interior", Bea="car2:interior")
    with pytest.raises(ActionError):
        ask(game, "move", "Nobody", to="time_car")
    with pytest.raises(ActionError):
        ask(game, "move", "Ada", to="car9:roof")
    with pytest.raises(ActionError):
        ask(game, "marshal", to="car1:roof")
    with pytest.raises(SetupError):
        table(Ada="car1:interior", Bea="car2:interior", cars=7)
