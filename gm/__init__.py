"""The Tabula Django project: settings, urls, the Celery app and the GM dashboard."""

from gm.celery import app as celery_app

__all__ = ["celery_app"]
