"""Reachability checks of the services the site depends on."""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from kombu import Connection


def database_status() -> str:
    """'ok', or the error that stopped a trivial query."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:
        return f"error: {exc.__class__.__name__}"
    return "ok"


def broker_status(timeout: float = 2.0) -> str:
    """'ok', or the error met while connecting to the Celery broker."""
    try:
        with Connection(settings.CELERY_BROKER_URL, connect_timeout=timeout) as conn:
            conn.ensure_connection(max_retries=1, timeout=timeout)
    except Exception as exc:
        return f"error: {exc.__class__.__name__}"
    return "ok"
