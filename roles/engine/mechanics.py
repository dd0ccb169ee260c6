"""Small verbs that more than one ruleset uses."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

from roles.engine.messages import Message
from roles.engine.model import GameState, PhaseOutcome, Player, Status
from roles.engine.statuses import SharedStatus

PACK_BLOCKED = SharedStatus.PACK_BLOCKED  # the pack may not kill in this night

T = TypeVar("T")


def latest_distinct(entries: Sequence[T], uses: int, target: Callable[[T], Hashable]) -> list[T]:
    """A shared ability's entries that count: the latest ones naming different targets, as
    many as ``uses`` allows, in time order (WWW-D19, INQ-D11, INQ-D12). The resolution and
    the pages that show a group its standing choice both read it here."""
    chosen: list[T] = []
    seen: set[Hashable] = set()
    for entry in reversed(entries):
        if len(chosen) == uses:
            break
        key = target(entry)
        if key not in seen:
            seen.add(key)
            chosen.append(entry)
    chosen.reverse()
    return chosen


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
