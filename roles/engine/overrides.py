"""The GM's corrections to an outcome, applied after the engine resolved the phase.

A forum GM sometimes rules differently from the engine (a missed message, a house ruling).
The correction is an input like any other: stored with its reason, applied after the
resolution, and the win check runs again.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from roles.engine.model import GameState, PhaseOutcome
from roles.engine.ruleset import Ruleset

OVERRIDE_KINDS = ("spare", "kill")


def apply_overrides(
    rules: Ruleset, state: GameState, outcome: PhaseOutcome, overrides: Iterable[Mapping[str, Any]]
) -> None:
    """``spare``: a player who died in this phase lives; ``kill``: a living player dies."""
    changed = False
    for override in overrides:
        player = state.by_name[override["player"]]
        reason = override.get("reason", "")
        if (
            override["kind"] == "spare"
            and player.dead
            and state.death_phase.get(player.name) == state.phase_index
        ):
            player.alive = True
            state.death_order.remove(player.name)
            del state.death_phase[player.name]
            outcome.deaths = [d for d in outcome.deaths if d.player != player.name]
            outcome.why(f"GM override: {player.name} survives ({reason})")
            changed = True
        elif override["kind"] == "kill" and player.alive:
            state.kill(outcome, player, "gm")
            outcome.why(f"GM override: {player.name} dies ({reason})")
            changed = True
    if changed:
        state.winners = state.winning_factions = None
        rules.check_win(state, outcome)
