"""The balance lab's services (docs/balance.md): start a study as Celery chunk tasks, store
each chunk's counters, merge them once every chunk is in, cancel. The figures come from
the pure study code (roles/balance/study.py); no logic here beyond storing and merging."""

from __future__ import annotations

from typing import Any

from celery import group
from django.db import transaction
from django.utils import timezone

from lab import tasks  # (a module: lab/tasks.py imports this one)
from lab.models import BalanceChunk, BalanceStudy
from roles.balance.study import Aggregate, Study, Variant, merge_all, run_chunk
from roles.balance.study_report import compare, sentences, summary


def study_of(row: BalanceStudy, variant: int) -> Study:
    """The pure study of ``row``'s first (0) or second (1) variant."""
    data = row.variant if variant == 0 else row.versus
    return Study(Variant.from_dict(data), row.games, row.model, row.seed)


@transaction.atomic
def balance_study_start(
    *, gm: Any, variant: Variant, games: int, model: str, seed: int,
    versus: Variant | None = None,
) -> BalanceStudy:  # fmt: skip
    """Store the study and queue its chunks (after the commit) over the workers."""
    study = Study(variant, games, model, seed)  # validates the model and the count
    row = BalanceStudy.objects.create(
        gm=gm, setup=variant.setup, model=model, games=games, seed=seed,
        variant=variant.as_dict(), versus=versus.as_dict() if versus else None,
        chunks=study.chunks,
    )  # fmt: skip
    jobs = group(
        tasks.balance_chunk.s(row.pk, v, i)
        for v in range(2 if versus else 1)
        for i in range(study.chunks)
    )
    transaction.on_commit(jobs.apply_async)
    return row


def balance_chunk_run(study_id: int, variant: int, index: int) -> str:
    """Play one chunk unless the study was cancelled; store it; the last one merges."""
    row = BalanceStudy.objects.filter(pk=study_id).first()
    if row is None or row.status != BalanceStudy.Status.RUNNING:
        return "skipped"
    if not BalanceChunk.objects.filter(study=row, variant=variant, index=index).exists():
        aggregate = run_chunk(study_of(row, variant), index)
        BalanceChunk.objects.get_or_create(
            study=row, variant=variant, index=index, defaults={"aggregate": aggregate.as_dict()}
        )
    if BalanceChunk.objects.filter(study=row).count() >= row.chunks_total:
        balance_study_finish(study_id)
    return "stored"


def merged(row: BalanceStudy, variant: int) -> Aggregate:
    parts = row.parts.filter(variant=variant).order_by("index").values_list("aggregate", flat=True)
    return merge_all(Aggregate.from_dict(part) for part in parts)


def balance_study_finish(study_id: int) -> bool:
    """Merge the chunks into the figures, once (compare-and-set on the status)."""
    if not BalanceStudy.objects.filter(pk=study_id, status=BalanceStudy.Status.RUNNING).update(
        status=BalanceStudy.Status.MERGING
    ):
        return False
    row = BalanceStudy.objects.get(pk=study_id)
    first = merged(row, 0)
    figures: dict[str, Any] = {"first": summary(first, row.setup)}
    if row.versus:
        second = merged(row, 1)
        rows = compare(first, second, row.setup)
        figures["second"] = summary(second, row.setup)
        figures["comparison"] = rows
        figures["sentences"] = {
            lang: sentences(first, second, row.setup, lang) for lang in ("it", "en")
        }
    BalanceStudy.objects.filter(pk=study_id).update(
        figures=figures, status=BalanceStudy.Status.DONE, finished_at=timezone.now()
    )
    return True


def balance_study_cancel(*, study: BalanceStudy) -> bool:
    """Stop a running study: the chunks not yet played are skipped."""
    return bool(
        BalanceStudy.objects.filter(pk=study.pk, status=BalanceStudy.Status.RUNNING).update(
            status=BalanceStudy.Status.CANCELLED, finished_at=timezone.now()
        )
    )


def balance_progress(study: BalanceStudy) -> int:
    """Percent of the chunks stored."""
    if study.status == BalanceStudy.Status.DONE:
        return 100
    return int(100 * study.parts.count() / max(study.chunks_total, 1))
