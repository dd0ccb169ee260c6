"""What the referee answers: a message id with its parameters and the rule behind it, and
the figures the answer moves. The site renders the id in the reader's language
(``messages.TEXT``); a refusal raised while applying is a :class:`TimeCarViolation`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from roles.automobile_del_tempo.messages import render
from roles.engine.errors import RuleViolation


@dataclass(frozen=True, slots=True)
class Moved:
    figure: str  # a Bandit's name, or "Marshal"
    origin: str | None  # a place; None for a hidden Bandit being revealed
    to: str | None  # a place; None for a Bandit who hides (ADT-D5)
    rule: str | None  # None: the base game's own effect (Django's push along the train)

    def as_dict(self) -> dict[str, Any]:
        return {"figure": self.figure, "from": self.origin, "to": self.to, "rule": self.rule}


@dataclass(frozen=True, slots=True)
class Answer:
    allowed: bool
    message: str
    params: dict[str, Any] = field(default_factory=dict)
    rule: str | None = None  # None only for a base-game action the Time Car does not touch
    moved: tuple[Moved, ...] = ()

    def text(self, lang: str = "it") -> str:
        return render(self.message, self.params, lang)

    def as_dict(self) -> dict[str, Any]:
        return {
            "allowed": self.allowed, "message": self.message, "params": self.params,
            "rule": self.rule, "moved": [m.as_dict() for m in self.moved],
        }  # fmt: skip


def yes(message: str, rule: str | None, moved: tuple[Moved, ...] = (), **params: Any) -> Answer:
    return Answer(True, message, params, rule, moved)


def no(message: str, rule: str, **params: Any) -> Answer:
    return Answer(False, message, params, rule)


class TimeCarViolation(RuleViolation):
    """An action, a hiding or a setup the Time Car's rules forbid; ``answer`` is the refusal
    (its text in English is the replay's error line, as for the Werewolf replay)."""

    def __init__(
        self, answer: Answer, *, label: str = "", figure: str = "", role: str = ""
    ) -> None:
        super().__init__(
            answer.text("en"), answer.rule or "", phase=label, player=figure, role=role
        )
        self.answer = answer
