"""The one error the engine raises for a submission the rules forbid."""

from __future__ import annotations


class RuleViolation(Exception):
    """An action, vote or scenario the rules forbid, with the rule that forbids it."""

    def __init__(
        self, message: str, rule: str, *, phase: str = "", player: str = "", role: str = ""
    ) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.phase = phase
        self.player = player
        self.role = role

    def __str__(self) -> str:
        who = f"{self.player} ({self.role}) " if self.player and self.role else ""
        who = who or (f"{self.player} " if self.player else "")
        where = f"{self.phase}: " if self.phase else ""
        return f"{where}{who}{self.message} [{self.rule}]"
