"""The balance lab's services (docs/balance.md): start a study (its row, and one task that
publishes its chunks), store each chunk's counters, merge them once every chunk is in,
cancel keeping what was played. The figures come from the pure study code
(roles/balance/study.py); no logic here beyond bounding, storing and merging.

A GM has at most ``TABULA_LAB_STUDIES_PER_GM`` studies queued or running and a study at
most ``TABULA_LAB_MAX_GAMES`` games (issue 27 §6). The request stores the row and queues
one small task, each Redis call bounded by ``TABULA_REDIS_TIMEOUT_SECONDS``; when Redis
cannot take it the study is marked failed at once, never left "in coda" for ever. A study
whose tasks Redis lost later (a restart without its data) is failed by the sweep beat
queues on the lab's queue: nothing left in that queue and nothing stored for
``TABULA_LAB_STALL_SECONDS``.
"""

from __future__ import annotations

import datetime as dt
from functools import partial
from typing import Any

from celery import group
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from kombu.exceptions import ChannelError, OperationalError
from redis.exceptions import RedisError

from lab import tasks  # (a module: lab/tasks.py imports this one)
from lab.models import BalanceChunk, BalanceStudy
from roles.balance.study import Aggregate, Study, Variant, merge_all, run_chunk
from roles.balance.study_report import compare, sentences, summary
from roles.engine.errors import RuleViolation
from roles.engine.setups import SetupError

Status = BalanceStudy.Status


class StudyRefused(ValueError):
    """A study the lab does not start: the message says why, in the reader's language."""


def study_of(row: BalanceStudy, variant: int) -> Study:
    """The pure study of ``row``'s first (0) or second (1) variant."""
    data = row.variant if variant == 0 else row.versus
    return Study(Variant.from_dict(data), row.games, row.model, row.seed)


def balance_study_start(
    *, gm: Any, variant: Variant, games: int, model: str, seed: int,
    versus: Variant | None = None,
) -> BalanceStudy:  # fmt: skip
    """Store the study and, after the commit, queue the one task that publishes its chunks.
    Raises :class:`StudyRefused` past the games' or the GM's bound."""
    most = settings.TABULA_LAB_MAX_GAMES
    if games > most:
        raise StudyRefused(_("Uno studio gioca al massimo %(games)s partite.")
                           % {"games": number_format(most, force_grouping=True)})  # fmt: skip
    study = Study(variant, games, model, seed)  # validates the model and the count
    with transaction.atomic():
        # one start at a time per GM: two tabs cannot both take the last place
        get_user_model().objects.select_for_update().filter(pk=gm.pk).first()
        limit = settings.TABULA_LAB_STUDIES_PER_GM
        if BalanceStudy.objects.filter(gm=gm, status__in=BalanceStudy.ACTIVE).count() >= limit:
            raise StudyRefused(_("Hai già %(limit)s studi in coda o in corso: attendi che uno "
                                 "finisca o annullane uno.") % {"limit": limit})  # fmt: skip
        row = BalanceStudy.objects.create(
            gm=gm, setup=variant.setup, model=model, games=games, seed=seed,
            variant=variant.as_dict(), versus=versus.as_dict() if versus else None,
            chunks=study.chunks,
        )  # fmt: skip
        transaction.on_commit(partial(queue_publish, row.pk))
    row.refresh_from_db()
    return row


def queue_publish(study_id: int) -> bool:
    """Queue the study's publishing task (one attempt, bounded by the Redis timeouts);
    when Redis cannot take it, the study fails with that reason. True when queued."""
    try:
        with tasks.balance_study_publish.app.connection_for_write() as connection:
            tasks.balance_study_publish.apply_async((study_id,), connection=connection,
                                                    retry=False)  # fmt: skip
    except (OperationalError, RedisError, OSError):
        _fail(study_id, BalanceStudy.Failure.BROKER, Status.QUEUED)
        return False
    return True


def balance_study_publish(study_id: int) -> int:
    """Publish the chunks of a queued study (run by a lab task, not by the request); the
    number published (0 when the study was cancelled, failed or already published)."""
    if not BalanceStudy.objects.filter(pk=study_id, status=Status.QUEUED).update(
        status=Status.RUNNING, touched_at=timezone.now()
    ):
        return 0
    row = BalanceStudy.objects.get(pk=study_id)
    jobs = [tasks.balance_chunk.s(row.pk, v, i)
            for v in range(2 if row.versus else 1) for i in range(row.chunks)]  # fmt: skip
    try:
        group(jobs).apply_async()
    except (OperationalError, RedisError, OSError):
        _fail(study_id, BalanceStudy.Failure.BROKER, Status.RUNNING)
        raise
    return len(jobs)


def _fail(study_id: int, failure: str, *statuses: str) -> bool:
    return bool(
        BalanceStudy.objects.filter(pk=study_id, status__in=statuses).update(
            status=Status.FAILED, failure=failure, finished_at=timezone.now()
        )
    )


def balance_chunk_run(study_id: int, variant: int, index: int) -> str:
    """Play one chunk unless the study stopped; store it; the last one merges. A chunk the
    engine refuses to play (a model that cannot play an option) fails the study."""
    row = BalanceStudy.objects.filter(pk=study_id).first()
    if row is None or row.status != Status.RUNNING:
        return "skipped"
    if not BalanceChunk.objects.filter(study=row, variant=variant, index=index).exists():
        try:
            aggregate = run_chunk(study_of(row, variant), index)
        except (RuleViolation, SetupError):
            _fail(study_id, BalanceStudy.Failure.ENGINE, Status.RUNNING)
            return "failed"
        if not BalanceStudy.objects.filter(pk=study_id, status=Status.RUNNING).exists():
            return "skipped"  # cancelled while it played: the figures kept are the cancel's
        BalanceChunk.objects.get_or_create(
            study=row, variant=variant, index=index, defaults={"aggregate": aggregate.as_dict()}
        )
        BalanceStudy.objects.filter(pk=study_id).update(touched_at=timezone.now())
    if BalanceChunk.objects.filter(study=row).count() >= row.chunks_total:
        balance_study_finish(study_id)
    return "stored"


def merged(row: BalanceStudy, variant: int) -> Aggregate:
    parts = row.parts.filter(variant=variant).order_by("index").values_list("aggregate", flat=True)
    return merge_all(Aggregate.from_dict(part) for part in parts)


def figures_of(row: BalanceStudy) -> dict[str, Any] | None:
    """The figures of the chunks stored (all of them, or those played before a cancel);
    a variant with no game has none, and a comparison needs both."""
    first = merged(row, 0)
    if not first.games:
        return None
    figures: dict[str, Any] = {"first": summary(first, row.setup)}
    second = merged(row, 1) if row.versus else None
    if second is not None and second.games:
        figures["second"] = summary(second, row.setup)
        figures["comparison"] = compare(first, second, row.setup)
        figures["sentences"] = {
            lang: sentences(first, second, row.setup, lang) for lang in ("it", "en")
        }
    return figures


def balance_study_finish(study_id: int) -> bool:
    """Merge the chunks into the figures, once (compare-and-set on the status)."""
    if not BalanceStudy.objects.filter(pk=study_id, status=Status.RUNNING).update(
        status=Status.MERGING
    ):
        return False
    row = BalanceStudy.objects.get(pk=study_id)
    BalanceStudy.objects.filter(pk=study_id).update(
        figures=figures_of(row), status=Status.DONE, finished_at=timezone.now()
    )
    return True


def balance_study_cancel(*, study: BalanceStudy) -> bool:
    """Stop a queued or running study: the chunks not yet played are skipped, those played
    are kept as its figures (issue 30, lab minors)."""
    if not BalanceStudy.objects.filter(
        pk=study.pk, status__in=(Status.QUEUED, Status.RUNNING)
    ).update(status=Status.CANCELLED, finished_at=timezone.now()):
        return False
    row = BalanceStudy.objects.get(pk=study.pk)
    BalanceStudy.objects.filter(pk=study.pk).update(figures=figures_of(row))
    return True


def lab_queue_length() -> int:
    """The messages waiting in the lab's queue (0 when Redis holds none)."""
    with tasks.balance_study_publish.app.connection_for_read() as connection:
        try:
            declared = connection.default_channel.queue_declare(
                queue=settings.TABULA_LAB_QUEUE, passive=True
            )
        except ChannelError:  # the queue's list does not exist: nothing waits
            return 0
    return int(declared.message_count)


def balance_studies_sweep() -> int:
    """Fail the studies whose tasks are lost: queued or running, nothing stored for
    ``TABULA_LAB_STALL_SECONDS`` and nothing left in the lab's queue (run from that queue,
    so every task queued before it was taken). The number failed."""
    if lab_queue_length():
        return 0  # work still waits: a study behind it is queued, not lost
    since = timezone.now() - dt.timedelta(seconds=settings.TABULA_LAB_STALL_SECONDS)
    stalled = BalanceStudy.objects.filter(status__in=(Status.QUEUED, Status.RUNNING)).filter(
        Q(touched_at__lt=since) | Q(touched_at__isnull=True, created_at__lt=since)
    )
    return sum(
        _fail(pk, BalanceStudy.Failure.LOST, Status.QUEUED, Status.RUNNING)
        for pk in stalled.values_list("pk", flat=True)
    )


def balance_progress(study: BalanceStudy) -> int:
    """Percent of the chunks stored."""
    if study.status == Status.DONE:
        return 100
    return int(100 * study.parts.count() / max(study.chunks_total, 1))
