"""Small tables for the Time Car's rule tests: Bandits placed by keyword, Django by name."""

from __future__ import annotations

from typing import Any

from roles.automobile_del_tempo.checker import Action, apply, check
from roles.automobile_del_tempo.state import TimeCarGame, new_game

OTHER_CHARACTERS = ("belle", "cheyenne", "doc", "ghost", "tuco")


def table(
    *,
    cars: int = 4,
    hs: bool = False,
    rounds: int = 5,
    options: dict[str, bool] | None = None,
    stagecoach: str | None = None,
    marshal: str | None = None,
    **where: str,
) -> TimeCarGame:
    """A game in the middle of play with each named Bandit at his place, the Time Car
    included (``Django=...`` plays Django; the others take the other characters in turn).
    A lone Bandit gets a companion in the Caboose."""
    others = iter(OTHER_CHARACTERS)
    bandits: dict[str, tuple[str, str | None]] = {
        name: ("django" if name == "Django" else next(others), None) for name in where
    }
    if len(bandits) < 2:
        bandits["Zed"] = (next(others), None)
    game = new_game(
        cars=cars, bandits=bandits, horses_and_stagecoach=hs, total_rounds=rounds,
        options=options, stagecoach=stagecoach, marshal=marshal,
    )  # fmt: skip
    for name, place in where.items():
        game.bandits[name].place = game.train.place(place)
    return game


def ask(game: TimeCarGame, kind: str, actor: str | None = None, **fields: Any) -> Any:
    return check(game, Action(kind=kind, actor=actor, **fields))


def do(game: TimeCarGame, kind: str, actor: str | None = None, **fields: Any) -> Any:
    return apply(game, Action(kind=kind, actor=actor, **fields), label=f"Round {game.round}")


def where(game: TimeCarGame, name: str) -> str | None:
    place = game.bandits[name].place
    return None if place is None else str(place)
