"""Diagnostic tasks of the project itself."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="gm.ping")
def ping(payload: str = "pong") -> dict[str, str]:
    """Echo a payload: proves a worker consumes from the broker and reports results."""
    return {"reply": payload}
