"""No player's link in a log (issue 9, #4): the token in ``/p/<token>/`` is a password.

Django's request logging ("Not Found: /p/…/"), runserver's request lines and gunicorn's
access log all print paths; each goes through ``redact`` first.
"""

from __future__ import annotations

import logging
import re
import traceback
from typing import Any

from gunicorn.config import AccessLogFormat
from gunicorn.glogging import Logger as GunicornLogger

PLAYER_LINK = re.compile(r"/p/[^/\s?#\"']+")
REDACTED = "/p/…"
DEFAULT_FORMAT = AccessLogFormat.default  # gunicorn's, the one the site runs with


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
    line, path, referrer, headers); gm/gunicorn_conf.py selects it.

    With gunicorn's default format (the one the site runs with), only the atoms that format
    prints are made: gunicorn's own ``atoms`` makes one for every request and response
    header and every environ variable, which cost each request more than the rest of its
    log line (a vote: ~0.2 ms of its ~5 ms). And while the access log is gunicorn's own
    plain stream handler (``--access-logfile``, no logging configuration of the site's),
    the line is written to that handler's stream under its lock: the same text, without
    a log record (the caller's frame, the process and thread names) and the logging
    machinery around it, which cost a vote more than the line itself."""

    def access(self, resp: Any, req: Any, environ: dict, request_time: Any) -> None:
        handler = self._plain_access_handler()
        if handler is None:
            super().access(resp, req, environ, request_time)
            return
        atoms = self.atoms_wrapper_class(self.atoms(resp, req, environ, request_time))
        try:
            line = self.cfg.access_log_format % atoms
            handler.acquire()
            try:
                handler.stream.write(line + handler.terminator)
                handler.flush()
            finally:
                handler.release()
        except Exception:
            self.error(traceback.format_exc())

    def _plain_access_handler(self) -> logging.StreamHandler | None:
        """gunicorn's own stream handler, when the access log is only that (and enabled)
        with the default format and nothing that would filter or reformat a line."""
        log = self.access_log
        if (
            not self.access_log_enabled
            or self.cfg.access_log_format != DEFAULT_FORMAT
            or len(log.handlers) != 1
            or log.filters
            or not log.isEnabledFor(logging.INFO)
        ):
            return None
        handler = log.handlers[0]
        if (
            type(handler) is not logging.StreamHandler
            or not getattr(handler, "_gunicorn", False)
            or handler.filters
            or handler.level > logging.INFO
            or getattr(handler.formatter, "_fmt", None) != "%(message)s"
            or type(handler.formatter) is not logging.Formatter
        ):
            return None
        return handler

    def atoms(self, resp: Any, req: Any, environ: dict, request_time: Any) -> dict:
        if self.cfg.access_log_format == DEFAULT_FORMAT:
            atoms = self._default_atoms(resp, environ)
        else:
            atoms = super().atoms(resp, req, environ, request_time)
        return {k: redact(v) if isinstance(v, str) and "/p/" in v else v
                for k, v in atoms.items()}  # fmt: skip

    def _default_atoms(self, resp: Any, environ: dict) -> dict:
        """What gunicorn's ``atoms`` gives for the default format's fields, alone."""
        status = resp.status
        if isinstance(status, str):
            status = status.split(None, 1)[0]
        sent = getattr(resp, "sent", None)
        return {
            "h": environ.get("REMOTE_ADDR", "-"),
            "l": "-",
            "u": self._get_user(environ) or "-",
            "t": self.now(),
            "r": f"{environ['REQUEST_METHOD']} {environ['RAW_URI']} {environ['SERVER_PROTOCOL']}",
            "s": status,
            "b": "-" if sent is None else str(sent),
            "f": environ.get("HTTP_REFERER", "-"),
            "a": environ.get("HTTP_USER_AGENT", "-"),
        }
