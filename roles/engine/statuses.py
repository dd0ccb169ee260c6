"""The values a game state carries from step to step and phase to phase: the GM's
corrections (inputs of the resolution), the typed delayed or standing effects, and each
ability user's past targets (roles/engine/model.py's GameState holds them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final


class Correction:
    """A GM's correction: an input to the resolution, not a patch on its outcome, so every
    consequence of a death follows from the corrected facts.

    ``spare``: the player does not die in this phase (only at ``step``, when named): the
    death is prevented where the rules would mark it, and what that death would cause
    (a block, a goal, a turn, a departure) does not happen. ``kill``: the player dies at
    the end of ``step`` (the end of the phase when None), with every consequence.

    A value: treat it as immutable (it compares and hashes by its fields). Written out
    rather than a frozen dataclass, as :class:`Status` is."""

    __slots__ = ("kind", "player", "reason", "step")

    def __init__(self, kind: str, player: str, step: str | None = None, reason: str = "") -> None:
        self.kind = kind
        self.player = player
        self.step = step
        self.reason = reason

    def _fields(self) -> tuple[str, str, str | None, str]:
        return (self.kind, self.player, self.step, self.reason)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Correction:
            return NotImplemented
        assert isinstance(other, Correction)
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (f"Correction(kind={self.kind!r}, player={self.player!r}, step={self.step!r}, "
                f"reason={self.reason!r})")  # fmt: skip


CORRECTION_KINDS: Final = ("spare", "kill")


class Status:
    """A delayed or standing effect, typed: what it is, on whom, and the phase it acts in,
    after which it expires ("the pack cannot kill on night k", "X dies of guilt on night
    k"); ``phase`` None: it stands until replaced.

    A value: treat it as immutable (it compares and hashes by its fields; a new status
    replaces an old one). Written out rather than a frozen dataclass: compiled, a frozen
    dataclass's init is interpreted and sets each field through ``object.__setattr__``."""

    __slots__ = ("kind", "phase", "player", "value")

    def __init__(
        self, kind: str, phase: int | None = None, player: str | None = None, value: Any = None
    ) -> None:
        self.kind = kind
        self.phase = phase  # the phase index it acts in (N1 = 2, D2 = 3, N2 = 4, ...)
        self.player = player
        self.value = value

    def _fields(self) -> tuple[str, int | None, str | None, Any]:
        return (self.kind, self.phase, self.player, self.value)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Status:
            return NotImplemented
        assert isinstance(other, Status)
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (f"Status(kind={self.kind!r}, phase={self.phase!r}, player={self.player!r}, "
                f"value={self.value!r})")  # fmt: skip


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
