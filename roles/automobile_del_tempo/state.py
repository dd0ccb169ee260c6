"""What the referee knows of a Time Car game: the train, every Bandit's place, the Marshal,
the loot lying in the Time Car, the round, and a hidden Bandit's sealed spot.

Pure Python (no Django): the site stores a snapshot of it and hands it back to the engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from roles.automobile_del_tempo.answers import TimeCarViolation, no
from roles.automobile_del_tempo.messages import WordedError
from roles.automobile_del_tempo.train import (
    INTERIOR,
    LOCOMOTIVE_INTERIOR,
    MAX_CARS,
    MIN_CARS,
    Place,
    PlaceError,
    Train,
)

SETUP_KEY = "automobile-del-tempo"
CHARACTERS = ("belle", "cheyenne", "django", "doc", "ghost", "tuco")  # the base game's six
DJANGO = "django"
DEFAULT_ROUNDS = 5  # base game: four Round cards and a Train Station card
OPTIONS = {
    "adt.time_car_counts_as_roof_step": True,  # ADT-D1
    "adt.stagecoach_fire_needs_los": False,  # ADT-D3
}
PURSES = range(250, 501, 50)  # base game purses: $250 to $500
LOOT_VALUES = {"jewel": 500, "strongbox": 1000} | {f"purse:{v}": v for v in PURSES}
BONUS = 500  # ADT-R17, counted as money like loot (ADT-D7)


class SetupError(WordedError):
    """A train or a list of Bandits the game cannot be set up with."""


def loot_value(token: str) -> int:
    if token not in LOOT_VALUES:
        raise SetupError("adt.error.not_loot", text=token)
    return LOOT_VALUES[token]


@dataclass(slots=True)
class Bandit:
    name: str
    character: str
    place: Place | None  # None while hidden (ADT-D5)
    hidden_under: str | None = None  # sealed until the reveal (ADT-R15, R16)

    @property
    def is_django(self) -> bool:
        return self.character == DJANGO


@dataclass(slots=True)
class TimeCarGame:
    train: Train
    bandits: dict[str, Bandit]  # in player order
    marshal: Place = LOCOMOTIVE_INTERIOR
    total_rounds: int = DEFAULT_ROUNDS
    round: int = 0  # the round being played (0 before the first)
    options: dict[str, bool] = field(default_factory=lambda: dict(OPTIONS))
    stagecoach_beside: int | None = None  # index of the car the Stagecoach runs beside
    time_car_loot: list[str] = field(default_factory=list)
    over: bool = False

    def option(self, key: str) -> bool:
        return self.options[key]

    def positions(self) -> dict[str, Place]:
        """Every Bandit who stands somewhere (the hidden one does not, ADT-D5)."""
        return {n: b.place for n, b in self.bandits.items() if b.place is not None}

    def public_positions(self) -> dict[str, str | None]:
        """What the table sees: every place, None for a hidden Bandit; where he hides is
        nowhere in it (ADT-R15), not even for the GM, until the reveal (ADT-R16)."""
        return {n: None if b.place is None else str(b.place) for n, b in self.bandits.items()}

    def in_time_car(self) -> list[str]:
        return [n for n, b in self.bandits.items() if b.place is not None and b.place.in_time_car]

    def hidden(self) -> Bandit | None:
        return next((b for b in self.bandits.values() if b.hidden_under is not None), None)

    @property
    def last_round(self) -> bool:
        return self.round == self.total_rounds


def default_start(train: Train, number: int) -> Place:
    """Base game: odd players start in the Caboose, even players in the car before it."""
    return Place(f"car{train.cars if number % 2 else train.cars - 1}", INTERIOR)


def new_game(
    *,
    cars: int,
    bandits: Mapping[str, tuple[str, str | None]],
    horses_and_stagecoach: bool = False,
    total_rounds: int = DEFAULT_ROUNDS,
    marshal: str | None = None,
    stagecoach: str | None = None,
    options: Mapping[str, Any] | None = None,
) -> TimeCarGame:
    """A game before its first round. ``bandits`` maps each name, in player order, to its
    character and its start place (None: the base game's start). Nobody starts in the Time
    Car: the setup is the base game's (ADT-R2), and with Horses & Stagecoach the Horse
    Attack cannot place a Bandit there (ADT-R3); nor can the Marshal ever be (ADT-R18)."""
    if not isinstance(cars, int) or not MIN_CARS <= cars <= MAX_CARS:
        raise SetupError("adt.error.cars", least=MIN_CARS, most=MAX_CARS)
    if not 2 <= len(bandits) <= 6:
        raise SetupError("adt.error.bandit_count")
    if not isinstance(total_rounds, int) or total_rounds < 1:
        raise SetupError("adt.error.rounds")
    effective = dict(OPTIONS)
    for key, value in (options or {}).items():
        if key not in OPTIONS:
            raise SetupError("adt.error.unknown_option", text=key)
        if not isinstance(value, bool):
            raise SetupError("adt.error.option_bool", text=key)
        effective[key] = value
    train = Train(cars=cars, horses_and_stagecoach=horses_and_stagecoach)
    seen: set[str] = set()
    roster: dict[str, Bandit] = {}
    try:
        for number, (name, (character, start)) in enumerate(bandits.items(), start=1):
            if character not in CHARACTERS:
                raise SetupError("adt.error.unknown_character", name=name, text=character)
            if character in seen:
                raise SetupError("adt.error.character_taken", name=name,
                                 text=character.capitalize())  # fmt: skip
            seen.add(character)
            place = train.place(start) if start is not None else default_start(train, number)
            if place.in_time_car:
                refusal = (
                    no("adt.start.horse_attack", "ADT-R3") if horses_and_stagecoach
                    else no("adt.start.time_car", "ADT-R2")
                )  # fmt: skip
                raise TimeCarViolation(refusal, label="setup", figure=name, role=character)
            roster[name] = Bandit(name, character, place)
        marshal_place = train.place(marshal) if marshal is not None else LOCOMOTIVE_INTERIOR
        beside = None
        if horses_and_stagecoach:
            unit = stagecoach or f"car{cars}"
            train.check_unit(unit)
            beside = train.place(f"{unit}:roof").index
            if beside is None:
                raise SetupError("adt.error.stagecoach_beside")
        elif stagecoach is not None:
            raise SetupError("adt.error.no_stagecoach")
    except PlaceError as exc:
        raise SetupError(exc.message, **exc.params) from exc
    if marshal_place.in_time_car:
        raise TimeCarViolation(no("adt.marshal.never", "ADT-R18"), label="setup", figure="Marshal")
    if not marshal_place.in_train_interior:
        raise SetupError("adt.error.marshal_interior")
    game = TimeCarGame(
        train=train, bandits=roster, marshal=marshal_place, total_rounds=total_rounds,
        options=effective, stagecoach_beside=beside,
    )  # fmt: skip
    return game
