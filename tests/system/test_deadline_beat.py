"""The one clock: beat's schedule queues the tick, a real worker runs it, a due phase
closes once, and every tick that ran is the heartbeat /healthz reports."""

from __future__ import annotations

import datetime as dt
import os

import pytest
import redis
from django.conf import settings
from django.utils import timezone

from games.models import AuditEvent, Phase
from games.services import clock as closing
from gm.celery import app
from tests.conftest import database_url_for_subprocess
from tests.factories import day_one, set_deadline, wait_for
from tests.processes import celery_beat

pytestmark = pytest.mark.django_db(transaction=True)


def _beats(client: redis.Redis) -> float:
    value = client.get(closing.HEARTBEAT_KEY)
    return 0.0 if value is None else float(value)


def test_beat_queues_the_tick_and_the_worker_closes_a_due_day_once(
    client, gm_user, celery_worker_process
):
    game, day = day_one(gm_user)
    _late, late_day = day_one(gm_user, name="later")
    set_deadline(day, timezone.now() - dt.timedelta(seconds=1))
    set_deadline(late_day, timezone.now() + dt.timedelta(seconds=2))  # falls due meanwhile
    heartbeat = redis.Redis.from_url(settings.REDIS_URL)
    heartbeat.delete(closing.HEARTBEAT_KEY)
    env = {
        **os.environ,
        "DATABASE_URL": database_url_for_subprocess(),
        "TABULA_QUEUE": app.conf.task_default_queue,  # the test worker's queue
        "TABULA_TICK_SECONDS": "0.5",
    }
    with celery_beat(env):
        assert wait_for(lambda: Phase.objects.filter(
            pk__in=[day.pk, late_day.pk], status=Phase.Status.COMMITTED).count() == 2,
            60)  # fmt: skip
        first = _beats(heartbeat)
        assert wait_for(lambda: _beats(heartbeat) > first + 1.0)  # more ticks ran since
        assert client.get("/healthz").json()["clock"] == "ok"
    for phase in (day, late_day):
        events = AuditEvent.objects.filter(game=phase.game, detail__phase="D1")
        assert events.filter(kind="deadline").count() == 1
        assert events.filter(kind="commit").count() == 1
    assert game.phases.get(label="N1").status == Phase.Status.OPEN  # left for its deadline
