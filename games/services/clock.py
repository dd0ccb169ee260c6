"""Deadlines on schedule: each due phase closes once, in deadline order.

A deadline lives on its phase row. Celery beat queues one task, ``games.deadlines_tick``,
every ``TABULA_TICK_SECONDS``; the task calls ``deadlines_run``, which closes every phase
that is due: open, running, and its deadline ``TABULA_CLOSE_GRACE_SECONDS`` past. A
submission counts by when it reached the site (the first middleware's receive stamp), so
the grace only lets those still on their way at the deadline reach the database; those
that reached the site later are refused by the submission itself.

A phase closes only after every earlier phase of its game is resolved (a night never
before its day), and each close is a compare-and-set update on the phase row, in the same
transaction as everything the close does: a close interrupted by a crash rolls back
whole and the next tick does it again, and two ticks running at once close a phase once.
A phase that fails is logged and left to the next tick, never holding up another game. At
the vote close the day is resolved (a day whose votes are given in the thread waits for
the GM's import and commit); at the powers deadline the night is left for the GM's
preview, or resolved by itself when the game says so.

Each tick that ran records a heartbeat in Redis; ``/healthz`` reports its age, so a dead
beat or a stuck worker shows there.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import time
from collections.abc import Iterator
from functools import cache

import redis
from django.conf import settings
from django.db import transaction
from django.db.models import DateTimeField, Exists, ExpressionWrapper, OuterRef, Q, Value
from django.db.models.functions import Now
from django.utils import timezone

from games.models import AuditEvent, Game, Phase
from games.selectors.window import votes_from_topic
from games.services.commit import phase_resolve
from games.services.game import audit
from games.services.phases import phase_commit

log = logging.getLogger(__name__)
# A test hook: seconds to stall inside a close, so a test can kill the worker mid-close.
STALL_ENV = "TABULA_TEST_STALL_CLOSE"
HEARTBEAT_KEY = "tabula:clock:heartbeat"  # epoch seconds of the last tick that ran


def _grace() -> dt.timedelta:
    return dt.timedelta(seconds=settings.TABULA_CLOSE_GRACE_SECONDS)


def _earlier_unresolved() -> Exists:
    return Exists(
        Phase.objects.filter(game=OuterRef("game"), index__lt=OuterRef("index")).exclude(
            status=Phase.Status.COMMITTED
        )
    )


def _due() -> Q:
    """Open, running, and its deadline a grace past, by the database's clock."""
    cutoff = ExpressionWrapper(Now() - Value(_grace()), output_field=DateTimeField())
    return Q(status=Phase.Status.OPEN, paused_at__isnull=True, closes_at__lte=cutoff)


def _candidates(skip: set[int]) -> list[int]:
    """The phases to close or resolve now, oldest deadline first: a phase of a running
    game whose earlier phases are all resolved, if it is due, or closed and resolving
    itself (a day, or a night of a game that says so). Ids only, so a row that cannot be
    read back (a deadline out of range) fails alone, in its own close."""
    day = Q(label__startswith="D") & ~Q(game__topic__votes_from_topic=True)
    resolves_itself = Q(status=Phase.Status.CLOSED) & (day | Q(game__auto_commit_nights=True))
    rows = (
        Phase.objects.filter(status__in=[Phase.Status.OPEN, Phase.Status.CLOSED],
                             game__status=Game.Status.RUNNING, game__archived_at__isnull=True)
        .filter(_due() | resolves_itself)
        .exclude(_earlier_unresolved())
        .order_by("closes_at", "index")
    )  # fmt: skip
    return [pk for pk in rows.values_list("pk", flat=True) if pk not in skip]


def _claimed(phase_id: int) -> Phase | None:
    """The phase, locked for this transaction, with its game and whether an earlier phase
    of its game is still to resolve (``waits``); None when it is gone or another tick is
    closing it (it is skipped, not waited for: ticks running at once close different
    games side by side). A submission still writing holds a share lock on the row: the
    phase is skipped too, and the next tick closes it."""
    rows = (
        Phase.objects.select_related("game")
        .select_for_update(skip_locked=True, no_key=True, of=("self",))
        .filter(pk=phase_id)
        .annotate(waits=_earlier_unresolved())
    )
    return rows.first()


def _take(phase: Phase, status: str, now: dt.datetime) -> bool:
    """The compare-and-set of the close: the phase, still due, becomes ``status``
    (committed: resolved in the same transaction); what the resolution reads of the row
    (the GM's corrections) is read back from the version it updated."""
    committed_at = now if status == Phase.Status.COMMITTED else None
    won = Phase.objects.filter(_due(), pk=phase.pk).update(
        status=status, closed_at=now, committed_at=committed_at
    )
    if won:
        phase.refresh_from_db(fields=["overrides"])
        phase.status, phase.closed_at, phase.committed_at = status, now, committed_at
    return bool(won)


def _resolves_itself(phase: Phase) -> bool:
    """A day is resolved at its close, unless its votes are given in the thread: then it
    waits for the GM to read them (issue 28 class 6: the deadline never commits a day
    whose votes have not been read); a night only when its game says so (else the GM
    previews and commits it)."""
    if phase.is_night:
        return phase.game.auto_commit_nights
    return not votes_from_topic(phase.game_id)


def phase_close(phase_id: int) -> str:
    """Close one phase if it is due and every earlier phase of its game is resolved, or
    resolve it if it closed earlier and resolves itself: ``committed``, ``closed`` (a night
    left for the GM) or ``not_due`` (not due, waiting for an earlier phase, closed by
    another tick, already done, or gone)."""
    with transaction.atomic():
        phase = _claimed(phase_id)
        if phase is None or phase.game.status != Game.Status.RUNNING or phase.waits:
            return "not_due"  # taken, gone, or an earlier phase goes first
        if phase.game.archived_at is not None:
            return "not_due"  # archived: its clock waits until the GM restores it
        if phase.status == Phase.Status.CLOSED:  # closed earlier, its resolution still owed
            if not _resolves_itself(phase):
                return "closed"
            return "committed" if phase_commit(phase=phase, user=None) else "not_due"
        resolve, now = _resolves_itself(phase), timezone.now()
        if phase.status != Phase.Status.OPEN or phase.closes_at + _grace() > now:
            return "not_due"
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


def _close_alone(phase_id: int) -> str:
    try:
        return phase_close(phase_id)
    except Exception:
        log.exception("closing phase %s failed; it is retried at the next tick", phase_id)
        return "failed"


def _drain() -> Iterator[tuple[int, str]]:
    """Close everything due, in deadline order, until nothing is left (a resolution may
    make a game's next phase due: the next round finds it); a failing phase is logged and
    skipped (the next tick tries it again)."""
    skip: set[int] = set()
    while candidates := _candidates(skip):
        for phase_id in candidates:
            result = _close_alone(phase_id)
            if result in ("not_due", "failed"):
                skip.add(phase_id)
            else:
                yield phase_id, result


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


@cache
def _client(url: str, timeout: float) -> redis.Redis:
    return redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout)


def _redis() -> redis.Redis:
    """Short timeouts: /healthz answers within a second whatever Redis does."""
    url = settings.REDIS_URL.replace("redis+socket://", "unix://", 1)
    return _client(url, settings.TABULA_HEALTH_TIMEOUT_SECONDS)


def heartbeat_record() -> None:
    """Note that a tick ran to its end, now (a tick only runs when Redis answers)."""
    _redis().set(HEARTBEAT_KEY, repr(time.time()))


def heartbeat_age() -> float | None:
    """Seconds since the last tick ran to its end; None when no tick ever did. A
    ``redis.RedisError`` when Redis cannot be reached."""
    value = _redis().get(HEARTBEAT_KEY)
    return None if value is None else max(0.0, time.time() - float(value))
