"""The bridge between the database and the pure rules engine.

The engine's state is never stored: it is rebuilt from the stored inputs (the deal, the
seed, the options, the draws, and later every committed phase's submissions) by replaying
them through the engine, which is deterministic and takes microseconds a phase.
"""

from __future__ import annotations

from games.models import Game
from roles.engine.model import GameState, PhaseOutcome
from roles.engine.registry import ruleset_for
from roles.engine.ruleset import Ruleset


def rules_for(game: Game) -> Ruleset:
    return ruleset_for(game.setup)


def start_state(game: Game, players: list | None = None) -> tuple[GameState, PhaseOutcome]:
    """The engine's state at the deal, with the start-of-game outcome (knowledge, draws)."""
    seated = players if players is not None else list(game.players.all())
    dealt = {p.name: p.role for p in sorted(seated, key=lambda p: p.seat)}
    return rules_for(game).new_game(dealt, seed=game.seed, options=game.options, draws=game.draws)
