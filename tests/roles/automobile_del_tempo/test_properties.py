"""Random tables and random actions through the Time Car's checker: what the checker allows,
applying does; what it refuses changes nothing; the Marshal is never in the Time Car
(ADT-R18); a refusal always cites an ADT rule; a whole random game ends with the bonus
going to the lone Bandit in the Time Car (ADT-R17) or to nobody (ADT-D6)."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roles.automobile_del_tempo.answers import TimeCarViolation
from roles.automobile_del_tempo.checker import Action, apply, check
from roles.automobile_del_tempo.rounds import EVENTS, apply_event, end_bonus, end_round, start_round
from roles.automobile_del_tempo.state import LOOT_VALUES, new_game

NAMES = ("Ada", "Bea", "Cid", "Dan")
CHARACTERS = ("django", "belle", "tuco", "doc")


def places(cars: int) -> list[str]:
    units = ["locomotive", *(f"car{i}" for i in range(1, cars + 1)), "stagecoach"]
    return ["time_car", *(f"{u}:{f}" for u in units for f in ("roof", "interior"))]


@st.composite
def actions(draw: st.DrawFn, cars: int) -> Action:
    kind = draw(st.sampled_from(("move", "ride", "change_floor", "fire", "punch", "rob",
                                 "marshal", "place")))  # fmt: skip
    actor = None if kind == "marshal" else draw(st.sampled_from(NAMES))
    target = draw(st.sampled_from([n for n in NAMES if n != actor]))
    marshal_places = [p for p in places(cars) if p.endswith("interior") or p == "time_car"]
    marshal_places = [p for p in marshal_places if not p.startswith("stagecoach")]
    to = draw(st.sampled_from(marshal_places if kind == "marshal" else places(cars)))
    loot = draw(st.sampled_from(sorted(LOOT_VALUES)))
    return Action(
        kind=kind, actor=actor, to=to, target=target if kind in ("fire", "punch") else None,
        loot=loot if kind in ("rob", "punch") else None,
    )  # fmt: skip


@st.composite
def games(draw: st.DrawFn):
    cars = draw(st.integers(2, 4))
    rounds = draw(st.integers(1, 3))
    plan = [
        (draw(st.lists(actions(cars), max_size=8)), draw(st.sampled_from((None, *EVENTS))),
         draw(st.sampled_from(["locomotive", *(f"car{i}" for i in range(1, cars + 1))])))
        for _ in range(rounds)
    ]  # fmt: skip
    return cars, rounds, plan


@settings(max_examples=60, deadline=None)
@given(games())
def test_random_games_keep_the_time_cars_rules(spec):
    cars, rounds, plan = spec
    game = new_game(cars=cars, bandits=dict(zip(NAMES, ((c, None) for c in CHARACTERS),
                                                strict=True)),
                    horses_and_stagecoach=True, total_rounds=rounds)  # fmt: skip
    for moves, event, spot in plan:
        start_round(game)
        for action in moves:
            answer = check(game, action)
            before = copy.deepcopy(game)
            if answer.allowed:
                assert apply(game, action) == answer
            else:
                assert answer.rule is not None
                assert answer.rule.startswith("ADT-")
                with pytest.raises(TimeCarViolation) as refused:
                    apply(game, action)
                assert refused.value.answer == answer
                assert game == before
            assert not game.marshal.in_time_car
        apply_event(game, event)
        alone = game.in_time_car()
        hides = len(alone) == 1 and not game.last_round
        hiding = end_round(game, spot if hides else None)
        assert (hiding is not None) is hides
        if hiding:
            assert game.bandits[hiding.bandit].place is None
            assert game.in_time_car() == []
    assert game.over
    end = end_bonus(game)
    inside = end["time_car"]
    assert (end["bonus"] is not None) is (len(inside) == 1)
    assert end["rule"] == ("ADT-D6" if len(inside) > 1 else "ADT-R17")
