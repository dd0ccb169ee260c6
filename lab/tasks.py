"""Celery tasks of the balance lab: they take ids and call services (no logic here). They
run on the lab's own queue (gm/celery.py's route_task), never before the deadline work."""

from __future__ import annotations

from celery import shared_task

from lab import services


@shared_task(name="lab.balance_publish", ignore_result=True)
def balance_study_publish(study_id: int) -> int:
    """Publish a study's chunk tasks (docs/balance.md): the request only queued this."""
    return services.balance_study_publish(study_id)


@shared_task(name="games.balance_chunk", ignore_result=True)
def balance_chunk(study_id: int, variant: int, index: int) -> str:
    """One chunk of a balance study (docs/balance.md)."""
    return services.balance_chunk_run(study_id, variant, index)


@shared_task(name="lab.balance_sweep", ignore_result=True)
def balance_studies_sweep() -> int:
    """Fail the studies whose tasks Redis lost (queued by beat on the lab's queue)."""
    return services.balance_studies_sweep()
