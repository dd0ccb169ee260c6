"""What the GM logs (Event) and what the referee answers (Outcome)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from roles.ribelle.state import Ruling


@dataclass(frozen=True, slots=True)
class Event:
    """One line of the GM's log. ``players`` is one name, or every player one card
    eliminated, in the order they fell (RIB-R17)."""

    kind: str  # turn, reveal, eliminated, returns
    players: tuple[str, ...]
    phase: int = 1
    by: str | None = None
    during: str | None = None
    card: str = "altro"
    via: str | None = None

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "players": list(self.players)}
        if self.kind == "turn":
            data["phase"] = self.phase
        if self.kind == "eliminated":
            data |= {"by": self.by, "during": self.during, "card": self.card}
        if self.kind == "returns":
            data["via"] = self.via
        return data


@dataclass(slots=True)
class Outcome:
    rulings: list[Ruling] = field(default_factory=list)
    revolution: dict[str, Any] | None = None
    penalty: dict[str, Any] | None = None
    during: str | None = None  # an elimination: whose turn it happened in (RIB-D2)

    def rule(self, msg: str, rule: str, **params: Any) -> None:
        self.rulings.append(Ruling(msg, rule, params))
