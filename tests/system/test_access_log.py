"""gm/logs.py: gunicorn's access line never shows a player's link, however the path
writes it (issue 9, #4; issue 27: ``/%70/<token>/`` opens the link too)."""

from __future__ import annotations

import io
import logging
from types import SimpleNamespace

import pytest
from gunicorn.config import Config

from gm.logs import RedactingGunicornLogger, redact

TOKEN = "s3cr3t-token-that-must-not-leak-0123456789abcdef"
ENVIRON = {
    "REQUEST_METHOD": "GET", "RAW_URI": f"/p/{TOKEN}/", "PATH_INFO": f"/p/{TOKEN}/",
    "QUERY_STRING": "", "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "10.0.0.1",
    "HTTP_REFERER": f'https://tabula.example/p/{TOKEN}/"quoted"', "HTTP_USER_AGENT": "UA/1",
}  # fmt: skip


@pytest.fixture(autouse=True)
def _restored_handlers():
    log = logging.getLogger("gunicorn.access")
    saved = log.handlers[:]
    yield
    log.handlers[:] = saved


def _logger() -> tuple[RedactingGunicornLogger, io.StringIO]:
    config = Config()
    config.set("accesslog", "-")
    logger = RedactingGunicornLogger(config)
    log = logger.access_log  # as gunicorn leaves it (pytest's log capture may be on it too)
    log.handlers[:] = [h for h in log.handlers if getattr(h, "_gunicorn", False)]
    stream = io.StringIO()
    logger.access_log.handlers[0].setStream(stream)
    logger.now = lambda: "[03/Dec/2026:08:00:00 +0000]"  # the clock, fixed
    return logger, stream


def _log(logger: RedactingGunicornLogger, environ: dict = ENVIRON) -> None:
    resp = SimpleNamespace(status="302 Found", sent=0, headers=[])
    request = SimpleNamespace(headers=[])
    logger.access(resp, request, environ, SimpleNamespace(seconds=0, microseconds=1500))


def test_the_access_line_redacts_the_link():
    logger, stream = _logger()
    _log(logger)
    assert stream.getvalue().count("\n") == 1
    assert TOKEN not in stream.getvalue()
    assert '/p/…/\\"quoted\\"' in stream.getvalue()


@pytest.mark.parametrize(
    "path", [f"/%70/{TOKEN}/", f"/p%2F{TOKEN}/", f"/%2570/{TOKEN}/", f"/p/%73{TOKEN[1:]}/"]
)
def test_a_link_written_with_escapes_is_redacted_too(path):
    logger, stream = _logger()
    _log(logger, {**ENVIRON, "RAW_URI": path, "PATH_INFO": path, "HTTP_REFERER": "-"})
    assert TOKEN not in stream.getvalue()
    assert TOKEN[4:20] not in stream.getvalue()
    assert "/p/…" in stream.getvalue()


def test_redact_leaves_other_text_alone():
    assert redact("GET /io/voto/?q=%20x HTTP/1.1") == "GET /io/voto/?q=%20x HTTP/1.1"
    assert redact(f"Not Found: /p/{TOKEN}/") == "Not Found: /p/…/"
