"""The Celery app: JSON only, time limits from settings, tasks found in every app.

Beat's schedule (``CELERY_BEAT_SCHEDULE`` in settings) is the site's one clock: every
``TABULA_TICK_SECONDS`` it queues ``games.deadlines_tick``, which closes the due phases
(games/services/clock.py) and records the heartbeat that /healthz reports.
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gm.settings")

app = Celery("tabula")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
