"""The Celery app: JSON only, time limits from settings, tasks found in every app."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gm.settings")

app = Celery("tabula")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
