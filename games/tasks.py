"""Celery tasks of the games app: they take ids and call services or selectors."""

from __future__ import annotations

from celery import shared_task

from games.selectors import game_summary


@shared_task(name="games.describe")
def game_describe(game_id: int) -> dict[str, object]:
    """Describe a game from the database (used to check that a worker sees the site's data)."""
    return game_summary(game_id=game_id)
