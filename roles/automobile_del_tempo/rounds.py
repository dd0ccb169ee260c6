"""A round around the Time Car: the reveal that opens the Stealin' phase (ADT-R16), the
round's Event (Braking, ADT-R20), the end-of-round check and the secret hiding (ADT-R13,
R14, D4, D5), and the end-of-game bonus (ADT-R17, D6, D7)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from roles.automobile_del_tempo.answers import Answer, Moved, TimeCarViolation, no, yes
from roles.automobile_del_tempo.checker import MARSHAL, move_figures
from roles.automobile_del_tempo.state import BONUS, LOOT_VALUES, TimeCarGame
from roles.automobile_del_tempo.train import (
    IN_TIME_CAR,
    INTERIOR,
    ROOF,
    STAGECOACH,
    Place,
    PlaceError,
)

# The base game's Round Events (and the Train Station's) by key; only the first three
# move anyone. Braking also feeds the Time Car (ADT-R20).
EVENTS = (
    "braking", "swivel_arm", "angry_marshal", "take_it_all", "passengers_rebellion",
    "marshals_revenge", "pickpocketing", "hostage_conductor",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Hiding:
    bandit: str
    under: str  # locomotive, carK or stagecoach: sealed until the reveal

    def as_dict(self) -> dict[str, Any]:
        return {"bandit": self.bandit, "under": self.under}


def start_stealin(game: TimeCarGame) -> Moved | None:
    """Open the next round's Stealin' phase: the hidden Bandit is revealed in the interior
    of what he hid under, before any planned action is played (ADT-R16)."""
    hidden = game.hidden()
    if hidden is None:
        return None
    place = Place(hidden.hidden_under, INTERIOR)
    hidden.place, hidden.hidden_under = place, None
    return Moved(hidden.name, None, str(place), "ADT-R16")


def start_round(game: TimeCarGame) -> Moved | None:
    """The next round begins (its Schemin' phase, the hidden Bandit still hidden, ADT-R15)
    and its Stealin' phase opens with the reveal."""
    if game.over:
        raise ValueError("the game is over")
    game.round += 1
    return start_stealin(game)


def event_moves(game: TimeCarGame, event: str | None) -> list[Moved]:
    """What the round's Event does to the figures (applied at once: nobody moves twice)."""
    if event is None:
        return []
    if event not in EVENTS:
        raise ValueError(f"unknown event {event!r} ({', '.join(EVENTS)})")
    train = game.train
    moved: list[Moved] = []
    if event == "braking":  # every Bandit on a roof one car toward the Locomotive
        for bandit in game.bandits.values():
            place = bandit.place
            if place is not None and place.on_train_roof:
                if place.index == 0:
                    moved.append(Moved(bandit.name, str(place), str(IN_TIME_CAR), "ADT-R20"))
                else:
                    ahead = Place(train.unit_at(place.index - 1), ROOF)
                    moved.append(Moved(bandit.name, str(place), str(ahead), None))
    elif event == "swivel_arm":  # every Bandit on a roof swept onto the Caboose's roof
        caboose = Place(train.unit_at(train.cars), ROOF)
        for bandit in game.bandits.values():
            place = bandit.place
            if place is not None and place.on_train_roof and place != caboose:
                moved.append(Moved(bandit.name, str(place), str(caboose), None))
    elif event == "angry_marshal" and game.marshal.index < train.cars:  # one car back
        back = Place(train.unit_at(game.marshal.index + 1), INTERIOR)
        moved.append(Moved(MARSHAL, str(game.marshal), str(back), None))
    return moved


def apply_event(game: TimeCarGame, event: str | None) -> list[Moved]:
    moved = event_moves(game, event)
    move_figures(game, moved)
    return moved


def hiding_check(game: TimeCarGame, under: str | None, bandit: str | None = None) -> Answer:
    """After the Event: must, may or may not a Bandit hide, and where (ADT-R13, R14, D4).
    ``bandit``, when given, must be the one alone in the Time Car."""
    alone = game.in_time_car()
    if game.last_round:
        if under is not None:
            return no("adt.hide.last_round", "ADT-D4")
        return yes("adt.hide.none", "ADT-D4")
    if len(alone) != 1:
        if under is not None:
            return no("adt.hide.not_alone", "ADT-R13")
        return yes("adt.hide.none", "ADT-R13")
    if bandit is not None and bandit != alone[0]:
        return no("adt.hide.not_him", "ADT-R13", bandit=alone[0])
    if under is None:
        return no("adt.hide.missing", "ADT-R14")
    if under == STAGECOACH and not game.train.horses_and_stagecoach:
        return no("adt.hide.no_stagecoach", "ADT-R14")
    try:
        spot = game.train.hiding_spot(under)
    except PlaceError:
        return no("adt.hide.no_such_spot", "ADT-R14", under=str(under))
    return yes("adt.hide.where", "ADT-R14", under=spot)


def end_round(
    game: TimeCarGame, under: str | None, bandit: str | None = None, *, label: str = ""
) -> Hiding | None:
    """The end-of-round check, after the Event: exactly one Bandit alone in the Time Car
    hides ``under`` the Locomotive, a car or the Stagecoach and leaves the Time Car at
    once (ADT-R13, R14, D5); none on the last round (ADT-D4), which ends the game."""
    answer = hiding_check(game, under, bandit)
    alone = game.in_time_car()
    if not answer.allowed:
        name = bandit or (alone[0] if len(alone) == 1 else "")
        character = game.bandits[name].character if name in game.bandits else ""
        raise TimeCarViolation(
            answer, label=label or f"Round {game.round}", figure=name, role=character
        )
    if game.last_round:
        game.over = True
        return None
    if answer.message != "adt.hide.where":
        return None
    hider = game.bandits[alone[0]]
    hider.place, hider.hidden_under = None, answer.params["under"]
    return Hiding(hider.name, hider.hidden_under)


def end_bonus(game: TimeCarGame) -> dict[str, Any]:
    """After the last Event: a Bandit alone in the Time Car gets $500 (counted as money,
    ADT-D7) and every loot inside (ADT-R17); with several nobody does (ADT-D6)."""
    inside = game.in_time_car()
    loot = list(game.time_car_loot)
    if len(inside) == 1:
        game.time_car_loot.clear()
        value = BONUS + sum(LOOT_VALUES[t] for t in loot)
        bonus = {"bandit": inside[0], "money": BONUS, "loot": loot, "value": value}
        return {"time_car": inside, "bonus": bonus, "unclaimed_loot": [], "rule": "ADT-R17"}
    rule = "ADT-D6" if inside else "ADT-R17"
    return {"time_car": inside, "bonus": None, "unclaimed_loot": loot, "rule": rule}
