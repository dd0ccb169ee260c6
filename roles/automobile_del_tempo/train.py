"""The train with the Time Car in front of the Locomotive (ADT-R2), with or without the
Stagecoach (ADT-R1), and the places a figure can stand on.

A place is written ``time_car``, ``locomotive:roof``, ``locomotive:interior``,
``car2:roof``, ``car2:interior``, ``stagecoach:roof`` or ``stagecoach:interior``. Cars are
numbered from the Locomotive: ``car1`` is coupled to it, the last car is the Caboose.
Along the train the Time Car is index -1, the Locomotive 0 and ``carK`` index K; the
Stagecoach runs beside the train and has no index.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from roles.automobile_del_tempo.messages import WordedError

TIME_CAR = "time_car"
LOCOMOTIVE = "locomotive"
STAGECOACH = "stagecoach"
ROOF, INTERIOR = "roof", "interior"
FLOORS = (ROOF, INTERIOR)
MIN_CARS, MAX_CARS = 2, 6  # the base game's box: a car per player, 2 to 6
ROOF_MOVE_MAX = 3  # base game: a Move on the roof goes 1 to 3 cars
_CAR = re.compile(r"^car([1-9][0-9]*)$")


class PlaceError(WordedError):
    """A place or a hiding spot that does not exist on this train."""


@dataclass(frozen=True, slots=True)
class Place:
    unit: str  # time_car, locomotive, carK or stagecoach
    floor: str | None  # roof or interior; None in the Time Car (it has one space)

    def __str__(self) -> str:
        return self.unit if self.floor is None else f"{self.unit}:{self.floor}"

    @property
    def in_time_car(self) -> bool:
        return self.unit == TIME_CAR

    @property
    def on_stagecoach(self) -> bool:
        return self.unit == STAGECOACH

    @property
    def index(self) -> int | None:
        """Position along the train: -1 the Time Car, 0 the Locomotive, K for carK."""
        if self.unit == TIME_CAR:
            return -1
        if self.unit == LOCOMOTIVE:
            return 0
        if self.unit == STAGECOACH:
            return None
        return int(self.unit[3:])

    @property
    def on_train_roof(self) -> bool:
        return self.floor == ROOF and self.unit != STAGECOACH

    @property
    def in_train_interior(self) -> bool:
        return self.floor == INTERIOR and self.unit != STAGECOACH


IN_TIME_CAR = Place(TIME_CAR, None)
LOCOMOTIVE_ROOF = Place(LOCOMOTIVE, ROOF)
LOCOMOTIVE_INTERIOR = Place(LOCOMOTIVE, INTERIOR)


@dataclass(frozen=True, slots=True)
class Train:
    cars: int
    horses_and_stagecoach: bool = False  # ADT-R1: the Time Car works with or without it

    def unit_at(self, index: int) -> str:
        return LOCOMOTIVE if index == 0 else f"car{index}"

    def units(self) -> list[str]:
        """The Locomotive and the cars, front to back (the Time Car is not a hiding spot)."""
        return [self.unit_at(i) for i in range(self.cars + 1)]

    def place(self, text: str) -> Place:
        """Parse a place written as the module docstring says, on this train."""
        text = str(text).strip()
        if text == TIME_CAR:
            return IN_TIME_CAR
        unit, _, floor = text.partition(":")
        if floor not in FLOORS:
            raise PlaceError("adt.error.not_a_place", text=text)
        self.check_unit(unit)
        return Place(unit, floor)

    def check_unit(self, unit: str) -> None:
        if unit == LOCOMOTIVE:
            return
        if unit == STAGECOACH:
            if not self.horses_and_stagecoach:
                raise PlaceError("adt.error.no_stagecoach")
            return
        match = _CAR.match(unit)
        if not match or int(match[1]) > self.cars:
            raise PlaceError("adt.error.not_on_train", text=unit, cars=self.cars)

    def hiding_spot(self, text: str) -> str:
        """Where a Bandit may hide (ADT-R14): the Locomotive, a car, the Stagecoach."""
        unit = str(text).strip()
        if unit == TIME_CAR:
            raise PlaceError("adt.error.not_hiding_spot")
        self.check_unit(unit)
        return unit


def roof_between(
    train: Train, occupied: dict[str, Place], front: int, back: int, skip: set[str]
) -> str | None:
    """The first Bandit (front to back) standing on a train roof with index in
    [front, back): what blocks a Line of Sight along the roofs (base game: a roof shot hits
    the nearest Bandit in that direction, ADT-D2)."""
    for index in range(max(front, 0), min(back, train.cars + 1)):
        unit = train.unit_at(index)
        for name, place in occupied.items():
            if name not in skip and place.unit == unit and place.floor == ROOF:
                return name
    return None
