"""Issue 10, speed under fault: the beat closes due phases itself, with no worker running
and no task going through the broker (a killed worker or a Redis restart delays nothing)."""

from __future__ import annotations

import datetime as dt
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid

import pytest
from django.utils import timezone

from games.models import AuditEvent, Phase
from games.phases import current_phase, phase_commit
from tests.conftest import ROOT, database_url_for_subprocess
from tests.factories import make_game

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_beat_closes_a_due_day_without_any_worker(gm_user):
    game = make_game(gm_user)
    phase_commit(phase=current_phase(game), user=gm_user)
    day = current_phase(game)
    Phase.objects.filter(pk=day.pk).update(closes_at=timezone.now() - dt.timedelta(seconds=1))
    env = {
        **os.environ,
        "DATABASE_URL": database_url_for_subprocess(),
        "TABULA_QUEUE": f"nobody-{uuid.uuid4().hex[:8]}",
    }  # no worker reads this queue
    with tempfile.TemporaryDirectory() as var:
        beat = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "gm", "beat", "--loglevel", "warning",
             "--schedule", f"{var}/beat"],
            cwd=ROOT, env=env, start_new_session=True,
        )  # fmt: skip
        try:
            limit = time.monotonic() + 60
            while time.monotonic() < limit:
                day.refresh_from_db()
                if day.status == Phase.Status.COMMITTED:
                    break
                time.sleep(0.2)
        finally:
            os.killpg(beat.pid, signal.SIGTERM)
            beat.wait(timeout=30)
    assert day.status == Phase.Status.COMMITTED
    assert AuditEvent.objects.filter(game=game, kind="commit", detail__phase="D1").count() == 1
