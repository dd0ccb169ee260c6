"""The vote events that decide a day: the GM's preview of a flooded day resolves it from
these, with the same outcome as the commit, which stores and resolves every event.

The engine reads a day's vote events in casting order (roles.engine.votes): each voter's
standing public and secret ballots, the time each was pointed at its target, the order in
which its books list them, and the refusals of the rules (a change where changes are off,
WWW-D4 / INQ-D5; the Boia's secret withdrawal where it is off, INQ-D7). A voter who changed
his vote a thousand times leaves a handful of events that decide all of these.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(slots=True)
class _Ballot:
    """One voter's public or secret ballot, followed through the events."""

    events: int = 0
    target: object = None
    start: int | None = None  # the event that pointed it at its target (None: withdrawn)
    before: int | None = None  # the ballot's event before that one
    withdrawn: int | None = None  # its last withdrawal
    back: int | None = None  # its event after the last withdrawal
    last: int | None = None


class Deciding:
    """:func:`deciding_votes`, followed event by event: a flooded day's page adds the votes
    cast since it last looked (``add``) and reads the places kept so far (``kept``)."""

    __slots__ = ("_books", "_keep", "_seen")

    def __init__(self) -> None:
        self._keep: set[int] = set()
        self._seen: set[tuple] = set()
        self._books: dict[tuple, _Ballot] = {}

    def add(self, i: int, vote: tuple) -> None:
        """The event ``vote`` (``(voter, target, secret, abstain)``, legal) at place ``i``
        (places rise from one call to the next)."""
        voter, target, secret, abstain = vote
        if vote not in self._seen:
            self._seen.add(vote)
            self._keep.add(i)
        book = self._books.get((voter, secret))
        if book is None:
            book = self._books[voter, secret] = _Ballot()
        if book.events < 2:
            self._keep.add(i)
        book.events += 1
        if target is None and not abstain:  # withdrawn
            book.start, book.withdrawn, book.back = None, i, None
        else:
            if book.withdrawn is not None and book.back is None:
                book.back = i
            if book.start is None or book.target != target:  # pointed at another target
                book.target, book.start, book.before = target, i, book.last
        book.last = i

    def kept(self) -> list[int]:
        """The places kept of the events added so far, in order."""
        keep = set(self._keep)
        for book in self._books.values():
            decisive = (book.start, book.before) if book.start is not None else (book.last,)
            keep.update(i for i in (*decisive, book.withdrawn, book.back) if i is not None)
        return sorted(keep)


def deciding_votes(votes: Sequence[tuple]) -> list[int]:
    """The places, in order, of the events of ``votes`` (``(voter, target, secret,
    abstain)`` in casting order, each legal) that the engine resolves the day from exactly
    as from them all, when each keeps its time (its place in the whole list).

    Kept, for each voter's public and secret ballot: its first two events (a second one is
    refused where changes are off); the event that pointed it at its standing target and
    the one before it (which reads that the target changed), or, withdrawn, its last
    event; its last withdrawal and the event after it (the engine's books list a ballot
    from there: the order of the totals); and the first event of each distinct vote (a
    vote the rules refuse whatever its time). Every other event repeats a kept vote
    before the ballot's last change, or its standing target after it: the standing
    ballots, their times and order, and every count are the same without them."""
    deciding = Deciding()
    for i, vote in enumerate(votes):
        deciding.add(i, vote)
    return deciding.kept()
