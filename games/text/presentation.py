"""How the engine's results read to a player, in the active language: each setup declares
its result kinds and their sentences in its own package (``Ruleset.result_kinds``); this
module names none."""

from __future__ import annotations

from typing import Any

from games.engine import describe_result, ruleset_for
from games.text.words import say


def names_in(value: Any, seats: dict[int, str]) -> Any:
    """Turn stored seats back into the current forum names."""
    if isinstance(value, dict) and "seats" in value:
        return [seats[s] for s in value["seats"]]
    if isinstance(value, dict) and "seat" in value:
        return seats[value["seat"]]
    return value


def describe(setup_key: str, kind: str, about: str | None, value: Any) -> str:
    """One result as a sentence (value already turned back into names)."""
    kinds = ruleset_for(setup_key).result_kinds
    return say(describe_result(kinds, kind, about, value), setup_key)
