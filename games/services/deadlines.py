"""The GM's hold on deadlines: move, pause, resume, close now, reopen; the daily schedule.

Closing itself is in ``games.services.clock`` (re-exported here). A day's end (22:15) moves with
its vote close, and a night never falls due before its day: moving the day past it moves
the night too. What a GM may enter is bounded (an hour ago to 60 days ahead, or "close
now"), and a deadline already passed is set only when the GM confirms it.
"""

from __future__ import annotations

import datetime as dt

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import AuditEvent, Game, Phase
from games.selectors.notices import SEEN as CLOCK_NOTICE_SEEN
from games.services.clock import days_end, deadlines_run, phase_close  # noqa: F401 (re-exported)
from games.services.game import audit

EARLIEST = dt.timedelta(hours=1)  # a GM may set a deadline up to an hour ago...
LATEST = dt.timedelta(days=60)  # ...and up to 60 days ahead


def out_of_bounds() -> ValidationError:
    return ValidationError(
        _("La scadenza deve cadere tra un'ora fa e 60 giorni da oggi (o usa «Chiudi ora»).")
    )


def deadline_check(closes_at: dt.datetime, *, confirmed_past: bool) -> None:
    """Refuse a deadline a GM may not set (issue 9 finding 1: a year-1 date made every
    tick fail), and one already passed unless he confirmed that the phase closes at once."""
    now = timezone.now()
    if not now - EARLIEST <= closes_at <= now + LATEST:
        raise out_of_bounds()
    if closes_at <= now and not confirmed_past:
        raise ValidationError(
            _("Questa scadenza è già passata: la fase si chiuderà subito. "
              "Spunta la conferma per procedere.")
        )  # fmt: skip


def _shift(phase: Phase, new_closes_at: dt.datetime) -> None:
    """Move a phase's deadline and what moves with it: the day's end (by the same amount,
    WWW-R15 / INQ-R12) and the coming night, when the day would now close after it."""
    delta = new_closes_at - phase.closes_at
    if phase.day_ends_at is not None and phase.day_ended_at is None:
        phase.day_ends_at += delta
    if not phase.is_night:
        night = (
            Phase.objects.select_for_update()
            .filter(game_id=phase.game_id, index=phase.index + 1, status=Phase.Status.OPEN)
            .first()
        )
        if night is not None and night.closes_at < new_closes_at:
            night.closes_at += max(delta, new_closes_at - night.closes_at)
            night.save(update_fields=["closes_at"])
    phase.closes_at = new_closes_at


@transaction.atomic
def phase_extend(
    *,
    phase: Phase,
    closes_at: dt.datetime,
    user: AbstractBaseUser,
    reason: str,
    confirmed_past: bool = True,
) -> Phase:
    """Move a phase's deadline (later or earlier) within the bounds; the day's end moves
    with it; the change is logged and shown. A running clock reopens the phase to players."""
    deadline_check(closes_at, confirmed_past=confirmed_past)
    locked = Phase.objects.select_for_update().get(pk=phase.pk)
    if locked.status != Phase.Status.OPEN:
        raise ValidationError(_("Si può spostare solo la scadenza di una fase aperta."))
    old = locked.closes_at
    _shift(locked, closes_at)
    locked.players_closed = False
    locked.save(update_fields=["closes_at", "day_ends_at", "players_closed"])
    audit(locked.game, "deadline_moved", user=user, phase=locked.label, old=old.isoformat(),
          new=closes_at.isoformat(), reason=reason)  # fmt: skip
    return locked


@transaction.atomic
def phase_reopen(
    *, phase: Phase, closes_at: dt.datetime, user: AbstractBaseUser, reason: str
) -> Phase:
    """Reopen a closed phase that is not resolved yet (a night waiting for the GM) with a
    new deadline, ahead and within the bounds; logged and shown to players."""
    deadline_check(closes_at, confirmed_past=False)
    locked = Phase.objects.select_for_update().get(pk=phase.pk)
    if locked.status != Phase.Status.CLOSED:
        raise ValidationError(_("Si può riaprire solo una fase chiusa e non ancora risolta."))
    old = locked.closes_at
    _shift(locked, closes_at)
    locked.status, locked.closed_at, locked.paused_at = Phase.Status.OPEN, None, None
    locked.save(update_fields=["closes_at", "day_ends_at", "status", "closed_at", "paused_at"])
    audit(locked.game, "deadline_moved", user=user, phase=locked.label, old=old.isoformat(),
          new=closes_at.isoformat(), reason=reason, reopened=True)  # fmt: skip
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
    _shift(locked, locked.closes_at + (timezone.now() - locked.paused_at))
    locked.paused_at = None
    locked.players_closed = False
    locked.save(update_fields=["closes_at", "day_ends_at", "paused_at", "players_closed"])
    audit(locked.game, "deadline_resumed", user=user, phase=locked.label,
          new=locked.closes_at.isoformat())  # fmt: skip
    return locked


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


@transaction.atomic
def clock_notice_dismiss(*, game: Game, user: AbstractBaseUser, event_id: int) -> bool:
    """Put away the notice of the phase the clock resolved (issue 31 major 4): the clock's
    commit event ``event_id`` of ``game``, once (False when it is not one, or already
    put away)."""
    Game.objects.select_for_update().filter(pk=game.pk).first()
    commit = AuditEvent.objects.filter(
        pk=event_id, game=game, kind="commit", user__isnull=True
    ).first()
    if commit is None:
        return False
    seen = AuditEvent.objects.filter(game=game, kind=CLOCK_NOTICE_SEEN, detail__event=event_id)
    if seen.exists():
        return False
    audit(game, CLOCK_NOTICE_SEEN, user=user, event=event_id, phase=commit.detail.get("phase"))
    return True
