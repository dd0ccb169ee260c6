"""Forum dates as the four engines write them, in Italian and English: absolute
("mer 12 mar 2025, 21:47", "12/3/2025, 21:47", "2025-03-12 20:47:33 UTC") and relative
to the moment the page was rendered ("Oggi, 21:47", "Ieri alle 23:10", "3 ore fa")."""

from __future__ import annotations

import datetime as dt
import functools

from games.forum.base import Clock, compile_, fold

MONTHS = {
    "gen": 1, "feb": 2, "mar": 3, "apr": 4, "mag": 5, "giu": 6, "lug": 7, "ago": 8,
    "set": 9, "ott": 10, "nov": 11, "dic": 12,
    "jan": 1, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "oct": 10, "dec": 12,
}  # fmt: skip
WEEKDAYS = {
    "lun": 0, "mar": 1, "mer": 2, "gio": 3, "ven": 4, "sab": 5, "dom": 6,
    "mon": 0, "tue": 1, "wed": 2, "thu": 3, "fri": 4, "sat": 5, "sun": 6,
}  # fmt: skip
_TIME = r"(?P<h>\d{1,2})[:.](?P<m>\d{2})(?::(?P<s>\d{2}))?"
_NUMERIC = compile_(
    r"(?P<d>\d{1,2})[/.-](?P<mo>\d{1,2})[/.-](?P<y>\d{2,4}) *,? *(?:alle|ore|at|-)? *" + _TIME,
    needles=("/", ".", "-"),
)
_ISO = compile_(
    r"(?P<y>\d{4})-(?P<mo>\d{2})-(?P<d>\d{2})[t ]"
    + _TIME
    + r"(?:\.\d+)? *(?P<utc>z|utc|\+00:?00)?",
    needles=("-",),
)
_WORDS = compile_(
    r"(?:(?P<wd>[a-z]{3})[a-z]*\.?,? +)?(?P<d>\d{1,2}) +(?P<mon>[a-z]{3})[a-z]*\.? +"
    r"(?P<y>\d{4}) *,? *(?:alle|ore|at|-)? *" + _TIME,
    needles=tuple(MONTHS),
)
_RELATIVE = compile_(
    r"(?P<day>oggi|ieri|today|yesterday|(?P<wd>lun|mar|mer|gio|ven|sab|dom)[a-z]*)"
    r" *,? *(?:alle|ore|at)? *" + _TIME,
    needles=("oggi", "ieri", "today", "yesterday", "lun", "mar", "mer", "gio", "ven", "sab", "dom"),
)
_AGO = compile_(
    r"(?:(?P<n>\d+|un|una|a|an) +(?P<unit>minut|or|hour|second)[a-z]* +(?:fa|ago)"
    r"|(?P<now>meno di un minuto fa|adesso|proprio ora|just now|pochi secondi fa))",
    needles=("fa", "ago", "adesso", "proprio ora", "just now"),
)
MAX_DATE = 120  # a forum date is short: only its first characters are read


def _at(clock: Clock, day: dt.date, h: str, m: str, s: str | None) -> tuple[dt.datetime, bool]:
    moment = dt.datetime.combine(day, dt.time(int(h), int(m), int(s or 0)), tzinfo=clock.zone)
    return moment, s is not None


def parse_when(text: str, clock: Clock) -> tuple[dt.datetime, bool] | None:
    """The moment a forum date shows, with whether it has seconds; None if unreadable.
    Absolute dates are in the game's time zone unless marked UTC; relative ones count
    from ``clock`` (the moment the page was copied)."""
    return _parse_when(" ".join(fold(text[:MAX_DATE]).split()), clock)


@functools.lru_cache(maxsize=4096)  # a day's posts share their minutes: each read once
def _parse_when(folded: str, clock: Clock) -> tuple[dt.datetime, bool] | None:
    try:
        if match := _ISO.search(folded):
            g = match.groupdict()
            zone = dt.UTC if g["utc"] else clock.zone
            moment = dt.datetime(int(g["y"]), int(g["mo"]), int(g["d"]), int(g["h"]),
                                 int(g["m"]), int(g["s"] or 0), tzinfo=zone)  # fmt: skip
            return moment.astimezone(clock.zone), g["s"] is not None
        if match := _NUMERIC.search(folded):
            g = match.groupdict()
            year = int(g["y"]) + (2000 if len(g["y"]) == 2 else 0)
            day = dt.date(year, int(g["mo"]), int(g["d"]))
            return _at(clock, day, g["h"], g["m"], g["s"])
        if (match := _WORDS.search(folded)) and match["mon"] in MONTHS:
            day = dt.date(int(match["y"]), MONTHS[match["mon"]], int(match["d"]))
            return _at(clock, day, match["h"], match["m"], match["s"])
        if match := _RELATIVE.search(folded):
            return _relative(match, clock)
        if match := _AGO.search(folded):
            if match["now"]:
                return clock.now.astimezone(clock.zone).replace(second=0, microsecond=0), False
            n = 1 if match["n"] in ("un", "una", "a", "an") else int(match["n"])
            unit = {"minut": "minutes", "or": "hours", "hour": "hours", "second": "seconds"}
            delta = dt.timedelta(**{unit[match["unit"]]: n})
            moment = (clock.now - delta).astimezone(clock.zone)
            return moment.replace(second=0, microsecond=0), False  # to the minute, no finer
    except (ValueError, OverflowError):  # 31/02, 25:70, year 0...
        return None
    return None


def _relative(match: object, clock: Clock) -> tuple[dt.datetime, bool]:
    word = match["day"]  # type: ignore[index]
    if word in ("oggi", "today"):
        day = clock.today
    elif word in ("ieri", "yesterday"):
        day = clock.today - dt.timedelta(days=1)
    else:  # a weekday: the last one on or before today (forums show it for a week)
        back = (clock.today.weekday() - WEEKDAYS[match["wd"]]) % 7  # type: ignore[index]
        day = clock.today - dt.timedelta(days=back)
    return _at(clock, day, match["h"], match["m"], match["s"])  # type: ignore[index]


def approximate(when_text: str) -> bool:
    """Whether a forum time counts back from the moment the page was shown ("12 minuti
    fa"): two copies of the page may give it a minute or two apart."""
    return bool(_AGO.search(fold(when_text[:MAX_DATE])))
