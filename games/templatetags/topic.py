"""The thread panel and the tie explanation on the GM's phase page (issue 12)."""

from __future__ import annotations

from typing import Any

from django import template

from games.engine import rules_for
from games.models import Game, Phase, Player
from games.selectors.board import Board
from games.selectors.counts import tie_note
from games.services.follow_desk import panel_context
from games.services.phases import Preview
from games.services.topic_settings import topic_settings
from games.text.names import forum_formats

register = template.Library()


@register.inclusion_tag("games/_topic_panel.html")
def topic_panel(game: Game, phase: Phase, players: list[Player] | None = None) -> dict[str, Any]:
    """The thread's import panel; ``players``: the game's, when the page has them."""
    settings = topic_settings(game)
    seats = {p.seat: p.name for p in (game.players.all() if players is None else players)}
    aliases = "\n".join(f"{a} = {seats[s]}" for a, s in settings.aliases.items() if s in seats)
    formats = forum_formats()
    return {"game": game, "phase": phase, "settings": settings, "formats": formats,
            "aliases": aliases}  # fmt: skip


@register.inclusion_tag("games/_tie_note.html")
def tie_explanation(game: Game, preview: Preview, board: Board) -> dict[str, Any]:
    if preview is None or preview.outcome.execution is None:
        return {"lines": []}
    if board.tie is not None:  # the page has it already
        return {"lines": board.tie.gm}
    rule = rules_for(game).vote_rules.get("tie", "")
    return {"lines": tie_note(game, preview.outcome, board.submissions, rule).gm}


@register.inclusion_tag("games/_follow_panel.html")
def follow_panel(game: Game, phase: Phase) -> dict[str, Any]:
    """The followed thread's panel (issue 32, "Segui il topic")."""
    return panel_context(game, phase)
