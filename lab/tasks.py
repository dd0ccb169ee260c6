"""Celery tasks of the balance lab: they take ids and call services (no logic here)."""

from __future__ import annotations

from celery import shared_task

from lab import services


@shared_task(name="games.balance_chunk", ignore_result=True)
def balance_chunk(study_id: int, variant: int, index: int) -> str:
    """One chunk of a balance study (docs/balance.md)."""
    return services.balance_chunk_run(study_id, variant, index)
