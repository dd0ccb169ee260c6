"""What every forum parser shares: the post it yields, the clock that resolves relative
dates ("Oggi, 21:47", "Ieri alle 23:10", "12 minuti fa"), Italian and English date
shapes, and the removal of quoted text. Pure Python: no Django."""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Protocol
from zoneinfo import ZoneInfo


@dataclass(frozen=True)
class Clock:
    """What a page is read against: ``today`` (the phase's date in the game's time zone)
    and ``now`` resolve relative dates ("Oggi", "N minuti fa"); ``known``, the folded
    forum names the site knows (players, aliases, the GM), finds the author in a copied
    layout that does not mark him."""

    today: dt.date
    now: dt.datetime
    zone: ZoneInfo
    known: frozenset[str] = frozenset()


@dataclass
class ForumPost:
    """One post of the thread: its author, its time (aware), whether the forum gave the
    seconds, and its own lines (quoted text already removed)."""

    author: str
    at: dt.datetime | None
    seconds: bool
    lines: list[str]
    line_no: int  # where its header is in the paste (1-based), for the GM
    unsure: list[str] = field(default_factory=list)  # a copied quote with no visible end
    when_text: str = ""


class Parser(Protocol):
    key: str
    label: str

    def score(self, text: str) -> int:
        """How many post headers of this format the text holds (0: not this format)."""

    def parse(self, text: str, clock: Clock) -> list[ForumPost]:
        """The posts in ``text``, in the order of the page (their lines still raw)."""

    def copied(self, text: str) -> bool:
        """Whether ``text`` is a page copied as text (not BBCode or Markdown source)."""


def fold(text: str) -> str:
    """Case- and accent-insensitive form: 'Perché VOTO' -> 'perche voto'."""
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


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
_NUMERIC = re.compile(
    r"(?P<d>\d{1,2})[/.-](?P<mo>\d{1,2})[/.-](?P<y>\d{2,4})\s*,?\s*(?:alle|ore|at|-)?\s*" + _TIME
)
_ISO = re.compile(
    r"(?P<y>\d{4})-(?P<mo>\d{2})-(?P<d>\d{2})[t ]"
    + _TIME
    + r"(?:\.\d+)?\s*(?P<utc>z|utc|\+00:?00)?"
)
_WORDS = re.compile(
    r"(?:(?P<wd>[a-z]{3})[a-z]*\.?,?\s+)?(?P<d>\d{1,2})\s+(?P<mon>[a-z]{3})[a-z]*\.?\s+"
    r"(?P<y>\d{4})\s*,?\s*(?:alle|ore|at|-)?\s*" + _TIME
)
_RELATIVE = re.compile(
    r"(?P<day>oggi|ieri|today|yesterday|(?P<wd>lun|mar|mer|gio|ven|sab|dom)[a-z]*)"
    r"\s*,?\s*(?:alle|ore|at)?\s*" + _TIME
)
_AGO = re.compile(
    r"(?:(?P<n>\d+|un|una|a|an)\s+(?P<unit>minut|or|hour|second)[a-z]*\s+(?:fa|ago)"
    r"|(?P<now>meno di un minuto fa|adesso|proprio ora|just now|pochi secondi fa))"
)


def _at(clock: Clock, day: dt.date, h: str, m: str, s: str | None) -> tuple[dt.datetime, bool]:
    moment = dt.datetime.combine(day, dt.time(int(h), int(m), int(s or 0)), tzinfo=clock.zone)
    return moment, s is not None


def parse_when(text: str, clock: Clock) -> tuple[dt.datetime, bool] | None:
    """The moment a forum date shows, with whether it has seconds; None if unreadable.
    Absolute dates are in the game's time zone unless marked UTC."""
    folded = fold(text)
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
            word = match["day"]
            if word in ("oggi", "today"):
                day = clock.today
            elif word in ("ieri", "yesterday"):
                day = clock.today - dt.timedelta(days=1)
            else:  # a weekday: the last one on or before today (forums show it for a week)
                back = (clock.today.weekday() - WEEKDAYS[match["wd"]]) % 7
                day = clock.today - dt.timedelta(days=back)
            return _at(clock, day, match["h"], match["m"], match["s"])
        if match := _AGO.search(folded):
            if match["now"]:
                return clock.now.astimezone(clock.zone).replace(second=0, microsecond=0), False
            n = 1 if match["n"] in ("un", "una", "a", "an") else int(match["n"])
            unit = {"minut": "minutes", "or": "hours", "hour": "hours", "second": "seconds"}
            delta = dt.timedelta(**{unit[match["unit"]]: n})
            moment = (clock.now - delta).astimezone(clock.zone)
            return moment.replace(second=0, microsecond=0), False  # to the minute, no finer
    except ValueError:  # 31/02, 25:70...
        return None
    return None


def approximate(when_text: str) -> bool:
    """Whether a forum time counts back from the moment the page was shown ("12 minuti
    fa"): two copies of the page may give it a minute or two apart."""
    return bool(_AGO.search(fold(when_text)))


# -- quoted text ---------------------------------------------------------------------
_QUOTE_OPEN = re.compile(r"\[quote(?:=[^\]]*|\s[^\]]*)?\]", re.IGNORECASE)
_QUOTE_CLOSE = re.compile(r"\[/quote\]", re.IGNORECASE)
# A copied quote's header: "Tempesta ha scritto: ↑", "Tempesta said:", "CITAZIONE (…)".
_CITE = re.compile(
    r"^\s*(?:(?P<who>.{1,80}?)\s(?:ha scritto|ha detto|scrive|wrote|said)\s*:.*"
    r"|(?:citazione|quote)\b\s*(?:\((?P<who2>[^@)]*?)\s*(?:@.*)?\))?.*)$",
    re.IGNORECASE,
)


def strip_bbcode_quotes(text: str) -> str:
    """``text`` without any [quote]…[/quote] block (nested ones too); an unclosed quote
    hides everything after it."""
    out: list[str] = []
    depth = 0
    pos = 0
    token = re.compile(rf"{_QUOTE_OPEN.pattern}|{_QUOTE_CLOSE.pattern}", re.IGNORECASE)
    for match in token.finditer(text):
        if depth == 0:
            out.append(text[pos : match.start()])
        depth += -1 if match.group().lower() == "[/quote]" else 1
        depth = max(depth, 0)
        pos = match.end()
    if depth == 0:
        out.append(text[pos:])
    return "".join(out)


def own_lines(lines: list[str], earlier: dict[str, list[list[str]]]) -> tuple[list[str], list[str]]:
    """A post's own lines, without quoted text: BBCode [quote] blocks, Markdown '>'
    lines, and in a page copied as text each quote: after its "X ha scritto:" header,
    the longest run of lines that repeats, in order, a post of X earlier in the paste
    (``earlier``: folded author -> his posts' folded non-blank lines; None for a
    source, not a copied page, where quotes are marked up). When the quoted
    post is not in the paste, the quote runs to the next blank line and its lines are
    returned apart (the second list): a copied page does not show where such a quote
    ends, so the GM is asked."""
    text = strip_bbcode_quotes("\n".join(lines)).split("\n")
    keys = [fold(line).strip() for line in text] if earlier else []
    kept: list[str] = []
    unsure: list[str] = []
    i = 0
    while i < len(text):
        line = text[i]
        i += 1
        if line.lstrip().startswith(">"):
            continue
        cite = _CITE.match(line)
        if earlier is None or cite is None or _looks_like_vote_keyword(line):
            kept.append(line)
            continue
        who = fold(cite["who"] or cite["who2"] or "").strip()
        posts = earlier.get(who) or [p for ps in earlier.values() for p in ps]
        quoted = _quoted_run(keys, i, posts)
        if quoted:
            i = quoted
            continue
        while i < len(text) and text[i].strip():  # not found: up to the blank line
            unsure.append(text[i])
            i += 1
    return kept, unsure


def _quoted_run(keys: list[str], start: int, posts: list[list[str]]) -> int:
    """Where the quote starting at ``start`` ends: after the longest run of non-blank
    lines (``keys``: folded) that repeats consecutive lines of one of ``posts`` (0: none)."""
    best = 0
    first_key = next((k for k in keys[start:] if k), None)
    for post in posts:
        for first in range(len(post)):
            if post[first] != first_key:
                continue
            j, k = start, first
            while j < len(keys) and k < len(post):
                key = keys[j]
                if not key:
                    j += 1
                    continue
                if key != post[k]:
                    break
                j, k = j + 1, k + 1
            if k > first:
                best = max(best, j)
    return best


def clean_posts(posts: list[ForumPost], *, copied: bool) -> list[ForumPost]:
    """Remove quoted text from every post, in page order (a quote repeats an earlier
    post). ``copied``: the page was copied as text (quotes show only as text)."""
    earlier: dict[str, list[list[str]]] = {}
    for post in posts:
        raw = post.lines
        post.lines, post.unsure = own_lines(raw, earlier if copied else None)
        if copied:
            mine = [k for line in raw if (k := fold(line).strip())]
            earlier.setdefault(fold(post.author).strip(), []).append(mine)
    return posts


def _looks_like_vote_keyword(line: str) -> bool:
    return fold(line).lstrip(" #[b]").startswith(("voto", "vote", "ritir", "tolgo"))


def split_blocks(text: str, header: re.Pattern[str]) -> list[tuple[re.Match[str], int, list[str]]]:
    """Cut ``text`` at every line ``header`` matches: (match, line number, body lines)."""
    blocks: list[tuple[re.Match[str], int, list[str]]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        match = header.match(line)
        if match:
            blocks.append((match, number, []))
        elif blocks:
            blocks[-1][2].append(line)
    return blocks
