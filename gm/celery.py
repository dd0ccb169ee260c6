"""The Celery app: JSON only, time limits from settings, tasks found in every app.

The beat also keeps the clock itself: a thread of the beat process closes the due phases
every tick (``TABULA_BEAT_CLOSES``), with no broker and no worker in between, so a
worker killed or Redis restarting delays no deadline; the workers' tick and ETA tasks
are more hands at a busy deadline (the closers share the work, see games/closing.py).
"""

from __future__ import annotations

import logging
import os
import threading
import time

from celery import Celery
from celery.signals import beat_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gm.settings")

app = Celery("tabula")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
log = logging.getLogger(__name__)


@beat_init.connect
def clock_start(**kwargs: object) -> None:
    """In the beat process: start the closing thread, unless the setting says not to."""
    import django

    django.setup()
    from django.conf import settings

    if settings.TABULA_BEAT_CLOSES:
        threading.Thread(target=clock_run, args=(settings.TABULA_TICK_SECONDS,),
                         name="tabula-clock", daemon=True).start()  # fmt: skip


def clock_run(period: float, rounds: int | None = None) -> None:
    """Every ``period`` seconds, close what is due (a failure is logged; the next round
    tries again, on a fresh connection if the database went away)."""
    from django.db import close_old_connections

    from games.closing import deadlines_run

    done = 0
    while rounds is None or done < rounds:
        started = time.monotonic()
        close_old_connections()
        try:
            deadlines_run()
        except Exception:
            log.exception("the beat's close of due phases failed; trying again")
        done += 1
        time.sleep(max(0.05, period - (time.monotonic() - started)))
