"""Celery tasks of the games app: they take ids and call services (no logic here)."""

from __future__ import annotations

from celery import shared_task

from games.selectors.pages import game_summary
from games.services.clock import deadlines_run, heartbeat_record
from games.services.follow import follow_claim_due, follow_read


@shared_task(name="games.describe")
def game_describe(game_id: int) -> dict[str, object]:
    """Describe a game from the database (used to check that a worker sees the site's data)."""
    return game_summary(game_id=game_id)


@shared_task(name="games.deadlines_tick", ignore_result=True)
def deadlines_tick() -> dict[str, int]:
    """Beat, every ``TABULA_TICK_SECONDS``: close whatever is due, then note the heartbeat
    that /healthz reports."""
    counts = deadlines_run()
    due = follow_claim_due()
    for thread_id in due:  # one task per followed thread whose read is due (issue 32)
        thread_read.delay(thread_id)
    heartbeat_record()
    return {**counts, "reads": len(due)}


@shared_task(name="games.follow_read", ignore_result=True)
def thread_read(thread_id: int) -> str:
    """One read of a followed thread (games/services/follow.py)."""
    return follow_read(thread_id)
