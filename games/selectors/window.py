"""A day's window for votes given in the forum thread (issue 28 class 6, issue 31 major 2):
one rule deciding whether a forum time is within the phase, used by the GM's entry on a
player's behalf and by the thread import alike, and whether a day past its deadline waits
for its votes to be read from the thread."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Phase, TopicSettings
from games.text.words import moment, phase_name

BEFORE, IN_TIME, LATE, FUTURE = "before", "in_time", "late", "future"


def held_open(phase: Phase) -> bool:
    """A clock paused before its deadline holds the phase open past it; one held after
    the deadline (an undo) does not move the deadline back."""
    return phase.paused_at is not None and phase.paused_at < phase.closes_at


def past_deadline(phase: Phase, now: dt.datetime) -> bool:
    """Whether the phase's deadline has passed (a clock held open before it has not)."""
    return not held_open(phase) and now >= phase.closes_at


def window_end(phase: Phase, now: dt.datetime) -> dt.datetime:
    """The last moment a forum time counts at: the deadline (a post at or after it is
    late), or now while the clock is held open before it."""
    return now if held_open(phase) else min(phase.closes_at, now)


def forum_time_place(phase: Phase, at: dt.datetime, now: dt.datetime) -> str:
    """Where a forum time falls: ``BEFORE`` the phase opened, ``IN_TIME``, ``LATE`` (at
    or after the deadline: a post at 22:00 was written in the deadline's minute), or in
    the ``FUTURE``. The one rule of the GM's entries and of the thread import."""
    if at < phase.opened_at:
        return BEFORE
    if at > now:
        return FUTURE
    return IN_TIME if held_open(phase) or at < phase.closes_at else LATE


def window_text(phase: Phase, now: dt.datetime) -> str:
    """The window in words, with dates, in the one date style: "giovedì 3 dicembre, ore
    10:00 – giovedì 3 dicembre, ore 22:00"."""
    zone = ZoneInfo(phase.game.time_zone)
    end = now if held_open(phase) else phase.closes_at
    return f"{moment(phase.opened_at, zone)} – {moment(end, zone)}"


def _beside(moment_at: dt.datetime, other: dt.datetime, zone: ZoneInfo) -> str:
    """A second moment beside ``other``: only its time when it falls on the same day."""
    if moment_at.astimezone(zone).date() == other.astimezone(zone).date():
        return _("ore %(time)s") % {"time": f"{moment_at.astimezone(zone):%H:%M}"}
    return moment(moment_at, zone)


def place_note(phase: Phase, at: dt.datetime, now: dt.datetime) -> str:
    """Why a forum time does not count, as a sentence a GM reads at a glance (issue 31
    minor: "fuori fase (03/12 18:25 – 03/12 18:26)" read as a window nobody understood):
    "scritto giovedì 3 dicembre, ore 18:25, prima dell'apertura del Giorno 2 (ore 18:26)".
    Empty for a time within the phase; the place is ``forum_time_place``'s."""
    zone = ZoneInfo(phase.game.time_zone)
    place = forum_time_place(phase, at, now)
    words = {"when": moment(at, zone), "phase": phase_name(phase.label)}
    if place == BEFORE:
        words["opened"] = _beside(phase.opened_at, at, zone)
        if phase.is_night:
            return _("scritto %(when)s, prima dell'apertura della %(phase)s (%(opened)s)") % words
        return _("scritto %(when)s, prima dell'apertura del %(phase)s (%(opened)s)") % words
    if place == LATE:
        words["deadline"] = _beside(phase.closes_at, at, zone)
        return _("scritto %(when)s, dopo la scadenza (%(deadline)s): non conta") % words
    if place == FUTURE:
        words["now"] = _beside(now, at, zone)
        return _("scritto %(when)s, più tardi di adesso (%(now)s): ora del forum sbagliata") % words
    return ""


def outside_message(phase: Phase, now: dt.datetime) -> str:
    return _("L'ora del voto è fuori dalla fase: vale solo tra %(window)s.") % {
        "window": window_text(phase, now)
    }


def spans_midnight(phase: Phase) -> bool:
    """Whether the phase's window covers more than one calendar day (the GM's entry then
    asks for the date)."""
    zone = ZoneInfo(phase.game.time_zone)
    return phase.opened_at.astimezone(zone).date() != phase.closes_at.astimezone(zone).date()


def forum_moment(phase: Phase, time: dt.time, day: dt.date | None = None) -> dt.datetime:
    """A forum time "HH:MM" typed by the GM, as a moment in the game's time zone: on
    ``day`` when given; else on the day the phase opened if it is not earlier than the
    opening's time, else on the next day (issue 31 major 2)."""
    zone = ZoneInfo(phase.game.time_zone)
    opened = phase.opened_at.astimezone(zone)
    if day is None:
        day = (
            opened.date()
            if time >= opened.time().replace(second=0, microsecond=0)
            else (opened.date() + dt.timedelta(days=1))
        )
    return dt.datetime.combine(day, time, tzinfo=zone)


def local_stamp(phase: Phase, at: dt.datetime) -> str:
    """A forum time as the GM reads it back: with its date ("venerdì 4 dicembre, ore
    00:10")."""
    return moment(at, ZoneInfo(phase.game.time_zone))


def votes_from_topic(game_id: int) -> bool:
    return TopicSettings.objects.filter(game_id=game_id, votes_from_topic=True).exists()


def waits_for_topic(phase: Phase, now: dt.datetime | None = None) -> bool:
    """A day of a thread-vote game past its deadline and not yet committed (closed by the
    clock, or still open for the few seconds before the tick): it waits for its votes to
    be read from the thread (issue 28 class 6), for the GM's import and commit; players
    can no longer vote on the site. A day held by the GM (an undo) is his already."""
    if phase.is_night or phase.status == Phase.Status.COMMITTED:
        return False
    if phase.status == Phase.Status.OPEN and (
        phase.paused_at is not None or not past_deadline(phase, now or timezone.now())
    ):
        return False
    return votes_from_topic(phase.game_id)


def waiting_since(phase: Phase) -> dt.timedelta:
    return max(dt.timedelta(0), timezone.now() - phase.closes_at)
