"""The engine's data: players, the game snapshot, submissions and outcomes.

Everything a phase needs travels in a :class:`GameState`; the engine keeps no
module-level game state. Names are the game's own words.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Any, Final

from roles.engine.messages import Message, msg
from roles.engine.statuses import CORRECTION_KINDS as CORRECTION_KINDS  # their old home
from roles.engine.statuses import Correction as Correction
from roles.engine.statuses import CorrectionKind, StatusKind
from roles.engine.statuses import PastTargets as PastTargets
from roles.engine.statuses import Status as Status

NIGHT: Final = "N"
DAY: Final = "D"


# A player's name is interned where it enters the engine (the deal, Ruleset.new_game; a
# submitted Action or Vote): the names in the submissions are then the very objects keying the
# state's by_name, and each lookup is an identity hit instead of a comparison of text.
_intern: Final = sys.intern

# The engine's values are plain dataclasses; an action and a vote write their __init__
# out only to intern the names they carry (the state's lookups are then identity hits).


@dataclass(slots=True, eq=False)  # a player is himself: compared by identity
class Player:
    name: str
    seat: int
    role: str  # the role card held now (cacciatore_di_taglie becomes rinnegato)
    dealt_role: str  # the card dealt at start
    faction: str  # current faction key, or "solitario"
    counts_as: str = ""  # what the win formulas count him as (the card's "conta")
    alive: bool = True  # in the game: False for the dead and for the departed
    departed: bool = False  # the bounty hunter who left (WWW-R82): not alive, not dead

    @property
    def dead(self) -> bool:
        return not self.alive and not self.departed


@dataclass(slots=True, init=False)
class Action:
    """One ability use as submitted: a target, a Law phase, a fake role, a vision flag."""

    actor: str
    target: str | None
    during: str | None
    fake_role: str | None
    vision: bool

    def __init__(
        self, actor: str, target: str | None = None, during: str | None = None,
        fake_role: str | None = None, vision: bool = False, *, interned: bool = False,
    ) -> None:  # fmt: skip
        # interned: the names are already the game's own (the simulator's, read off the
        # state), so the call to sys.intern is saved
        if interned:
            self.actor, self.target = actor, target
        else:
            self.actor = _intern(actor) if type(actor) is str else actor
            self.target = _intern(target) if type(target) is str else target
        self.during = during
        self.fake_role = fake_role
        self.vision = vision


@dataclass(slots=True, init=False)
class Vote:
    """A vote event: the voter points his vote at ``target`` (None withdraws it)."""

    voter: str
    target: str | None
    at: Any  # anything ordered: an index in a replay, a datetime on the site
    secret: bool
    abstain: bool  # a secret vote for nobody (INQ-D7a) rather than a withdrawal

    def __init__(
        self, voter: str, target: str | None, at: Any, secret: bool = False,
        abstain: bool = False, *, interned: bool = False,
    ) -> None:  # fmt: skip
        if interned:  # the names are already the game's own, as for Action
            self.voter, self.target = voter, target
        else:
            self.voter = _intern(voter) if type(voter) is str else voter
            self.target = _intern(target) if type(target) is str else target
        self.at = at
        self.secret = secret
        self.abstain = abstain


@dataclass(slots=True)
class Result:
    """One piece of private information given to a player."""

    to: str
    kind: str
    about: str | None
    value: Any

    def as_dict(self) -> dict[str, Any]:
        return {"to": self.to, "kind": self.kind, "about": self.about, "value": self.value}


@dataclass(slots=True)
class Death:
    player: str
    cause: str

    def as_dict(self) -> dict[str, str]:
        return {"player": self.player, "cause": self.cause}


@dataclass(slots=True)
class Execution:
    executed: str | None
    totals: dict[str, int]
    decisive_voter: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"executed": self.executed, "totals": dict(self.totals)}


@dataclass(slots=True)
class PhaseOutcome:
    phase: str
    deaths: list[Death] = field(default_factory=list)
    results: list[Result] = field(default_factory=list)
    execution: Execution | None = None
    trace: list[Message] = field(default_factory=list)  # why: str(line) is the English
    departed: list[str] = field(default_factory=list)
    public_votes: list[Vote] = field(default_factory=list)

    def tell(self, to: str, kind: str, about: str | None, value: Any) -> None:
        self.results.append(Result(to, kind, about, value))

    def why(self, line: Message) -> None:
        self.trace.append(line)


@dataclass(slots=True, init=False)
class GameState:
    """The snapshot of a game between phases."""

    setup: str
    seed: int
    options: dict[str, Any]
    players: list[Player]
    by_name: dict[str, Player]
    phase_index: int  # index of the last resolved phase (N0=0, D1=1, N1=2, ...)
    # What the rules remember from phase to phase, each fact typed.
    used: set[tuple[str, str]]  # (player, ability) once per game
    draws: dict[str, str]  # the deal's secret draws, by name
    # (ability key, user or group) -> whom he targeted: the bans on repeats read it
    targets: dict[tuple[str, str], PastTargets]
    statuses: dict[StatusKind, Status]  # by kind: one of each at a time
    wills: dict[str, str]  # author -> text (cut)
    wills_delivered: set[str]  # authors already delivered
    death_order: list[str]
    death_phase: dict[str, int]
    goal_met: set[str]  # loners who reached their objective
    winners: list[str] | None
    winning_factions: list[str] | None
    # The phase being resolved: the GM's corrections and the step now running.
    corrections: tuple[Correction, ...]
    step: str  # "" between steps
    marked: list[tuple[Player, str]]  # deaths due at step's end
    groups: dict[str, tuple[Player, ...]] = field(repr=False)

    def __init__(  # written out: one is made per game, and a dataclass's factories cost
        self,
        setup: str,
        seed: int,
        options: dict[str, Any],
        players: list[Player],
        by_name: dict[str, Player],
        phase_index: int = -1,
    ) -> None:
        self.setup = setup
        self.seed = seed
        self.options = options
        self.players = players
        self.by_name = by_name
        self.phase_index = phase_index
        self.used = set()
        self.draws = {}
        self.targets = {}
        self.statuses = {}
        self.wills = {}
        self.wills_delivered = set()
        self.death_order = []
        self.death_phase = {}
        self.goal_met = set()
        self.winners = None
        self.winning_factions = None
        self.corrections = ()
        self.step = ""
        self.marked = []
        groups: dict[str, tuple[Player, ...]] = {}  # dealt role -> its holders, in seat order
        for p in players:
            role = p.dealt_role
            held = groups.get(role)
            groups[role] = (p,) if held is None else held + (p,)  # noqa: RUF005 - no list
        self.groups = groups

    def dealt(self, role: str) -> tuple[Player, ...]:
        """The players dealt ``role``, in seat order (the deal never changes)."""
        return self.groups.get(role, ())

    def holder(self, role: str) -> Player | None:
        """The player dealt ``role`` (single roles only)."""
        held = self.groups.get(role)
        return held[0] if held else None

    def set_status(self, status: Status) -> None:
        self.statuses[status.kind] = status

    def status(self, kind: StatusKind, phase: int | None = None) -> Status | None:
        """The status ``kind`` if it acts in ``phase`` (or stands, when it has no phase)."""
        status = self.statuses.get(kind)
        if status is None or (status.phase is not None and status.phase != phase):
            return None
        return status

    def expire(self) -> None:
        """Drop the statuses whose phase has passed (called as a phase opens)."""
        index = self.phase_index
        gone: list[StatusKind] | None = None  # a status is filed under its kind (set_status)
        for status in self.statuses.values():
            phase = status.phase
            if phase is not None and phase < index:
                if gone is None:
                    gone = [status.kind]
                else:
                    gone.append(status.kind)
        if gone is not None:
            for kind in gone:
                del self.statuses[kind]

    def spares(self, outcome: PhaseOutcome, player: Player) -> bool:
        """Whether a GM correction prevents ``player``'s death at the step now running."""
        for c in self.corrections:
            if (
                c.kind == CorrectionKind.SPARE
                and c.player == player.name
                and c.step in (None, self.step)
            ):
                outcome.why(msg("trace.gm_spare", player=player.name, reason=c.reason))
                return True
        return False

    def kill(self, outcome: PhaseOutcome, player: Player, cause: str) -> bool:
        """Apply a death; False when there is none (already out, or spared by the GM)."""
        if not player.alive or (self.corrections and self.spares(outcome, player)):
            return False
        player.alive = False
        self.death_order.append(player.name)
        self.death_phase[player.name] = self.phase_index
        outcome.deaths.append(Death(player.name, cause))
        return True

    @property
    def over(self) -> bool:
        return self.winning_factions is not None


def phase_label(index: int) -> str:
    """0 -> N0, 1 -> D1, 2 -> N1, 3 -> D2, ..."""
    if 0 <= index < len(PHASE_LABELS):
        return PHASE_LABELS[index]
    return f"N{index // 2}" if index % 2 == 0 else f"D{index // 2 + 1}"


# Interned: the engine goes on with the table's own string once a label is checked
# (Ruleset.play), so its comparisons with literals ("N0") and its lookups by label
# (abilities.NIGHT_NUMBERS) find the very same object.
PHASE_LABELS: Final = tuple(
    sys.intern(f"N{i // 2}" if i % 2 == 0 else f"D{i // 2 + 1}") for i in range(400)
)


def phase_index(label: str) -> int:
    """Inverse of :func:`phase_label`; raises ValueError for a malformed label."""
    kind, number = label[:1], label[1:]
    if kind not in (NIGHT, DAY) or not number.isdigit():
        raise ValueError(f"malformed phase {label!r} (expected N0, D1, N1, D2, ...)")
    n = int(number)
    if kind == NIGHT:
        return 2 * n
    if n < 1:
        raise ValueError("days start at D1")
    return 2 * n - 1
