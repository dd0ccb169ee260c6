"""Reachability checks of the services the site depends on, and the clock's heartbeat.

Each check is bounded by ``TABULA_HEALTH_TIMEOUT_SECONDS`` (a connection and a reply), so
/healthz answers within a second whatever Redis does.
"""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from kombu import Connection

from games.services.clock import heartbeat_age


def database_status() -> str:
    """'ok', or the error that stopped a trivial query."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:
        return f"error: {exc.__class__.__name__}"
    return "ok"


def broker_status() -> str:
    """'ok', or the error met while connecting to the Celery broker (one attempt)."""
    timeout = settings.TABULA_HEALTH_TIMEOUT_SECONDS
    options = {"socket_timeout": timeout, "socket_connect_timeout": timeout}
    try:
        with Connection(settings.CELERY_BROKER_URL, connect_timeout=timeout,
                        transport_options=options) as conn:  # fmt: skip
            conn.ensure_connection(max_retries=0, timeout=timeout)
    except Exception as exc:
        return f"error: {exc.__class__.__name__}"
    return "ok"


def clock_status() -> str:
    """'ok' when the deadline tick ran within ``TABULA_CLOCK_STALE_SECONDS``; else what is
    wrong: no tick for that long means beat is down or no worker runs its ticks."""
    try:
        age = heartbeat_age()
    except Exception as exc:
        return f"error: {exc.__class__.__name__}"
    if age is None:
        return "stale: no deadline tick has run yet"
    if age > settings.TABULA_CLOCK_STALE_SECONDS:
        return f"stale: last deadline tick {age:.0f} s ago (beat down or worker stuck)"
    return "ok"
