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
        said = message if isinstance(message, Message) else None
        self.said = said
        self.code: str = said.id if said else ""
        self.params: dict[str, Any] = dict(said.params) if said else {}
        # a message is rendered only when read
        self._text: str | None = message if isinstance(message, str) else None
        super().__init__(message)
        self.rule = rule
        self.phase = phase
        self.player = player
        self.role = role

    @property
    def message(self) -> str:
        """The English rendering (the replay's one line on stderr)."""
        if self._text is None:
            self._text = str(self.said)
        return self._text

    def __str__(self) -> str:
        who = f"{self.player} ({self.role}) " if self.player and self.role else ""
        who = who or (f"{self.player} " if self.player else "")
        where = f"{self.phase}: " if self.phase else ""
        return f"{where}{who}{self.message} [{self.rule}]"
