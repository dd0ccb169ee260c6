"""The Rettifica post the GM's phase page offers (issue 31 major 4): for a phase whose
posted result an undo took back, what changed between that result and the new one (the
phase's commit again, or, before it, the preview of what the commit would store)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.models import Game, Phase
from games.text.posts import FORMATS
from games.text.rettifica import outcome_summary, rettifica_post


def rettifica_posts(
    game: Game, phase: Phase, outcome: Mapping[str, Any], inputs: Mapping[str, Any]
) -> dict[str, str] | None:
    """The Rettifica of ``phase`` in every format, its new result being ``outcome`` and
    ``inputs`` (as stored on a committed phase); None when no posted result was taken back
    or nothing public changed."""
    if not phase.retracted or not outcome:
        return None
    players = list(game.players.values_list("seat", "name"))
    seats = {name: seat for seat, name in players}
    after = outcome_summary(outcome, inputs, seats)
    posts = {
        fmt: rettifica_post(phase.label, phase.retracted, after, dict(players),
                            lang=game.language, fmt=fmt)
        for fmt in FORMATS
    }  # fmt: skip
    return posts if posts["bbcode"] is not None else None
