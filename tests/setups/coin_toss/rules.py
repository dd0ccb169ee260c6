"""Sorte's rules (CT-R1..R3 in rules.md): no ability, one night step."""

from __future__ import annotations

from typing import Any, ClassVar

from roles.engine.abilities import Ability
from roles.engine.messages import _, declare, msg
from roles.engine.model import GameState
from roles.engine.simple import Night, SimpleRuleset

declare(
    {"ct.trace.fate": _("fate strikes %(player)s"), "ct.step.sorte": _("fate")}
)  # Italian: locale/ beside this file


def sorte(night: Night) -> None:
    """CT-R2: on N0 fate strikes one living player, drawn from the game's seed."""
    state = night.state
    if night.index != 0 or not night.rules.opt(state, "fate_strikes"):
        return
    victim = night.rules.draw(state, "fate", [p for p in state.players if p.alive])
    if night.mark(victim, "sorte"):
        night.outcome.why(msg("ct.trace.fate", "CT-R2", player=victim.name))


class CoinToss(SimpleRuleset):
    key = "coin-toss"
    prefix = "ct."
    count_rule = "CT-R1"
    roles_rule = "CT-R1"
    dead_actor_rule = "CT-R1"
    vote_rules: ClassVar[dict[str, str]] = {
        "when": "CT-R3", "secret": "CT-R3", "target": "CT-R3", "self": "CT-R3", "tie": "CT-R3",
    }  # fmt: skip
    abilities: ClassVar[dict[str, tuple[Ability, ...]]] = {}
    night_steps: ClassVar[dict[str, Any]] = {"sorte": sorte}

    def winning_factions(self, state: GameState) -> list[str] | None:
        """CT-R3."""
        if all(p.alive for p in state.players):
            return None
        chosen = state.holder("prescelto")
        return ["rossi"] if chosen is not None and chosen.alive else ["blu"]
