"""Deadlines on schedule: each due phase closes once, in deadline order, whatever happens.

A deadline lives on its phase row. A Celery beat tick every second closes what is due and,
when a deadline is near, queues one ETA task for it (promptness and a second worker's
hands; the tick is the guarantee). Whatever delivers it, a task closes everything due in
deadline order: a phase closes only after every earlier phase of its game is resolved
(a night never before its day), and each close is a compare-and-set update in the same
transaction as everything the close does, so a close interrupted by a crash rolls back
whole and the next tick does it again. Closers share the work through a transaction-scoped
advisory lock per phase; a phase that fails is logged and left to the next tick, never
holding up another game. At the vote close the day is resolved; at the powers deadline the
night is previewed for the GM, or resolved by itself when the game says so.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import os
import time
from collections.abc import Iterator

from django.conf import settings
from django.db import connection, transaction
from django.db.models import BooleanField, Exists, ExpressionWrapper, F, OuterRef, Q
from django.db.models.expressions import RawSQL
from django.db.models.functions import Now
from django.utils import timezone

from games import inflight
from games.closing_batch import BATCH, RETRY, close_batch
from games.commit import phase_resolve
from games.models import AuditEvent, Game, Phase
from games.phases import phase_commit
from games.services import audit

log = logging.getLogger(__name__)
# A test hook: seconds to stall inside a close, so a test can kill the worker mid-close.
STALL_ENV = "TABULA_TEST_STALL_CLOSE"
LOCK_SPACE = 0x7AB  # advisory lock keys: (LOCK_SPACE, phase id)


def _earlier_unresolved() -> Exists:
    return Exists(
        Phase.objects.filter(game=OuterRef("game"), index__lt=OuterRef("index")).exclude(
            status=Phase.Status.COMMITTED
        )
    )


def _due() -> Q:
    return Q(status=Phase.Status.OPEN, paused_at__isnull=True, closes_at__lte=Now())


def _candidates(skip: set[int]) -> list[int]:
    """The phases to close or resolve now, oldest deadline first:
    a phase of a running game whose earlier phases are all resolved, if it is open,
    running and due, or closed and resolving itself (a day, or a night of a game that says
    so). Ids only, so a row that cannot be read back (a deadline out of range) fails
    alone, in its own close."""
    resolves_itself = Q(status=Phase.Status.CLOSED) & (
        Q(label__startswith="D") | Q(game__auto_commit_nights=True)
    )
    rows = (
        Phase.objects.filter(status__in=[Phase.Status.OPEN, Phase.Status.CLOSED],
                             game__status=Game.Status.RUNNING)
        .filter(_due() | resolves_itself)
        .exclude(_earlier_unresolved())
        .order_by("closes_at", "index")
    )  # fmt: skip
    return [pk for pk in rows.values_list("pk", flat=True) if pk not in skip]


def _claimed(phase_id: int) -> Phase | None:
    """One round trip: take the phase for this transaction, unless another closer has it
    (then None: it is being closed), and read it with its game and whether an earlier
    phase of its game is still to resolve (``waits``). Submissions in flight keep their
    share lock on the row: the close's update still waits for them."""
    rows = Phase.objects.select_related("game").filter(pk=phase_id)
    rows = rows.annotate(waits=_earlier_unresolved()).order_by()
    if connection.vendor != "postgresql":
        return rows.first()
    lock = RawSQL("pg_try_advisory_xact_lock(%s, %s)", (LOCK_SPACE, phase_id))
    phase = rows.annotate(claimed=ExpressionWrapper(lock, output_field=BooleanField())).first()
    return phase if phase is not None and phase.claimed else None


_READ_BACK = ("overrides", "snapshot_epoch")


def _take(phase: Phase, status: str, now: dt.datetime) -> bool:
    """The compare-and-set of the close: the phase, still open, running and due, becomes
    ``status`` (committed: resolved in the same transaction). It filters on the row's own
    columns only: PostgreSQL re-checks them on the latest row version after waiting for
    the submissions in flight; what the resolution reads of the row (the GM's corrections,
    the snapshot) is read back from that version."""
    committed_at = now if status == Phase.Status.COMMITTED else None
    if connection.vendor != "postgresql":
        won = Phase.objects.filter(_due(), pk=phase.pk).update(
            status=status, closed_at=Now(), committed_at=committed_at
        )
        if won:
            phase.refresh_from_db(fields=_READ_BACK)
    else:
        table = Phase._meta.db_table
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {table} SET status = %s, closed_at = STATEMENT_TIMESTAMP(), "
                "committed_at = %s WHERE id = %s AND status = %s AND paused_at IS NULL "
                f"AND closes_at <= STATEMENT_TIMESTAMP() RETURNING {', '.join(_READ_BACK)}",
                [status, committed_at, phase.pk, Phase.Status.OPEN],
            )
            row = cursor.fetchone()
        won = row is not None
        if won:
            overrides, phase.snapshot_epoch = row
            phase.overrides = json.loads(overrides) if isinstance(overrides, str) else overrides
    if won:
        phase.status, phase.committed_at = status, committed_at
    return bool(won)


def _resolves_itself(phase: Phase) -> bool:
    """A day is resolved at its close; a night only when its game says so (else the GM
    previews and commits it)."""
    return not phase.is_night or phase.game.auto_commit_nights


def phase_close(phase_id: int) -> str:
    """Close one phase if it is due and every earlier phase of its game is resolved, or
    resolve it if it closed earlier and resolves itself: ``committed``, ``closed`` (a night
    left for the GM) or ``not_due`` (not due, waiting for an earlier phase, taken by another
    closer, already done, or gone)."""
    with transaction.atomic():
        phase = _claimed(phase_id)
        if phase is None or phase.game.status != Game.Status.RUNNING or phase.waits:
            return "not_due"  # taken by another closer, gone, or an earlier phase goes first
        if phase.status == Phase.Status.CLOSED:  # closed earlier, its resolution still owed
            if not _resolves_itself(phase):
                return "closed"
            return "committed" if phase_commit(phase=phase, user=None) else "not_due"
        if phase.status != Phase.Status.OPEN or phase.closes_at > timezone.now():
            return "not_due"
        inflight.wait_settled(phase.closes_at)  # votes sent in time, still running
        resolve, now = _resolves_itself(phase), timezone.now()
        if not _take(phase, Phase.Status.COMMITTED if resolve else Phase.Status.CLOSED, now):
            return "not_due"
        if os.environ.get(STALL_ENV):
            time.sleep(float(os.environ[STALL_ENV]))
        deadline = AuditEvent(game=phase.game, kind="deadline", detail={"phase": phase.label})
        if not resolve:
            deadline.save()
            return "closed"
        phase_resolve(phase, phase.game, user=None, now=now, events=(deadline,))
        return "committed"


def _batch(ids: list[int]) -> dict[int, str]:
    """Close ``ids`` in one batch (``games.closing_batch``); a batch that fails rolls back
    whole, and its phases are closed one by one."""
    try:
        return close_batch(ids)
    except Exception:
        log.warning("a batch of %s closes failed; closing them one by one", len(ids),
                    exc_info=True)  # fmt: skip
        return {}


def _drain() -> Iterator[tuple[int, str]]:
    """Close everything due, in deadline order, in batches, until nothing is left; a
    failing phase is logged and skipped (the next tick tries it again)."""
    skip: set[int] = set()
    while candidates := _candidates(skip):
        for start in range(0, len(candidates), BATCH):  # a resolution may make a game's
            chunk = candidates[start : start + BATCH]  # next phase due: the next round finds it
            done = _batch(chunk) if len(chunk) > 1 and connection.vendor == "postgresql" else {}
            for phase_id in chunk:
                result = done.get(phase_id, RETRY)
                if result == RETRY:
                    result = _close_alone(phase_id)
                if result in ("not_due", "failed"):
                    skip.add(phase_id)
                else:
                    yield phase_id, result


def _close_alone(phase_id: int) -> str:
    try:
        return phase_close(phase_id)
    except Exception:
        log.exception("closing phase %s failed; it is retried at the next tick", phase_id)
        return "failed"


def days_end() -> int:
    """WWW-R15 / INQ-R12: at the close of the day (22:15) the day ends, once; logged.
    A paused day does not end: its end moves with its vote close."""
    ending = Phase.objects.filter(
        label__startswith="D", day_ends_at__lte=Now(), day_ended_at__isnull=True,
        paused_at__isnull=True,
    ).values_list("pk", "game_id", "label")  # fmt: skip
    ended = 0
    for pk, game_id, label in ending:
        with transaction.atomic():
            won = Phase.objects.filter(pk=pk, day_ended_at__isnull=True).update(day_ended_at=Now())
            if won:
                audit(Game.objects.get(pk=game_id), "day_closed", phase=label)
                ended += 1
    return ended


def deadlines_run() -> dict[str, int]:
    """Close every due phase and resolve every closed phase that resolves itself, each
    game in deadline order; end the days whose close has come."""
    counts: dict[str, int] = {}
    if ended := days_end():
        counts["day_closed"] = ended
    for _phase_id, result in _drain():
        counts[result] = counts.get(result, 0) + 1
    return counts


def schedule_close(phase: Phase) -> None:
    """After the transaction commits, an ETA task for a deadline that is near (farther
    ones are queued by the tick when they come near)."""
    if not settings.TABULA_SCHEDULE_ETA:
        return
    horizon = dt.timedelta(seconds=settings.TABULA_ETA_HORIZON_SECONDS)
    if phase.paused_at is None and phase.closes_at <= timezone.now() + horizon:
        pk = phase.pk
        transaction.on_commit(lambda: _queue_eta(pk), robust=True)


def _queue_eta(phase_id: int) -> bool:
    """One ETA task per deadline: the row remembers which deadline has its task."""
    row = Phase.objects.filter(pk=phase_id).values_list("closes_at", flat=True).first()
    if row is None:
        return False
    won = (
        Phase.objects.filter(pk=phase_id, closes_at=row)
        .exclude(eta_queued_for=row)
        .update(eta_queued_for=row)
    )
    if won:
        from games.tasks import close_phase

        expires = row + dt.timedelta(seconds=settings.TABULA_ETA_HORIZON_SECONDS)
        try:
            close_phase.apply_async(args=[phase_id], eta=row, expires=expires)
        except Exception:  # the broker is down: the tick closes the phase, and queues it again
            Phase.objects.filter(pk=phase_id, eta_queued_for=row).update(eta_queued_for=None)
            log.warning("ETA close of phase %s not scheduled: the broker is unreachable",
                        phase_id, exc_info=True)  # fmt: skip
            return False
    return bool(won)


def schedule_near() -> int:
    """The tick's look-ahead: queue the ETA task of each deadline coming within the
    horizon (once per deadline). Redis down: logged; the tick still closes on time."""
    if not settings.TABULA_SCHEDULE_ETA:
        return 0
    horizon = dt.timedelta(seconds=settings.TABULA_ETA_HORIZON_SECONDS)
    near = Phase.objects.filter(
        status=Phase.Status.OPEN, paused_at__isnull=True,
        closes_at__lte=timezone.now() + horizon, closes_at__gt=Now(),
    ).exclude(eta_queued_for=F("closes_at")).values_list("pk", flat=True)  # fmt: skip
    queued = 0
    for phase_id in near:
        try:
            queued += _queue_eta(phase_id)
        except Exception:
            log.exception("could not queue the close of phase %s; the tick closes it", phase_id)
    return queued
