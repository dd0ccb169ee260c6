"""The one error the engine raises for a submission the rules forbid."""

from __future__ import annotations

from typing import Any

from roles.engine.messages import Message


class RuleViolation(Exception):
    """An action, vote or scenario the rules forbid, with the rule that forbids it.

    ``message`` is a :class:`Message` (``code`` and ``params`` say it to the site, which
    translates it) or, for a setup's own configuration error, plain English text.
    ``.message`` is always the English rendering (the replay's one line on stderr)."""

    def __init__(
        self,
        message: str | Message,
        rule: str,
        *,
        phase: str = "",
        player: str = "",
        role: str = "",
    ) -> None:
        self.said = message if isinstance(message, Message) else None
        self.code: str = self.said.id if self.said else ""
        self.params: dict[str, Any] = dict(self.said.params) if self.said else {}
        self.message = str(message)
        super().__init__(self.message)
        self.rule = rule
        self.phase = phase
        self.player = player
        self.role = role

    def __str__(self) -> str:
        who = f"{self.player} ({self.role}) " if self.player and self.role else ""
        who = who or (f"{self.player} " if self.player else "")
        where = f"{self.phase}: " if self.phase else ""
        return f"{where}{who}{self.message} [{self.rule}]"
