"""Deadlines on schedule: each due phase closes once and only once, whatever happens.

A deadline lives on its phase row. A Celery beat tick every few seconds finds what is due
(an ETA task per phase adds promptness, never replaces the tick) and closes it here with a
compare-and-set update inside the same transaction as everything the close does: a close
interrupted by a crash rolls back whole and the next tick does it again; two closers race
for one row update and only one wins. At the vote close the day is resolved (the execution
and its consequences, the post drafted); at the powers deadline the night is previewed for
the GM, or resolved by itself when the game says so.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import time

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models.functions import Now
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Game, Phase
from games.phases import phase_commit
from games.services import audit

log = logging.getLogger(__name__)
# A test hook: seconds to stall inside a close, so a test can kill the worker mid-close.
STALL_ENV = "TABULA_TEST_STALL_CLOSE"


def due_phases() -> list[Phase]:
    """Open, unpaused phases of running games whose deadline has passed (by the database
    clock), oldest deadline first."""
    return list(
        Phase.objects.filter(
            status=Phase.Status.OPEN, paused_at__isnull=True, closes_at__lte=Now(),
            game__status=Game.Status.RUNNING,
        ).order_by("closes_at", "index")
    )  # fmt: skip


@transaction.atomic
def phase_close(phase_id: int) -> str:
    """Close one phase if it is due: ``committed``, ``closed`` (a night left for the GM,
    or waiting for an earlier phase), or ``not_due`` (not due, already closed, or gone)."""
    if not Game.objects.filter(phases=phase_id, status=Game.Status.RUNNING).exists():
        return "not_due"
    # The compare-and-set filters on the row's own columns only: PostgreSQL re-checks them
    # on the latest row version after waiting for a concurrent closer (a join would not be
    # re-checked, and two closers could both win).
    won = Phase.objects.filter(
        pk=phase_id, status=Phase.Status.OPEN, paused_at__isnull=True, closes_at__lte=Now()
    ).update(status=Phase.Status.CLOSED, closed_at=Now())
    if won != 1:
        return "not_due"
    if os.environ.get(STALL_ENV):
        time.sleep(float(os.environ[STALL_ENV]))
    phase = Phase.objects.select_related("game").get(pk=phase_id)
    audit(phase.game, "deadline", phase=phase.label)
    return _resolve_if_due(phase)


def _resolve_if_due(phase: Phase) -> str:
    earlier = phase.game.phases.filter(index__lt=phase.index).exclude(status=Phase.Status.COMMITTED)
    if earlier.exists():
        return "closed"  # it waits for the GM to resolve the earlier phase
    if phase.is_night and not phase.game.auto_commit_nights:
        return "closed"  # the GM previews and commits the night
    phase_commit(phase=phase, user=None)
    return "committed"


def days_end() -> int:
    """WWW-R15 / INQ-R12: at the close of the day (22:15) the day ends, once; logged."""
    ending = list(Phase.objects.filter(
        label__startswith="D", day_ends_at__lte=Now(), day_ended_at__isnull=True
    ).select_related("game"))  # fmt: skip
    ended = 0
    for phase in ending:
        with transaction.atomic():
            won = Phase.objects.filter(pk=phase.pk, day_ended_at__isnull=True).update(
                day_ended_at=Now()
            )
            if won:
                audit(phase.game, "day_closed", phase=phase.label)
                ended += 1
    return ended


def deadlines_run() -> dict[str, int]:
    """Close every due phase, in deadline order; resolve closed days left behind; end the
    days whose close has come."""
    counts: dict[str, int] = {}
    if ended := days_end():
        counts["day_closed"] = ended
    for phase in due_phases():
        result = phase_close(phase.pk)
        counts[result] = counts.get(result, 0) + 1
    for day in Phase.objects.filter(
        status=Phase.Status.CLOSED, label__startswith="D", game__status=Game.Status.RUNNING
    ).order_by("closes_at"):
        with transaction.atomic():
            locked = Phase.objects.select_for_update().get(pk=day.pk)
            if locked.status == Phase.Status.CLOSED and _resolve_if_due(locked) == "committed":
                counts["committed"] = counts.get("committed", 0) + 1
    return counts


@transaction.atomic
def phase_extend(
    *, phase: Phase, closes_at: dt.datetime, user: AbstractBaseUser, reason: str
) -> Phase:
    """Move a phase's deadline (later or earlier); the change is logged and shown."""
    locked = Phase.objects.select_for_update().get(pk=phase.pk)
    if locked.status != Phase.Status.OPEN:
        raise ValidationError(_("Si può spostare solo la scadenza di una fase aperta."))
    old = locked.closes_at
    locked.closes_at = closes_at
    locked.save(update_fields=["closes_at"])
    audit(locked.game, "deadline_moved", user=user, phase=locked.label, old=old.isoformat(),
          new=closes_at.isoformat(), reason=reason)  # fmt: skip
    schedule_close(locked)
    return locked


@transaction.atomic
def phase_pause(*, phase: Phase, user: AbstractBaseUser, reason: str) -> Phase:
    """Stop a phase's clock: it does not close until resumed (submissions still count)."""
    locked = Phase.objects.select_for_update().get(pk=phase.pk)
    if locked.status != Phase.Status.OPEN or locked.paused_at is not None:
        raise ValidationError(_("La fase non è aperta o è già in pausa."))
    locked.paused_at = timezone.now()
    locked.save(update_fields=["paused_at"])
    audit(locked.game, "deadline_paused", user=user, phase=locked.label, reason=reason)
    return locked


@transaction.atomic
def phase_resume(*, phase: Phase, user: AbstractBaseUser) -> Phase:
    """Restart the clock: the deadline moves by the time the phase was paused."""
    locked = Phase.objects.select_for_update().get(pk=phase.pk)
    if locked.paused_at is None:
        raise ValidationError(_("La fase non è in pausa."))
    locked.closes_at += timezone.now() - locked.paused_at
    locked.paused_at = None
    locked.save(update_fields=["closes_at", "paused_at"])
    audit(locked.game, "deadline_resumed", user=user, phase=locked.label,
          new=locked.closes_at.isoformat())  # fmt: skip
    schedule_close(locked)
    return locked


def schedule_close(phase: Phase) -> None:
    """After the transaction commits, an ETA task for promptness (the tick is the guarantee)."""
    from django.conf import settings

    if not settings.TABULA_SCHEDULE_ETA:
        return
    from games.tasks import close_phase

    eta, pk = phase.closes_at, phase.pk

    def send() -> None:
        try:
            close_phase.apply_async(args=[pk], eta=eta)
        except Exception:  # the broker is down: the beat tick closes the phase anyway
            log.warning("ETA close of phase %s not scheduled: the broker is unreachable", pk,
                        exc_info=True)  # fmt: skip

    transaction.on_commit(send, robust=True)


@transaction.atomic
def game_schedule_update(
    *,
    game: Game,
    user: AbstractBaseUser,
    vote_close_time: dt.time,
    day_close_time: dt.time,
    powers_close_time: dt.time,
    auto_commit_nights: bool,
) -> Game:
    """The game's daily deadlines (for the phases opened from now on) and its automatic
    switch; logged."""
    if not vote_close_time <= day_close_time <= powers_close_time:
        raise ValidationError(
            _("Le scadenze vanno in ordine: chiusura votazione, chiusura giorno, consegna poteri.")
        )
    game.vote_close_time, game.day_close_time = vote_close_time, day_close_time
    game.powers_close_time, game.auto_commit_nights = powers_close_time, auto_commit_nights
    game.save(update_fields=["vote_close_time", "day_close_time", "powers_close_time",
                             "auto_commit_nights"])  # fmt: skip
    audit(game, "schedule", user=user, vote=str(vote_close_time), day=str(day_close_time),
          powers=str(powers_close_time), auto=auto_commit_nights)  # fmt: skip
    return game


def deadline_notice(game: Game, phases: list[Phase]) -> str:
    """The last change the GM made to these phases' deadlines, as players are told it."""
    event = (
        game.audit.filter(
            kind__in=["deadline_moved", "deadline_paused", "deadline_resumed"],
            detail__phase__in=[p.label for p in phases],
        )
        .order_by("-at")
        .first()
    )
    if event is None:
        return ""
    if event.kind == "deadline_paused":
        return _("Il master ha sospeso la scadenza di %(phase)s: %(reason)s") % {
            "phase": event.detail["phase"], "reason": event.detail.get("reason", "")}  # fmt: skip
    reason = event.detail.get("reason")
    text = _("Il master ha spostato la scadenza di %(phase)s.") % {"phase": event.detail["phase"]}
    return f"{text} {reason}" if reason else text
