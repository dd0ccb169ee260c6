"""The Celery app: JSON only, time limits from settings, tasks found in every app.

Beat's schedule (``CELERY_BEAT_SCHEDULE`` in settings) is the site's one clock: every
``TABULA_TICK_SECONDS`` it queues ``games.deadlines_tick``, which closes the due phases
(games/services/clock.py) and records the heartbeat that /healthz reports.

The balance lab's tasks go to their own queue (``TABULA_LAB_QUEUE``, :func:`route_task`),
which a worker of its own consumes, so that the deadline work never waits behind them.
"""

from __future__ import annotations

import gc
import os
from typing import Any

from celery import Celery
from celery.signals import worker_process_init
from django.conf import settings

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gm.settings")

app = Celery("tabula")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


LAB_TASKS = ("games.balance_chunk",)  # the lab's task named when it lived in games/


def route_task(name: str, args: Any, kwargs: Any, options: Any, task: Any = None,
               **extra: Any) -> dict[str, str] | None:  # fmt: skip
    """The queue of a task: the lab's own for the lab's tasks, the default for the rest."""
    if name.startswith("lab.") or name in LAB_TASKS:
        return {"queue": settings.TABULA_LAB_QUEUE}
    return None


@worker_process_init.connect
def freeze_loaded(**_signal: Any) -> None:
    """A worker process's loaded code out of the garbage collector's sight, as gm/wsgi.py
    does for a web worker: a full collection walks only what the tasks make."""
    gc.collect()
    gc.freeze()
