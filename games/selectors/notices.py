"""The notice of a phase the clock resolved by itself (issue 31 major 4): the GM's
dashboard and phase page say what closed, when, and how it ended, until the GM dismisses
it. Read from the audit log: the clock's commit is the ``commit`` event with no user; a
later ``clock_notice_seen`` naming it (the GM's dismissal) or an ``undo`` of its phase
puts it away."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from django.db.models import OuterRef, Subquery
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from games.models import AuditEvent, Game, Phase
from games.text.words import phase_name

SEEN = "clock_notice_seen"


@dataclass(frozen=True)
class ClockNotice:
    event_id: int  # the clock's commit event: the dismissal names it
    label: str  # the phase, "D2"
    at: dt.datetime
    executed: str | None
    deaths: tuple[str, ...]  # everyone who died in it, the executed first
    time_zone: str

    @property
    def sentence(self) -> str:
        """ "Il Giorno 2 si è chiuso da solo giovedì 3 dicembre alle 22:00: giustiziato
        Bruno." in the reader's language."""
        local = self.at.astimezone(ZoneInfo(self.time_zone))
        when = _("%(day)s alle %(time)s") % {"day": date_format(local, "l j F"),
                                             "time": date_format(local, "H:i")}  # fmt: skip
        others = [name for name in self.deaths if name != self.executed]
        params = {"phase": phase_name(self.label), "when": when, "name": self.executed,
                  "names": ", ".join(others)}  # fmt: skip
        if self.label.startswith("N"):
            if not others:
                return _("La %(phase)s si è chiusa da sola %(when)s: nessun morto.") % params
            return _("La %(phase)s si è chiusa da sola %(when)s: morti %(names)s.") % params
        if self.executed:
            text = _("Il %(phase)s si è chiuso da solo %(when)s: giustiziato %(name)s.")
        else:
            text = _("Il %(phase)s si è chiuso da solo %(when)s: nessun giustiziato.")
        if others:
            text = text + " " + _("Morti anche: %(names)s.")
        return text % params


def clock_notices(games: Iterable[Game]) -> dict[int, ClockNotice]:
    """For each of ``games`` whose last phase resolved by the clock has not been put away
    (dismissed, or undone), its notice; three queries whatever the number of games."""
    zones = {game.pk: game.time_zone for game in games}
    if not zones:
        return {}
    latest: dict[int, AuditEvent] = {}
    commits = AuditEvent.objects.filter(kind="commit", user__isnull=True)
    newest = commits.filter(game_id=OuterRef("game_id")).order_by("-at", "-pk").values("pk")[:1]
    for event in commits.filter(game_id__in=zones, pk=Subquery(newest)):
        latest[event.game_id] = event
    if not latest:
        return {}
    away = AuditEvent.objects.filter(
        game_id__in=latest, kind__in=[SEEN, "undo"], at__gte=min(e.at for e in latest.values())
    )
    for event in away:
        commit = latest.get(event.game_id)
        if commit is None or event.at < commit.at:
            continue
        if (event.kind == SEEN and event.detail.get("event") == commit.pk) or (
            event.kind == "undo" and event.detail.get("phase") == commit.detail.get("phase")
        ):
            del latest[event.game_id]
    phases = Phase.objects.filter(
        game_id__in=latest, label__in={e.detail.get("phase") for e in latest.values()},
        status=Phase.Status.COMMITTED,
    ).values_list("game_id", "label", "committed_at", "outcome__execution__executed",
                  "outcome__deaths")  # fmt: skip
    notices = {}
    for game_id, label, at, executed, deaths in phases:
        event = latest.get(game_id)
        if event is None or event.detail.get("phase") != label or at is None:
            continue
        names = [d.get("player") for d in deaths or [] if d.get("player")]
        names.sort(key=lambda name: name != executed)
        notices[game_id] = ClockNotice(event.pk, label, at, executed, tuple(names), zones[game_id])
    return notices


def clock_notice(game: Game) -> ClockNotice | None:
    return clock_notices([game]).get(game.pk)
