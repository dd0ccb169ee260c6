"""/healthz reports database and broker reachability and the clock's heartbeat (200 or 503),
within a second whatever Redis does."""

from __future__ import annotations

import socket
import threading
import time

import pytest
import redis
from django.conf import settings

from games.services import clock as closing
from games.tasks import deadlines_tick
from tests.factories import wait_for


@pytest.fixture
def heartbeat():
    """The heartbeat key, put back as it was after the test."""
    client = redis.Redis.from_url(settings.REDIS_URL)
    saved = client.get(closing.HEARTBEAT_KEY)
    yield client
    if saved is None:
        client.delete(closing.HEARTBEAT_KEY)
    else:
        client.set(closing.HEARTBEAT_KEY, saved)


@pytest.mark.django_db
def test_healthz_ok_when_database_broker_and_clock_answer(client, heartbeat):
    deadlines_tick()  # a tick ran just now
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "broker": "ok", "clock": "ok"}


@pytest.mark.django_db
def test_a_tick_on_the_real_worker_is_the_heartbeat(client, heartbeat, celery_worker_process):
    heartbeat.delete(closing.HEARTBEAT_KEY)
    assert client.get("/healthz").json()["clock"] == "stale: no deadline tick has run yet"
    deadlines_tick.delay()
    assert wait_for(lambda: heartbeat.get(closing.HEARTBEAT_KEY) is not None)
    response = client.get("/healthz")
    assert response.json()["clock"] == "ok"
    assert response.status_code == 200


@pytest.mark.django_db
def test_a_dead_beat_or_a_stuck_worker_shows_in_healthz(client, heartbeat):
    """No tick for longer than TABULA_CLOCK_STALE_SECONDS: 503, saying how long."""
    stale = settings.TABULA_CLOCK_STALE_SECONDS
    heartbeat.set(closing.HEARTBEAT_KEY, repr(time.time() - stale - 30))
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert (body["status"], body["database"], body["broker"]) == ("unavailable", "ok", "ok")
    assert body["clock"].startswith(f"stale: last deadline tick {stale + 30:.0f} s ago")


@pytest.mark.django_db
def test_healthz_503_when_broker_unreachable(client, settings, heartbeat):
    deadlines_tick()
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["database"] == "ok"
    assert body["broker"].startswith("error: ")


@pytest.mark.django_db
def test_healthz_answers_within_a_second_when_redis_hangs(client, settings):
    """A Redis that accepts connections and never answers: broker and clock are errors,
    and the answer comes within a second."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(16)
        held: list[socket.socket] = []
        accepting = threading.Thread(
            target=lambda: [held.append(server.accept()[0]) for _ in range(4)], daemon=True
        )
        accepting.start()
        url = f"redis://127.0.0.1:{server.getsockname()[1]}/0"
        settings.CELERY_BROKER_URL = settings.REDIS_URL = url
        started = time.monotonic()
        response = client.get("/healthz")
        took = time.monotonic() - started
        for connection in held:
            connection.close()
    assert took < 1.0
    assert response.status_code == 503
    body = response.json()
    assert body["broker"].startswith("error: ")
    assert body["clock"].startswith("error: ")


def test_healthz_503_when_database_unreachable(client, monkeypatch):
    from django.db import connection

    def refuse(*args, **kwargs):
        raise connection.Database.OperationalError("connection refused")

    monkeypatch.setattr(connection, "cursor", refuse)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] == "error: OperationalError"
