"""The groups' choices and the void choices on the GM's phase page (issue 12 §4)."""

from __future__ import annotations

from typing import Any

from django import template

from games.engine import rebuild
from games.models import Game, Phase
from games.selectors.groups import NightWatch, night_watch

register = template.Library()


@register.inclusion_tag("games/_night_watch.html")
def night_watch_panel(
    game: Game, phase: Phase | None, watch: NightWatch | None = None
) -> dict[str, Any]:
    """Every phase still to resolve (by day: the day and the coming night, whose actions
    are already being sent), read on a fresh snapshot: the page's preview plays on its own.
    ``watch``: read already by the page (on its snapshot, before the preview)."""
    if watch is not None:
        return {"watch": watch, "game": game}
    if phase is None:
        return {"watch": None}
    pending = list(game.phases.exclude(status=Phase.Status.COMMITTED).order_by("index"))
    built = rebuild(game)
    return {"watch": night_watch(built, pending), "game": game}
