"""The values a game state carries from step to step and phase to phase: the GM's
corrections (inputs of the resolution), the typed delayed or standing effects, and each
ability user's past targets (roles/engine/model.py's GameState holds them).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final


class CorrectionKind(StrEnum):
    SPARE = "spare"
    KILL = "kill"


@dataclass(frozen=True, slots=True)
class Correction:
    """A GM's correction: an input to the resolution, not a patch on its outcome, so every
    consequence of a death follows from the corrected facts.

    ``spare``: the player does not die in this phase (only at ``step``, when named): the
    death is prevented where the rules would mark it, and what that death would cause
    (a block, a goal, a turn, a departure) does not happen. ``kill``: the player dies at
    the end of ``step`` (the end of the phase when None), with every consequence."""

    kind: str  # a CorrectionKind (the ruleset refuses any other: check_corrections)
    player: str
    step: str | None = None
    reason: str = ""


CORRECTION_KINDS: Final = tuple(CorrectionKind)


class StatusKind(StrEnum):
    """The kinds of status: each setup package declares its own as a subclass (its
    ``statuses`` module), the shared mechanics theirs in :class:`SharedStatus`. A kind is
    its string, so a status is filed and found under it (``GameState.statuses``)."""


class SharedStatus(StatusKind):
    PACK_BLOCKED = "pack_blocked"  # the pack may not kill in this night (mechanics)


@dataclass(frozen=True, slots=True)
class Status:
    """A delayed or standing effect, typed: what it is, on whom, the value it carries, and
    the phase it acts in, after which it expires ("the pack cannot kill on night k", "X
    dies of guilt on night k"); ``phase`` None: it stands until replaced (a new status of
    the same kind replaces it: ``GameState.set_status``)."""

    kind: StatusKind
    phase: int | None = None  # the phase index it acts in (N1 = 2, D2 = 3, N2 = 4, ...)
    player: str | None = None
    value: Any = None


@dataclass(slots=True, init=False)
class PastTargets:
    """Whom one user (or group) of an ability has targeted: the previous night's target, for
    the consecutive-night bans, and every target so far, for the never-twice bans."""

    night: int  # the night number of ``last`` (N1 = 1)
    last: str
    every: list[str]

    def __init__(self, night: int, last: str, every: list[str]) -> None:
        self.night = night
        self.last = last
        self.every = every
