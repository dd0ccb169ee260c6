"""Small verbs that more than one ruleset uses."""

from __future__ import annotations

from roles.engine.messages import Message
from roles.engine.model import GameState, PhaseOutcome, Player, Status

PACK_BLOCKED = "pack_blocked"  # the pack may not kill in this night


def martyr_of_the_pack(
    state: GameState, out: PhaseOutcome, victim: Player, night_index: int, reason: Message
) -> None:
    """A loner killed by the pack's attack has met his goal, and the pack may not kill
    on the next night (the Pianista, WWW-R91/R92; the Martire, INQ-R61/R62)."""
    state.goal_met.add(victim.name)
    state.set_status(Status(PACK_BLOCKED, night_index + 2, victim.name))
    out.why(reason)


def blocked_night(state: GameState, night_index: int) -> bool:
    """Whether the pack may not kill on night ``night_index`` (see martyr_of_the_pack)."""
    block = state.statuses.get(PACK_BLOCKED)
    return block is not None and block.phase == night_index
