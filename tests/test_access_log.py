"""gm/logs.py: the access line written straight to gunicorn's own stream handler is the
line its logging path writes (redacted), and any other logging setup takes that path."""

from __future__ import annotations

import io
import logging
from types import SimpleNamespace

import pytest
from gunicorn.config import Config

from gm.logs import RedactingGunicornLogger

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


def _log(logger: RedactingGunicornLogger) -> None:
    resp = SimpleNamespace(status="302 Found", sent=0, headers=[])
    request = SimpleNamespace(headers=[])
    logger.access(resp, request, ENVIRON, SimpleNamespace(seconds=0, microseconds=1500))


def test_the_direct_line_is_the_logging_paths_line(monkeypatch):
    fast, fast_out = _logger()
    assert fast._plain_access_handler() is not None
    _log(fast)
    slow, slow_out = _logger()
    monkeypatch.setattr(slow, "_plain_access_handler", lambda: None)  # logging's own path
    _log(slow)
    assert fast_out.getvalue() == slow_out.getvalue()
    assert fast_out.getvalue().count("\n") == 1
    assert TOKEN not in fast_out.getvalue()
    assert '/p/…/\\"quoted\\"' in fast_out.getvalue()


def test_a_filter_or_another_handler_takes_the_logging_path():
    logger, stream = _logger()
    dropped = logging.Filter("nothing-matches")
    logger.access_log.handlers[0].addFilter(dropped)
    try:
        assert logger._plain_access_handler() is None
        _log(logger)
        assert stream.getvalue() == ""  # the filter was applied
    finally:
        logger.access_log.handlers[0].removeFilter(dropped)
    extra = logging.StreamHandler(io.StringIO())
    logger.access_log.addHandler(extra)
    try:
        assert logger._plain_access_handler() is None
        _log(logger)
        assert TOKEN not in extra.stream.getvalue()
        assert "/p/…" in extra.stream.getvalue()
    finally:
        logger.access_log.removeHandler(extra)


def test_no_access_log_writes_nothing():
    config = Config()
    logger = RedactingGunicornLogger(config)
    assert logger._plain_access_handler() is None
