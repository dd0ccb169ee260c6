"""The referee's picture of a BANG! table with Il Ribelle!: who holds which role now, who is
in play, whose role is face-up, whose turn and phase it is, and how the game ended."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from roles.ribelle.table import DEPUTY, OUTLAW, REBEL, RENEGADE, SHERIFF


@dataclass(frozen=True, slots=True)
class Ruling:
    """One line of the referee: a message id, its parameters, the rule it applies."""

    msg: str
    rule: str
    params: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"msg": self.msg, "params": self.params, "rule": self.rule}


@dataclass(slots=True)
class Seat:
    name: str
    dealt: str  # the role card dealt at the start
    role: str  # the role he plays now (a Revolution swaps sceriffo and ribelle, RIB-R12, R19)
    in_play: bool = True
    face_up: bool = False  # his role card is public (the Sheriff's always is)
    ghost: bool = False  # back for his turn through Ghost Town only (RIB-R22, RIB-D15)
    sheriff_by_revolution: bool = False  # became Sheriff through a Revolution (RIB-R12)
    out_at_revolution: bool = False  # a Deputy out of play when a Revolution happened (RIB-R21)
    dethroned: bool = False  # removed by a Revolution: back, he is the Rebel! (RIB-R19)


@dataclass(slots=True)
class TableState:
    seats: list[Seat]
    options: dict[str, Any]
    turn: str | None = None
    phase: int = 0
    revolutions: int = 0
    over: bool = False
    side: str | None = None  # legge, fuorilegge, rinnegato
    winners: list[str] | None = None
    end_rule: str | None = None
    first_eliminated: str | None = None  # the one Dead Man brings back (BANG-B8, RIB-D16)
    by_name: dict[str, Seat] = field(init=False)

    def __post_init__(self) -> None:
        self.by_name = {seat.name: seat for seat in self.seats}

    @classmethod
    def new(cls, roles: dict[str, str], options: dict[str, Any]) -> TableState:
        seats = [Seat(name, role, role, face_up=role == SHERIFF) for name, role in roles.items()]
        return cls(seats, options)

    def holder(self, role: str) -> Seat | None:
        """The one player who plays the Sheriff (or the Rebel!) now, in play or not."""
        return next((s for s in self.seats if s.role == role), None)

    @property
    def sheriff(self) -> Seat | None:
        return self.holder(SHERIFF)

    @property
    def rebel(self) -> Seat | None:
        return self.holder(REBEL)

    def living(self) -> list[Seat]:
        """Players in play who count for the end of the game (a ghost is an eliminated
        player back for one turn, not a living one)."""
        return [s for s in self.seats if s.in_play and not s.ghost]

    def outlaws_and_renegades_left(self) -> list[Seat]:
        return [s for s in self.living() if s.role in (OUTLAW, RENEGADE)]

    def rebel_face_up_in_play(self) -> bool:
        """RIB-R10 / RIB-D5: a Rebel! in play (a ghost too) with his role card face-up."""
        rebel = self.rebel
        return rebel is not None and rebel.in_play and rebel.face_up

    def law_winners(self) -> list[str]:
        """RIB-R4..R7, R21, D7, D8: whoever is Sheriff now and every Deputy who was not out
        of play at a Revolution (or came back after it); the Rebel! never."""
        return [
            s.name
            for s in self.seats
            if s.role == SHERIFF or (s.role == DEPUTY and not s.out_at_revolution)
        ]

    def snapshot(self) -> dict[str, Any]:
        sheriff = self.sheriff
        return {
            "turn": {"player": self.turn, "phase": self.phase} if self.turn else None,
            "sheriff": sheriff.name if sheriff else None,
            "in_play": [s.name for s in self.seats if s.in_play],
            "face_up": [s.name for s in self.seats if s.in_play and s.face_up],
            "ghosts": [s.name for s in self.seats if s.in_play and s.ghost],
            "over": self.over,
        }

    def players_report(self) -> list[dict[str, Any]]:
        winners = set(self.winners or ())
        return [
            {
                "name": s.name,
                "role": s.dealt,
                "plays_as": s.role,
                "in_play": s.in_play,
                "won": (s.name in winners) if self.over else None,
            }
            for s in self.seats
        ]
