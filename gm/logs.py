"""No player's link in a log (issue 9, #4): the token in ``/p/<token>/`` is a password.

Django's request logging ("Not Found: /p/…/"), runserver's request lines and gunicorn's
access log all print paths; each goes through ``redact`` first. A path is matched as the
site routes it, percent-escapes decoded (``/%70/<token>/`` opens the link too, issue 27).
"""

from __future__ import annotations

import logging
import re
from typing import Any
from urllib.parse import unquote

from gunicorn.glogging import Logger as GunicornLogger

PLAYER_LINK = re.compile(r"/p/[^/\s?#\"']+")
REDACTED = "/p/…"


def _decoded(text: str) -> str:
    """``text`` with its percent-escapes decoded until none is left (a doubly escaped path)."""
    while True:
        decoded = unquote(text)
        if decoded == text:
            return text
        text = decoded


def redact(text: str) -> str:
    """``text`` with every player link's token replaced; a text that writes a link with
    percent-escapes is written decoded, with the token replaced."""
    if "%" in text:
        decoded = _decoded(text)
        if PLAYER_LINK.search(decoded):
            text = decoded
    return PLAYER_LINK.sub(REDACTED, text)


def _may_link(text: str) -> bool:
    return "/p/" in text or "%" in text


class RedactPlayerLinks(logging.Filter):
    """A logging filter: the record's message, formatted, with the tokens redacted."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if _may_link(message):
            record.msg, record.args = redact(message), ()
        return True


class RedactingGunicornLogger(GunicornLogger):
    """gunicorn's logger, with every field of an access log entry redacted (request
    line, path, referrer, headers); gm/gunicorn_conf.py selects it."""

    def atoms(self, resp: Any, req: Any, environ: dict, request_time: Any) -> dict:
        atoms = super().atoms(resp, req, environ, request_time)
        return {k: redact(v) if isinstance(v, str) and _may_link(v) else v
                for k, v in atoms.items()}  # fmt: skip
