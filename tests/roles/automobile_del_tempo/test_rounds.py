"""The end of a round, the secret hiding, the reveal and the end bonus (ADT-R11, R13..R17,
R20, D4..D7)."""

from __future__ import annotations

import pytest

from roles.automobile_del_tempo.answers import TimeCarViolation
from roles.automobile_del_tempo.posts import end_post, hid_post, reveal_post
from roles.automobile_del_tempo.rounds import (
    apply_event,
    end_bonus,
    end_round,
    hiding_check,
    start_round,
    start_stealin,
)
from tests.roles.automobile_del_tempo.helpers import ask, do, table, where


def in_round(game, number):
    game.round = number
    return game


def test_adt_r11_and_r15_where_he_hides_is_nowhere_the_table_can_see():
    """ADT-R11, ADT-R15: the Time Car takes him where nobody expects: during the next Schemin'
    phase his place is unknown to everyone (the public positions and the public post say
    nothing of where); only the sealed spot holds it."""
    game = in_round(table(Ada="time_car", Bea="car2:interior"), 1)
    end_round(game, "car3")
    assert game.public_positions() == {"Ada": None, "Bea": "car2:interior"}
    post = hid_post(1, "Ada")
    assert "car3" not in repr(post)
    assert "Vagone 3" not in post.text("it")
    assert game.bandits["Ada"].hidden_under == "car3"
    game.round += 1  # the next Schemin' phase: still hidden
    assert game.public_positions()["Ada"] is None


def test_adt_r13_a_bandit_alone_after_the_event_activates_it():
    """ADT-R13: checked after the Event: Braking brings Bea in, so Ada is not alone and
    nobody hides; naming a spot then is refused."""
    game = in_round(table(Ada="time_car", Bea="locomotive:roof"), 2)
    apply_event(game, "braking")
    assert game.in_time_car() == ["Ada", "Bea"]
    assert hiding_check(game, None).message == "adt.hide.none"
    with pytest.raises(TimeCarViolation) as refused:
        end_round(game, "car1", "Ada")
    assert refused.value.rule == "ADT-R13"
    assert str(refused.value) == (
        "Round 2: Ada (belle) cannot hide: no Bandit is alone in the Time Car [ADT-R13]"
    )
    assert game.in_time_car() == ["Ada", "Bea"]


def test_adt_r13_the_event_can_make_him_alone():
    """ADT-R13: Braking pushes Bea from the Locomotive's roof into an empty Time Car: she is
    alone after the Event and hides."""
    game = in_round(table(Ada="car1:interior", Bea="locomotive:roof"), 2)
    apply_event(game, "braking")
    hiding = end_round(game, "car1", "Bea")
    assert hiding.as_dict() == {"bandit": "Bea", "under": "car1"}


@pytest.mark.parametrize(
    ("spot", "hs"), [("locomotive", False), ("car2", False), ("stagecoach", True)]
)
def test_adt_r14_he_hides_under_the_locomotive_a_car_or_the_stagecoach(spot, hs):
    """ADT-R14: under the Locomotive, one of the cars, or the Stagecoach with the expansion."""
    game = in_round(table(Ada="time_car", Bea="car3:interior", hs=hs), 1)
    assert hiding_check(game, spot).rule == "ADT-R14"
    assert end_round(game, spot).under == spot


def test_adt_r14_he_must_choose_and_only_where_the_train_is():
    """ADT-R14: alone means he hides: no choice is refused; no Stagecoach without the
    expansion; no car beyond the Caboose."""
    game = in_round(table(Ada="time_car", Bea="car3:interior"), 1)
    assert (hiding_check(game, None).allowed, hiding_check(game, None).message) == (
        False, "adt.hide.missing",
    )  # fmt: skip
    assert hiding_check(game, "stagecoach").message == "adt.hide.no_stagecoach"
    assert hiding_check(game, "car9").message == "adt.hide.no_such_spot"
    assert hiding_check(game, "car9").rule == "ADT-R14"
    assert hiding_check(game, "car1", "Bea").message == "adt.hide.not_him"


def test_adt_r16_revealed_at_the_start_of_stealin_in_the_interior_then_actions_play():
    """ADT-R16: revealed when the Stealin' phase opens, inside what he hid under; then the
    planned actions are played from there."""
    game = in_round(table(Ada="time_car", Bea="car3:interior"), 1)
    end_round(game, "car2")
    revealed = start_round(game)
    assert revealed.as_dict() == {
        "figure": "Ada",
        "from": None,
        "to": "car2:interior",
        "rule": "ADT-R16",
    }
    assert where(game, "Ada") == "car2:interior"
    assert game.bandits["Ada"].hidden_under is None
    do(game, "move", "Ada", to="car3:interior")
    assert where(game, "Ada") == "car3:interior"
    post = reveal_post(2, "Ada", "car2:interior")
    assert (
        post.text("it")
        == "Inizia la fase di Furto del round 2: Ada riappare nell'interno del Vagone 2."
    )
    assert (
        post.text("en")
        == "The Stealin' phase of round 2 begins: Ada reappears in the interior of car 2."
    )
    assert start_stealin(game) is None  # nobody left to reveal


def test_adt_r17_alone_after_the_last_event_takes_500_and_the_loot():
    """ADT-R17: after the last round's Event (Braking brings Ada in), alone: $500 and all
    the loot lying in the Time Car."""
    game = in_round(table(Ada="locomotive:roof", Bea="car3:interior", rounds=5), 5)
    game.time_car_loot[:] = ["purse:300", "jewel"]
    apply_event(game, "braking")
    end_round(game, None)
    end = end_bonus(game)
    assert end["bonus"] == {
        "bandit": "Ada",
        "money": 500,
        "loot": ["purse:300", "jewel"],
        "value": 1300,
    }
    assert end["rule"] == "ADT-R17"
    assert game.time_car_loot == []
    post = end_post(end)
    assert post.text("it") == (
        "Fine della partita: Ada è solo nell'Automobile del Tempo e ottiene $500 e il bottino "
        "che contiene (una borsa ($300), un gioiello ($500)): $1300 in tutto."
    )
    assert post.render("bbcode", "it").startswith(
        "[b]Automobile del Tempo: fine della partita[/b]\n"
    )
    assert post.render("markdown", "en").startswith("**Time Car: end of the game**\n")


def test_adt_r20_braking_forces_the_locomotive_roof_into_the_time_car():
    """ADT-R20: Braking moves everyone on a roof one car toward the Locomotive; those on
    the Locomotive's roof go into the Time Car; interiors stay."""
    game = table(Ada="locomotive:roof", Bea="car2:roof", Cid="car1:interior", Dan="time_car")
    moved = apply_event(game, "braking")
    assert [m.as_dict() for m in moved] == [
        {"figure": "Ada", "from": "locomotive:roof", "to": "time_car", "rule": "ADT-R20"},
        {"figure": "Bea", "from": "car2:roof", "to": "car1:roof", "rule": None},
    ]
    assert game.public_positions() == {
        "Ada": "time_car", "Bea": "car1:roof", "Cid": "car1:interior", "Dan": "time_car",
    }  # fmt: skip


def test_adt_d4_no_hiding_on_the_last_round():
    """ADT-D4: alone on the last round he does not hide (the bonus applies instead)."""
    game = in_round(table(Ada="time_car", Bea="car3:interior", rounds=3), 3)
    with pytest.raises(TimeCarViolation) as refused:
        end_round(game, "car1")
    assert refused.value.rule == "ADT-D4"
    assert end_round(game, None) is None
    assert where(game, "Ada") == "time_car"
    assert game.over
    assert end_bonus(game)["bonus"]["bandit"] == "Ada"


def test_adt_d5_he_leaves_the_time_car_at_once_keeping_no_place():
    """ADT-D5: the Time Car is empty as soon as he hides; the loot lying there stays; he
    cannot act or be targeted until revealed."""
    game = in_round(table(Ada="time_car", Bea="locomotive:roof"), 1)
    game.time_car_loot.append("jewel")
    end_round(game, "car1")
    assert game.in_time_car() == []
    assert game.time_car_loot == ["jewel"]
    assert where(game, "Ada") is None
    refused = ask(game, "move", "Ada", to="car1:roof")
    assert (refused.allowed, refused.message, refused.rule) == (False, "adt.hidden", "ADT-D5")
    assert ask(game, "fire", "Bea", target="Ada").message == "adt.target_hidden"
    assert do(game, "move", "Bea", to="time_car").allowed  # the empty Time Car
    assert do(game, "rob", "Bea", loot="jewel").rule == "ADT-D5"
    assert game.time_car_loot == []


def test_adt_d6_several_in_the_time_car_at_the_end_nobody_gets_it():
    """ADT-D6: two Bandits inside: no $500, the loot stays unclaimed."""
    game = in_round(table(Ada="time_car", Bea="time_car", rounds=2), 2)
    game.time_car_loot.append("purse:250")
    end_round(game, None)
    end = end_bonus(game)
    assert end == {
        "time_car": ["Ada", "Bea"],
        "bonus": None,
        "unclaimed_loot": ["purse:250"],
        "rule": "ADT-D6",
    }
    assert end_post(end).line == "post.end_crowded"


def test_adt_d7_the_500_count_as_money_with_the_loot():
    """ADT-D7: $500 plus the loot's value is his bonus money; an empty Time Car gives $500."""
    game = in_round(table(Ada="time_car", Bea="car1:interior", rounds=1), 1)
    end_round(game, None)
    assert end_bonus(game)["bonus"] == {"bandit": "Ada", "money": 500, "loot": [], "value": 500}
