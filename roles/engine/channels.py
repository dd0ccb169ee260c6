"""The private discussion areas a GM opens on the forum, and who may use them.

Only what a role card grants (WWW-R5, WWW-D25; INQ-R2, INQ-D17, INQ-D18): no inns,
no channel for knowing someone's identity. Membership follows life and death:
a member loses a living channel on death (WWW-R6, INQ-R3) and enters the Cemetery.
"""

from __future__ import annotations

from dataclasses import dataclass

from roles.engine.model import GameState


@dataclass(frozen=True, slots=True)
class Channel:
    key: str
    name: str
    members: tuple[str, ...]  # read and write
    readers: tuple[str, ...] = ()  # read only (the Becchino in the Cemetery, INQ-R33)


def cemetery(state: GameState, *, departed: bool, readers: tuple[str, ...] = ()) -> Channel:
    """The dead (and, where allowed, the departed bounty hunter) talk only here."""
    members = tuple(p.name for p in state.players if p.dead or (p.departed and departed))
    return Channel("cimitero", "Cimitero", members, readers)


def living(
    state: GameState, roles: tuple[str, ...], *, by_faction: str | None = None
) -> tuple[str, ...]:
    return tuple(
        p.name
        for p in state.players
        if p.alive and (p.dealt_role in roles or (by_faction and p.faction == by_faction))
    )
