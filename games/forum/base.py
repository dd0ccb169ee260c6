"""What every forum parser shares: the post it yields, the clock that resolves relative
dates, the bounds on a page, case- and accent-insensitive forms of text and of names,
and the cutting of a page at its post headers. Pure Python: no Django.

Every pattern over thread text is a google-re2 pattern (linear time, issue 27 §4): no
backreferences and no lookarounds, and the page and its lines are bounded first."""

from __future__ import annotations

import datetime as dt
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol
from zoneinfo import ZoneInfo

import re2

MAX_PAGE = 2_000_000  # characters: a 40-page thread copied as text is about 1 MB
MAX_LINE = 4_000  # characters of one line read (a vote is never longer; the rest is prose)
MAX_TAGS = 200_000  # elements of a saved page (a 50-post page has about 5,000)
MAX_DEPTH = 2_000  # elements nested in one another (forum pages nest some 60; the HTML
# parser's work grows with the square of the depth)
MAX_POSTS = 500  # posts of one saved page (forums show 10 to 100 a page)
MAX_VOTE_LINE = 1_000  # characters of a line read for a vote (a vote is near its start)


class ThreadError(ValueError):
    """A page refused before it is read: ``code`` is a message id for the site
    (``thread.too_long``, ``thread.too_many_tags``), ``limit`` its bound."""

    def __init__(self, code: str, limit: int) -> None:
        super().__init__(code)
        self.code, self.limit = code, limit


@dataclass(frozen=True)
class Clock:
    """What a page is read against. A forum writes "Oggi", "Ieri alle 21:47" and
    "3 ore fa" relative to the moment it rendered the page, that is when the GM copied
    it: ``now`` is that moment and ``today`` its date in the game's zone (``copied_at``
    builds both). ``known``, the folded forum names the site knows (players, aliases,
    the GM), finds the author in a copied layout that does not mark him."""

    today: dt.date
    now: dt.datetime
    zone: ZoneInfo
    known: frozenset[str] = frozenset()

    @classmethod
    def copied_at(
        cls, now: dt.datetime, zone: ZoneInfo, known: frozenset[str] = frozenset()
    ) -> Clock:
        return cls(now.astimezone(zone).date(), now, zone, known)


@dataclass
class ForumPost:
    """One post of the thread: its author, its time (aware), whether the forum gave the
    seconds, and its own lines (quoted text already removed). ``edited_at``: the last
    edit the page shows (``edit_text``: its notice as written; a notice whose time is
    unreadable leaves ``edited_at`` None)."""

    author: str
    at: dt.datetime | None
    seconds: bool
    lines: list[str]
    line_no: int  # where its header is in the paste (1-based), for the GM
    unsure: list[str] = field(default_factory=list)  # a copied quote with no visible end
    when_text: str = ""
    edited_at: dt.datetime | None = None
    edit_text: str = ""
    number: int = 0  # the post's own number in the thread, when the text gives it


class Parser(Protocol):
    key: str
    label: str

    def score(self, text: str) -> int:
        """How many post headers of this format the text holds (0: not this format)."""

    def parse(self, text: str, clock: Clock) -> list[ForumPost]:
        """The posts in ``text``, in the order of the page (their lines still raw)."""

    def copied(self, text: str) -> bool:
        """Whether ``text`` is a page copied as text (not BBCode or Markdown source)."""


class Found:
    """A match of a ``Linear`` pattern: its groups read once (``found["when"]``)."""

    __slots__ = ("_groups", "_match")

    def __init__(self, match: Any, index: dict[str, int]) -> None:
        self._match = match
        groups = match.groups()
        self._groups = {name: groups[i - 1] for name, i in index.items()}

    def __getitem__(self, name: str) -> Any:
        return self._groups[name]

    def group(self, n: int = 0) -> Any:
        return self._match.group(n)

    def groupdict(self) -> dict[str, Any]:
        return dict(self._groups)

    def start(self) -> int:
        return self._match.start()

    def end(self) -> int:
        return self._match.end()


class Linear:
    """A linear-time pattern (google-re2). ``needles``: lower-case strings one of which
    a text must hold to match (checked first: a plain substring test is far cheaper
    than a call into the regex engine, and most lines of a page hold none)."""

    def __init__(self, pattern: str, ignore_case: bool, needles: tuple[str, ...]) -> None:
        self._re = re2.compile(("(?i)" if ignore_case else "") + pattern)
        self._index = dict(self._re.groupindex)
        self._needles = needles
        self._cased = any(n != n.upper() for n in needles)  # letters: compare lower-cased

    def _skip(self, text: str) -> bool:
        if not self._needles:
            return False
        low = text.lower() if self._cased else text
        return not any(n in low for n in self._needles)

    def match(self, text: str) -> Found | None:
        if self._skip(text):
            return None
        found = self._re.match(text)
        return None if found is None else Found(found, self._index)

    def search(self, text: str) -> Found | None:
        if self._skip(text):
            return None
        found = self._re.search(text)
        return None if found is None else Found(found, self._index)

    def finditer(self, text: str) -> Iterator[Found]:
        if self._skip(text):
            return
        for found in self._re.finditer(text):
            yield Found(found, self._index)

    def sub(self, repl: str, text: str) -> str:
        return text if self._skip(text) else self._re.sub(repl, text)

    def split(self, text: str) -> list[str]:
        return self._re.split(text)


def compile_(pattern: str, *, ignore_case: bool = False, needles: tuple[str, ...] = ()) -> Linear:
    """A linear-time pattern (google-re2), tried only on texts holding one of ``needles``."""
    return Linear(pattern, ignore_case, needles)


def fold(text: str) -> str:
    """Case- and accent-insensitive form: 'Perché VOTO' -> 'perche voto'."""
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


_NOT_ALNUM = compile_(r"[^a-z0-9]+")


def name_key(name: str) -> str:
    """A name without case, accents, spaces or punctuation: 'Il_Conte', 'il conte' and
    'IL-CONTE' are one name; so are 'Tizio.Caio' and 'tizio caio'."""
    return _NOT_ALNUM.sub("", fold(name))


def name_words(name: str) -> list[str]:
    """The name's words, folded: 'Tizio.Caio' -> ['tizio', 'caio']."""
    return [w for w in _NOT_ALNUM.split(fold(name)) if w]


def bounded(text: str, *, cut_lines: bool = True) -> str:
    """``text`` with Windows line ends and no-break spaces made plain, each line cut
    to MAX_LINE (not in HTML, whose lines are the markup's); ThreadError if the page is
    longer than MAX_PAGE."""
    if len(text) > MAX_PAGE:
        raise ThreadError("thread.too_long", MAX_PAGE)
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\xa0", " ")
    if cut_lines and any(len(line) > MAX_LINE for line in text.split("\n")):
        text = "\n".join(line[:MAX_LINE] for line in text.split("\n"))
    return text


def split_blocks(
    text: str, header: Any, skip: Callable[[str], bool] = lambda line: False
) -> list[tuple[Any, int, list[str]]]:
    """Cut ``text`` at every line ``header`` matches (and ``skip`` does not): (match,
    line number, body lines)."""
    blocks: list[tuple[Any, int, list[str]]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        match = header.match(line)
        if match and not skip(line):
            blocks.append((match, number, []))
        elif blocks:
            blocks[-1][2].append(line)
    return blocks
