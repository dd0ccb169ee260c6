"""No player's link in a log (issue 9, #4): the token in ``/p/<token>/`` is a password.

Django's request logging ("Not Found: /p/…/"), runserver's request lines and gunicorn's
access log all print paths; each goes through ``redact`` first.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from gunicorn.glogging import Logger as GunicornLogger

PLAYER_LINK = re.compile(r"/p/[^/\s?#\"']+")
REDACTED = "/p/…"


def redact(text: str) -> str:
    """``text`` with every player link's token replaced."""
    return PLAYER_LINK.sub(REDACTED, text)


class RedactPlayerLinks(logging.Filter):
    """A logging filter: the record's message, formatted, with the tokens redacted."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if "/p/" in message:
            record.msg, record.args = redact(message), ()
        return True


class RedactingGunicornLogger(GunicornLogger):
    """gunicorn's logger, with every field of an access log entry redacted (request
    line, path, referrer, headers); gm/gunicorn_conf.py selects it."""

    def atoms(self, resp: Any, req: Any, environ: dict, request_time: Any) -> dict:
        atoms = super().atoms(resp, req, environ, request_time)
        return {k: redact(v) if isinstance(v, str) and "/p/" in v else v
                for k, v in atoms.items()}  # fmt: skip
