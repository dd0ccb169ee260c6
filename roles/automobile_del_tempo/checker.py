"""The rules checker for every action that touches the Time Car.

``check(game, action)`` answers yes or no with the message and the rule, and lists the
figures the action moves; ``apply(game, action)`` does it (or raises the refusal). An
action that does not touch the Time Car is the base game's, in the GM's hands: it is
applied as given (``adt.base_game``, no rule), except Django's push along the train,
which the checker works out because ADT-R19 and ADT-D9 depend on it.

Base-game rules assumed (the site owns only the Time Car):
- a Move on the roof goes 1 to 3 cars, inside 1 car (ADT-D1 counts the Time Car as one
  more roof step beyond the Locomotive);
- Line of Sight on the roofs: a roof shot hits the nearest Bandit(s) in its direction, at
  any distance, never one on the shooter's own car (ADT-R6, D2); inside, only the
  adjacent car (ADT-R7);
- Django's shot pushes the victim one car in the shot's direction, not off the train;
- the Marshal stays inside the train and cannot be shot or punched.
"""

from __future__ import annotations

from dataclasses import dataclass

from roles.automobile_del_tempo.answers import Answer, Moved, TimeCarViolation, no, yes
from roles.automobile_del_tempo.messages import WordedError
from roles.automobile_del_tempo.state import LOOT_VALUES, Bandit, TimeCarGame
from roles.automobile_del_tempo.train import (
    IN_TIME_CAR,
    INTERIOR,
    LOCOMOTIVE,
    LOCOMOTIVE_INTERIOR,
    LOCOMOTIVE_ROOF,
    ROOF,
    ROOF_MOVE_MAX,
    Place,
    PlaceError,
    roof_between,
)

MARSHAL = "Marshal"
KINDS = ("move", "ride", "change_floor", "fire", "punch", "rob", "marshal", "place", "stagecoach")


class ActionError(WordedError):
    """An action that is not well formed (unknown Bandit, place, loot, missing field)."""


@dataclass(frozen=True, slots=True)
class Action:
    kind: str  # one of KINDS
    actor: str | None = None  # the Bandit acting (None for the Marshal and the Stagecoach)
    to: str | None = None  # a place (move, ride, punch, marshal, place) or a car (stagecoach)
    target: str | None = None  # who is fired at or punched
    loot: str | None = None  # rob: the token taken; punch: the token the victim drops


def _bandit(game: TimeCarGame, name: str | None) -> Bandit:
    if name is None:
        raise ActionError("adt.error.no_bandit")
    if name not in game.bandits:
        raise ActionError("adt.error.unknown_bandit", name=name)
    return game.bandits[name]


def _place(game: TimeCarGame, text: str | None) -> Place:
    if text is None:
        raise ActionError("adt.error.no_place")
    try:
        return game.train.place(text)
    except PlaceError as exc:
        raise ActionError(exc.message, **exc.params) from exc


def _loot(token: str | None) -> str:
    if token is None:
        raise ActionError("adt.error.no_loot")
    if token not in LOOT_VALUES:
        raise ActionError("adt.error.not_loot", text=token)
    return token


def _base(moved: tuple[Moved, ...] = ()) -> Answer:
    return yes("adt.base_game", None, moved)


def _go(figure: str, origin: Place | None, to: Place | None, rule: str | None) -> Moved:
    return Moved(
        figure, None if origin is None else str(origin), None if to is None else str(to), rule
    )


def _step(game: TimeCarGame, name: str, origin: Place, to: Place, verb: str) -> Answer:
    """A Move between the Time Car and the train (ADT-R4, D1)."""
    entering = to.in_time_car
    outside = origin if entering else to
    params = {"origin": str(origin), "to": str(to)}
    if outside.unit == LOCOMOTIVE:
        message = f"adt.{verb}.enter" if entering else f"adt.{verb}.leave"
        return yes(message, "ADT-R4", (_go(name, origin, to, "ADT-R4"),), **params)
    if not (outside.on_train_roof and game.option("adt.time_car_counts_as_roof_step")):
        return no("adt.move.not_adjacent", "ADT-R4", **params)
    steps = outside.index + 1  # over every roof to the Locomotive's, then one more step
    if steps > ROOF_MOVE_MAX:
        return no("adt.move.too_far", "ADT-D1", steps=steps, most=ROOF_MOVE_MAX, **params)
    message = "adt.move.enter_over_roof" if entering else "adt.move.leave_over_roof"
    return yes(message, "ADT-D1", (_go(name, origin, to, "ADT-D1"),), steps=steps, **params)


def _move(game: TimeCarGame, bandit: Bandit, to: Place) -> Answer:
    origin = bandit.place
    if origin.in_time_car and to.in_time_car:
        return no("adt.move.already_there", "ADT-R4")
    if not (origin.in_time_car or to.in_time_car):
        return _base((_go(bandit.name, origin, to, None),))
    return _step(game, bandit.name, origin, to, "move")


def _ride(game: TimeCarGame, bandit: Bandit, to: Place) -> Answer:
    """ADT-R4 (Ride only with the expansion) and D8 (the Time Car wherever the Ride could
    end at the Locomotive: whether it could is the base game's, the GM's call)."""
    origin = bandit.place
    if not game.train.horses_and_stagecoach:
        return no("adt.ride.no_horses", "ADT-R4")
    if origin.in_time_car and to.in_time_car:
        return no("adt.move.already_there", "ADT-R4")
    if not (origin.in_time_car or to.in_time_car):
        return _base((_go(bandit.name, origin, to, None),))
    message = "adt.ride.enter" if to.in_time_car else "adt.ride.leave"
    moved = (_go(bandit.name, origin, to, "ADT-D8"),)
    return yes(message, "ADT-D8", moved, origin=str(origin), to=str(to))


def _change_floor(bandit: Bandit) -> Answer:
    origin = bandit.place
    if origin.in_time_car:
        return yes("adt.change_floor.useless", "ADT-R5")
    other = Place(origin.unit, INTERIOR if origin.floor == ROOF else ROOF)
    return _base((_go(bandit.name, origin, other, None),))


def _django_push(
    game: TimeCarGame, shooter: Place, victim: str, hit: Place, rule: str | None
) -> tuple[Moved, ...]:
    """Django's ability: one car further in the shot's direction, never off the train."""
    if shooter.index is None or hit.index is None or shooter.index == hit.index:
        return ()
    further = hit.index + (1 if hit.index > shooter.index else -1)
    if not 0 <= further <= game.train.cars or hit.floor is None:
        return ()
    return (_go(victim, hit, Place(game.train.unit_at(further), hit.floor), rule),)


def _fire_with_time_car(game: TimeCarGame, shooter: Bandit, victim: Bandit) -> Answer:
    """ADT-R6, R7, R8, D2, D3, and D9 for Django firing from the Time Car."""
    s, t = shooter.place, victim.place
    if s.in_time_car and t.in_time_car:
        return no("adt.fire.same_car", "ADT-R6", target=victim.name)
    from_time_car = s.in_time_car
    other = t if from_time_car else s
    target = victim.name
    if other.in_train_interior:
        if other.unit != LOCOMOTIVE:
            return no("adt.fire.interior_not_adjacent", "ADT-R7", target=target)
        message, rule = "adt.fire.locomotive_interior", "ADT-R7"
    elif other.on_train_roof:
        rule = "ADT-D2" if from_time_car else "ADT-R6"
        blocker = roof_between(game.train, game.positions(), 0, other.index, set())
        if blocker is not None:
            return no("adt.fire.no_line_of_sight", rule, target=target, blocker=blocker)
        message = "adt.fire.roof_in_sight"
    else:  # the Stagecoach
        if other.floor != ROOF:
            return no("adt.fire.stagecoach_interior", "ADT-R8", target=target)
        message, rule = "adt.fire.stagecoach_roof", "ADT-R8"
        if game.option("adt.stagecoach_fire_needs_los"):
            rule = "ADT-D3"  # as if on the roof of the car the Stagecoach runs beside
            beside = game.stagecoach_beside or 0
            blocker = roof_between(game.train, game.positions(), 0, beside, set())
            if blocker is not None:
                return no("adt.fire.no_line_of_sight", rule, target=target, blocker=blocker)
    moved: tuple[Moved, ...] = ()
    if shooter.is_django and from_time_car:
        moved = _django_push(game, s, victim.name, t, "ADT-D9")
    return yes(message, rule, moved, target=target)


def _fire(game: TimeCarGame, shooter: Bandit, victim: Bandit) -> Answer:
    s, t = shooter.place, victim.place
    if s.in_time_car or t.in_time_car:
        return _fire_with_time_car(game, shooter, victim)
    if shooter.is_django and t == LOCOMOTIVE_ROOF and s.index is not None:
        # ADT-R19: from a car's roof, the nearest Bandit on the Locomotive's roof.
        if not s.on_train_roof or s.index == 0:
            return no("adt.fire.django_out_of_reach", "ADT-R19", target=victim.name, origin=str(s))
        blocker = roof_between(game.train, game.positions(), 1, s.index, set())
        if blocker is not None:
            return no("adt.fire.no_line_of_sight", "ADT-R19", target=victim.name, blocker=blocker)
        moved = (_go(victim.name, t, IN_TIME_CAR, "ADT-R19"),)
        return yes("adt.fire.django_into_time_car", "ADT-R19", moved, target=victim.name)
    return _base(_django_push(game, s, victim.name, t, None) if shooter.is_django else ())


def _punch(game: TimeCarGame, puncher: Bandit, victim: Bandit, to: Place) -> Answer:
    s, t = puncher.place, victim.place
    target = victim.name
    if t.in_time_car or s.in_time_car:  # ADT-R10: out of the Time Car only inside the Locomotive
        if s != t:
            return no("adt.punch.not_together", "ADT-R10", target=target)
        if to == LOCOMOTIVE_ROOF:
            return no("adt.punch.never_to_roof", "ADT-R10", target=target)
        if to != LOCOMOTIVE_INTERIOR:
            return no("adt.punch.only_locomotive_interior", "ADT-R10", target=target, to=str(to))
        return yes(
            "adt.punch.out_to_interior", "ADT-R10", (_go(target, t, to, "ADT-R10"),), target=target
        )
    if to.in_time_car:  # ADT-R9: from the Locomotive's roof or interior
        if t not in (LOCOMOTIVE_ROOF, LOCOMOTIVE_INTERIOR):
            return no("adt.punch.not_from_locomotive", "ADT-R9", target=target)
        if s != t:
            return no("adt.punch.not_together", "ADT-R9", target=target)
        return yes(
            "adt.punch.into_time_car", "ADT-R9", (_go(target, t, to, "ADT-R9"),), target=target
        )
    return _base((_go(target, t, to, None),))


def _rob(game: TimeCarGame, bandit: Bandit, token: str) -> Answer:
    if not bandit.place.in_time_car:
        return _base()
    if token not in game.time_car_loot:
        return no("adt.rob.no_such_loot", "ADT-D5", loot=token)
    return yes("adt.rob.time_car_loot", "ADT-D5", loot=token)


def _marshal(game: TimeCarGame, to: Place) -> Answer:
    if to.in_time_car:
        return no("adt.marshal.never", "ADT-R18")
    if not to.in_train_interior:
        raise ActionError("adt.error.marshal_interior")
    return _base((_go(MARSHAL, game.marshal, to, None),))


def _place_bandit(bandit: Bandit, to: Place) -> Answer:
    """The GM places a Bandit after a base-game effect; the Time Car is not reached this way."""
    if to.in_time_car or bandit.place.in_time_car:
        return no("adt.place.time_car", "ADT-R4")
    return _base((_go(bandit.name, bandit.place, to, None),))


def check(game: TimeCarGame, action: Action) -> Answer:
    """Can this be done now? Yes or no, with the rule; nothing changes."""
    if action.kind not in KINDS:
        raise ActionError("adt.error.unknown_action", text=action.kind)
    if action.kind == "marshal":
        return _marshal(game, _place(game, action.to))
    if action.kind == "stagecoach":
        if not game.train.horses_and_stagecoach:
            raise ActionError("adt.error.no_stagecoach")
        _place(game, f"{action.to}:roof")
        return _base()
    actor = _bandit(game, action.actor)
    if actor.place is None:
        return no("adt.hidden", "ADT-D5")
    if action.kind in ("fire", "punch"):
        victim = _bandit(game, action.target)
        if victim.name == actor.name:
            raise ActionError(f"adt.error.{action.kind}_self")
        if victim.place is None:
            return no("adt.target_hidden", "ADT-D5", target=victim.name)
        if action.kind == "fire":
            return _fire(game, actor, victim)
        if action.loot is not None:
            _loot(action.loot)
        return _punch(game, actor, victim, _place(game, action.to))
    if action.kind == "change_floor":
        return _change_floor(actor)
    if action.kind == "rob":
        return _rob(game, actor, _loot(action.loot))
    to = _place(game, action.to)
    if action.kind == "move":
        return _move(game, actor, to)
    if action.kind == "ride":
        return _ride(game, actor, to)
    return _place_bandit(actor, to)


def apply(game: TimeCarGame, action: Action, *, label: str = "") -> Answer:
    """Do the action: the figures move as the answer says, loot follows. A refusal raises
    :class:`TimeCarViolation` naming ``label`` (e.g. "Round 2"), the Bandit and the rule."""
    answer = check(game, action)
    if not answer.allowed:
        actor = game.bandits.get(action.actor or "")
        figure = actor.name if actor else MARSHAL
        raise TimeCarViolation(
            answer,
            label=label or f"Round {game.round}",
            figure=figure,
            role=actor.character if actor else "",
        )
    if action.kind == "punch" and action.loot and game.bandits[action.target].place.in_time_car:
        game.time_car_loot.append(action.loot)  # the victim drops it where he was punched
    if action.kind == "rob" and answer.rule is not None:
        game.time_car_loot.remove(action.loot)
    if action.kind == "stagecoach":
        game.stagecoach_beside = game.train.place(f"{action.to}:roof").index
    move_figures(game, answer.moved)
    return answer


def move_figures(game: TimeCarGame, moved: tuple[Moved, ...] | list[Moved]) -> None:
    for step in moved:
        place = None if step.to is None else game.train.place(step.to)
        if step.figure == MARSHAL:
            game.marshal = place
        else:
            game.bandits[step.figure].place = place
