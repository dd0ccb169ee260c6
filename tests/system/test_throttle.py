"""games/views/throttle.py: a fixed-window count per key in Django's cache, failing open (logged)
when the cache cannot be reached (issue 9, #8)."""

from __future__ import annotations

import logging
import socket
import uuid

import pytest
from django.core.cache import caches

from games.views import throttle


@pytest.fixture
def dead_cache(settings):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens there once closed
    settings.CACHES = {
        "default": {**settings.CACHES["default"], "LOCATION": f"redis://127.0.0.1:{port}/0"}
    }
    caches["default"].close()
    yield
    caches["default"].close()


def test_the_flood_limit_fails_open_logged(dead_cache, caplog, rf):
    caplog.set_level(logging.WARNING)
    request = rf.post("/io/voto/")
    limited = throttle.over_limit(request, group="g", key=lambda g, r: "k", rate="1/m",
                                  increment=True)  # fmt: skip
    assert limited is False
    assert any("rate limit g skipped" in r.getMessage() for r in caplog.records)


def test_the_flood_limit_counts_every_call(rf):
    key = uuid.uuid4().hex
    request = rf.post("/io/voto/")
    results = [throttle.over_limit(request, group="t", key=lambda g, r: key, rate="2/m",
                                   increment=True) for _ in range(3)]  # fmt: skip
    assert results == [False, False, True]
    assert throttle.over_limit(request, group="t", key=lambda g, r: key, rate="2/m",
                               increment=False)  # fmt: skip
