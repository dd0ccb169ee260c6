"""Words as an Italian forum writes them: phases ("Giorno 1", "N1") and dates
("martedì 1 dicembre, ore 22:00"), in the reader's language and the site's local time."""

from __future__ import annotations

import datetime as dt
import re

from django import template
from django.utils import formats, timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from games.text.words import _PHASE, lower_in_italian, moment, phase_name

register = template.Library()

_ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?([+-]\d\d:\d\d|Z)?$")


@register.filter
def phase_short(label: str) -> str:
    """``D1`` -> "G1" (Italian forums' short form), ``N1`` -> "N1"."""
    match = _PHASE.match(str(label or ""))
    if not match:
        return str(label or "")
    kind, number = match.groups()
    if kind == "D":
        return _("G%(n)s") % {"n": number}
    return _("N%(n)s") % {"n": number}


@register.filter
def when(value: dt.datetime | None) -> str:
    """A moment in local time, as a reader writes it: "martedì 1 dicembre, ore 22:00"."""
    if not value:
        return ""
    return moment(value if timezone.is_aware(value) else timezone.make_aware(value))


@register.filter
def audit_time(value: dt.datetime) -> str:
    """A moment of the audit log: local time, to the second ("1 dic 22:30:05")."""
    local = timezone.localtime(value) if timezone.is_aware(value) else value
    return lower_in_italian(formats.date_format(local, "j M H:i:s"))


@register.filter
def local_moment(value: object) -> object:
    """An ISO timestamp (as the audit details store them) as :func:`audit_time` shows
    it, without microseconds; any other value unchanged."""
    if not isinstance(value, str) or not _ISO.match(value):
        return value
    moment = parse_datetime(value)
    return audit_time(moment) if moment else value


@register.filter
def phase_time(value: dt.datetime | None, phase: object) -> str:
    """A submission's time on a phase's lists: "21:47:05" on the phase's day (its
    deadline's date), with the date on any other ("ven 4 dic 00:10:05", issue 31 major 2)."""
    if not value:
        return ""
    local = timezone.localtime(value)
    closes_at = getattr(phase, "closes_at", None)
    if closes_at is not None and timezone.localtime(closes_at).date() == local.date():
        return local.strftime("%H:%M:%S")
    return lower_in_italian(formats.date_format(local, "D j M H:i:s"))


register.filter("phase_name", phase_name)  # D1 -> "Giorno 1" (games/text/words.py)
