"""gm/redis_link.py: the vote's Redis commands in one round trip, replies in order, a
clean connection after an error, and the callers failing open (logged) when Redis is down."""

from __future__ import annotations

import logging
import socket
import uuid

import pytest
import redis
from django.conf import settings

from gm import throttle
from gm.redis_link import Link


@pytest.fixture
def link() -> Link:
    return Link(redis.Redis.from_url(settings.REDIS_URL, socket_timeout=0.5))


def _dead_link() -> Link:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens there once closed
    return Link(redis.Redis(port=port, socket_timeout=0.2, socket_connect_timeout=0.2))


def test_replies_come_in_order_in_one_round_trip(link):
    key = f"test:link:{uuid.uuid4().hex}"
    assert link.call(("INCR", key), ("EXPIRE", key, 10)) == [1, 1]
    assert link.call(("INCR", key), ("TTL", key)) == [2, 10]
    link.client.delete(key)


def test_an_error_reply_leaves_no_reply_behind(link):
    key = f"test:link:{uuid.uuid4().hex}"
    link.client.set(key, "not a number")
    with pytest.raises(redis.ResponseError):
        link.call(("INCR", key), ("GET", key))
    assert link.call(("GET", key)) == [b"not a number"]  # not the reply left unread
    link.client.delete(key)


def test_redis_down_raises():
    with pytest.raises((redis.RedisError, OSError)):
        _dead_link().call(("PING",))


def test_the_flood_limit_fails_open_logged(monkeypatch, caplog, rf):
    monkeypatch.setattr(throttle, "_link", lambda _location: _dead_link())
    caplog.set_level(logging.WARNING)
    request = rf.post("/io/voto/")
    limited = throttle.over_limit(request, group="g", key=lambda g, r: "k", rate="1/m",
                                  increment=True)  # fmt: skip
    assert limited is False
    assert any("rate limit g skipped" in r.getMessage() for r in caplog.records)


def test_the_flood_limit_counts_every_call(link, monkeypatch, rf):
    monkeypatch.setattr(throttle, "_link", lambda _location: link)
    key = uuid.uuid4().hex
    request = rf.post("/io/voto/")
    results = [throttle.over_limit(request, group="t", key=lambda g, r: key, rate="2/m",
                                   increment=True) for _ in range(3)]  # fmt: skip
    assert results == [False, False, True]
