"""The clock's closes in batches: many due phases closed and resolved in one transaction.

At a busy deadline (200 games due within seconds) a close one transaction at a time pays
a dozen round trips each; a batch reads what its phases need in one query per kind
(the phases with their games, the players, the submissions, the wills), plays each phase
through the engine from its snapshot, and writes back in one statement per kind. The
guarantees are those of a single close (``games.closing``): each phase is taken by a
compare-and-set under its advisory lock, after the submissions in flight; a phase whose
play fails is put back as it was and left to the one-by-one path (which logs it and
leaves it to the next tick); a batch that fails in the database rolls back whole, and
its phases are closed one by one.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
from collections import defaultdict

from django.db import connection, transaction
from django.db.models import BooleanField, Count, Exists, ExpressionWrapper, OuterRef
from django.db.models.expressions import RawSQL
from django.utils import timezone

from games import inflight
from games.commit import Resolved
from games.engine import SUBMISSION_ROW
from games.kept import kept_restore
from games.models import (
    AuditEvent,
    Game,
    KeptSubmission,
    Phase,
    Player,
    Result,
    Submission,
    Will,
)
from games.services import phase_open
from games.snapshot import built_before, snapshots_invalidate

log = logging.getLogger(__name__)
LOCK_SPACE = 0x7AB  # as games.closing: (LOCK_SPACE, phase id)
_READ_BACK = ("id", "overrides", "snapshot_epoch")
RETRY = "retry"  # left to the one-by-one path
BATCH = 12  # phases a batch takes at most: all wait for its commit


def _claim(ids: list[int]) -> list[Phase]:
    """The phases among ``ids`` this transaction takes (their advisory locks), with their
    games and whether an earlier phase of the game is still to resolve (``waits``)."""
    earlier = Phase.objects.filter(game=OuterRef("game"), index__lt=OuterRef("index")).exclude(
        status=Phase.Status.COMMITTED
    )
    lock = RawSQL(f'pg_try_advisory_xact_lock({LOCK_SPACE}, "games_phase"."id"::integer)', ())
    rows = (
        Phase.objects.select_related("game").filter(pk__in=ids)
        .annotate(waits=Exists(earlier),
                  claimed=ExpressionWrapper(lock, output_field=BooleanField()))
        .order_by()
    )  # fmt: skip
    return list(rows)


def _take(phases: list[Phase], resolving: set[int], now: dt.datetime) -> list[Phase]:
    """The compare-and-set of every phase at once (see ``games.closing._take``): the taken
    ones, their corrections and snapshots read back from the row versions it updated."""
    by_id = {p.pk: p for p in phases}
    table = Phase._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET status = CASE WHEN id = ANY(%s::bigint[]) THEN %s ELSE %s END, "
            "committed_at = CASE WHEN id = ANY(%s::bigint[]) THEN %s::timestamptz END, "
            "closed_at = STATEMENT_TIMESTAMP() WHERE id = ANY(%s::bigint[]) AND status = %s "
            "AND paused_at IS NULL AND closes_at <= STATEMENT_TIMESTAMP() "
            f"RETURNING {', '.join(_READ_BACK)}",
            [list(resolving), Phase.Status.COMMITTED, Phase.Status.CLOSED, list(resolving), now,
             list(by_id), Phase.Status.OPEN],
        )  # fmt: skip
        rows = cursor.fetchall()
    taken = []
    for pk, overrides, epoch in rows:
        phase = by_id[pk]
        phase.overrides = json.loads(overrides) if isinstance(overrides, str) else overrides
        phase.snapshot_epoch = epoch
        committed = pk in resolving
        phase.status = Phase.Status.COMMITTED if committed else Phase.Status.CLOSED
        phase.committed_at = now if committed else None
        taken.append(phase)
    return taken


def _put_back(phases: list[Phase]) -> None:
    """Undo the compare-and-set of phases whose play failed: open and due again."""
    if phases:
        Phase.objects.filter(pk__in=[p.pk for p in phases]).update(
            status=Phase.Status.OPEN, closed_at=None, committed_at=None
        )


class _Reads:
    """What the batch's resolutions read, one query per kind."""

    def __init__(self, phases: list[Phase]) -> None:
        games = {p.game_id for p in phases}
        self.players: dict[int, list[Player]] = defaultdict(list)
        for player in Player.objects.filter(game_id__in=games):
            self.players[player.game_id].append(player)
        self.rows: dict[int, list] = defaultdict(list)
        light = (
            Submission.objects.filter(phase_id__in=[p.pk for p in phases])
            .order_by("at", "pk").values_list(*SUBMISSION_ROW, "phase_id", named=True)
        )  # fmt: skip
        for row in light:
            self.rows[row.phase_id].append(row)
        self.wills: dict[int, list[Will]] = defaultdict(list)
        for will in Will.objects.filter(player__game_id__in=games).select_related("player"):
            self.wills[will.player.game_id].append(will)
        days = [p.pk for p in phases if not p.is_night]
        self.votes: dict[int, list[Submission]] = defaultdict(list)
        self.next_closes: dict[tuple[int, int], dt.datetime] = {}
        if days:
            for sub in Submission.objects.filter(phase_id__in=days).select_related(
                "player", "target"
            ):
                self.votes[sub.phase_id].append(sub)
            following = Phase.objects.filter(game_id__in={p.game_id for p in phases
                                                          if not p.is_night})  # fmt: skip
            for game_id, index, closes_at in following.values_list("game_id", "index",
                                                                   "closes_at"):  # fmt: skip
                self.next_closes[game_id, index] = closes_at


def _play(phases: list[Phase], now: dt.datetime) -> tuple[list[Resolved], list[Phase]]:
    """Each phase through the engine (nothing stored yet); the ones that failed apart."""
    reads = _Reads(phases)
    played, failed = [], []
    for phase in phases:
        try:
            built = built_before(phase.game, phase, reads.players[phase.game_id])
            played.append(Resolved.play(
                built, phase, reads.votes.get(phase.pk, []), now=now,
                rows=reads.rows.get(phase.pk, []), wills=reads.wills.get(phase.game_id, []),
            ))  # fmt: skip
        except Exception:
            log.exception("resolving phase %s failed; it is closed on its own", phase.pk)
            failed.append(phase)
            continue
        if not phase.is_night and not built.state.over:
            following = reads.next_closes.get((phase.game_id, phase.index + 1))
            played[-1].following = following
    return played, failed


def _store(played: list[Resolved], now: dt.datetime) -> None:
    """Write every resolution: what follows each phase, its record, the results, the
    carried states, the audit."""
    for resolved in played:
        phase, game = resolved.phase, resolved.built.game
        following = resolved.following
        if resolved.opens_night is not None:
            following = phase_open(game, phase.index + 1, now=now, opened_by=phase).closes_at
            phase_open(game, phase.index + 2, now=resolved.opens_night, opened_by=phase)
        elif following is None and not resolved.built.state.over:
            following = phase_open(game, phase.index + 1, now=now, opened_by=phase).closes_at
        resolved.record(following)
    Phase.objects.bulk_update([r.phase for r in played], ["inputs", "outcome"])
    if any(r.outcome.results for r in played):
        counts = dict(
            Result.objects.filter(game_id__in={r.phase.game_id for r in played})
            .values_list("game_id").annotate(n=Count("pk")).order_by()
        )  # fmt: skip
        Result.objects.bulk_create(
            result for r in played for result in r.results(counts.get(r.phase.game_id, 0))
        )
    for resolved in played:
        built = resolved.built
        if built.state.over:
            Game.objects.filter(pk=built.game.pk).update(status=Game.Status.FINISHED)
        snapshots_invalidate(built.game)
    games = {r.phase.game_id for r in played}
    kept = set(KeptSubmission.objects.filter(game_id__in=games, status=KeptSubmission.Status.KEPT)
               .values_list("game_id", flat=True))  # fmt: skip
    for resolved in played:  # an undo's kept submissions come back (issue 12 §3)
        built = resolved.built
        if built.game.pk in kept:
            kept_restore(game=built.game, rules=built.rules, state=built.state, user=None)


def close_batch(ids: list[int]) -> dict[int, str]:
    """Close the phases ``ids`` (due candidates, at most one a game) in one transaction:
    ``committed``, ``closed`` (a night left for the GM), ``not_due`` (not due, waiting,
    taken by another closer, done), or ``retry`` (for the one-by-one path: closed earlier
    and owed its resolution, or its play failed)."""
    results: dict[int, str] = {}
    with transaction.atomic():
        due = []
        clock = timezone.now()
        for phase in _claim(ids):
            if not phase.claimed or phase.waits or phase.game.status != Game.Status.RUNNING:
                results[phase.pk] = "not_due"
            elif phase.status == Phase.Status.CLOSED:
                results[phase.pk] = RETRY
            elif phase.status != Phase.Status.OPEN or phase.closes_at > clock:
                results[phase.pk] = "not_due"
            else:
                due.append(phase)
        if not due:
            return results
        due.sort(key=lambda p: (p.closes_at, p.index))  # the log reads in deadline order
        inflight.wait_settled(max(p.closes_at for p in due))  # votes sent in time
        now = timezone.now()
        resolving = {p.pk for p in due if not p.is_night or p.game.auto_commit_nights}
        taken = _take(due, resolving, now)
        for phase in due:
            results[phase.pk] = "not_due"
        played, failed = _play([p for p in taken if p.pk in resolving], now)
        _put_back(failed)
        _store(played, now)
        events = []
        for phase in sorted(taken, key=lambda p: (p.closes_at, p.index)):
            if phase in failed:
                results[phase.pk] = RETRY
                continue
            events.append(AuditEvent(game=phase.game, kind="deadline",
                                     detail={"phase": phase.label}))  # fmt: skip
            results[phase.pk] = "committed" if phase.pk in resolving else "closed"
        events.extend(r.audit(None) for r in played)
        AuditEvent.objects.bulk_create(events)
    return results
