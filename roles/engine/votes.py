"""Counting the day vote (WWW §9, INQ §9).

Votes arrive as events in the order they were cast. A voter has one current public
vote; its time is when it was pointed at its current target (re-posting the same
target keeps the old time, WWW-D4 / INQ-D5). The Boia may also hold a secret vote
that replaces his public one (INQ-R45..R49). Ties go to the candidate whose decisive
vote (his latest true vote) came first (WWW-R10 / INQ-R7, WWW-D5 / INQ-D6).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from typing import Any

from roles.engine.model import Execution, Player, Vote
from roles.engine.tally import LATEST, count_latest  # LATEST: the pages sort by it too


@dataclass(slots=True)
class Ballot:
    voter: str
    target: str | None
    at: Any
    seq: int


@dataclass(slots=True)
class TrueVote:
    voter: str
    target: str
    weight: int
    key: tuple


def current_ballots(votes: Iterable[Vote]) -> tuple[dict[str, tuple], dict[str, tuple]]:
    """The standing public and secret ballots after every event, in casting order:
    ``{voter: (target, time key)}`` with time key ``(0, at, seq)`` (:class:`StandingBallots`)."""
    tally = StandingBallots()
    for vote in votes:  # compiled: a native call each, no bound method made
        tally.add(vote.voter, vote.target, vote.at, vote.secret, vote.abstain)
    return tally.public, tally.secret


def _executed_from(totals: dict[str, int], decisive: dict[str, tuple]) -> str | None:
    if not totals:
        return None
    top = max(totals.values())
    tied = [c for c, t in totals.items() if t == top]
    if len(tied) == 1:
        return tied[0]
    return min(tied, key=decisive.__getitem__)


def count_votes(
    votes: Iterable[Vote],
    weight: Callable[[str, str, bool], int] | None = None,
    decisive_rule: str = "latest",
    weighted: Collection[str] = (),
    players: dict[str, Player] | None = None,
) -> Execution:
    """Tally the day: totals, the executed player (or None) and his decisive voter.

    ``weight(voter, target, secret)`` gives the weight of the true votes of the voters in
    ``weighted`` (every other vote weighs 1). ``players``: the game's players by name, every
    voter among them (the engine's votes are checked): their seats number the ballots.
    This runs once per day of every game, so it works on plain tuples.
    """
    if decisive_rule != "tipping":
        listed = votes if isinstance(votes, list) else list(votes)
        return count_latest(listed, weight if weighted else None, weighted, players)
    return _count_tipping(votes, weight, weighted)


def _count_tipping(
    votes: Iterable[Vote],
    weight: Callable[[str, str, bool], int] | None,
    weighted: Collection[str],
) -> Execution:
    """:func:`count_votes` under the "tipping" rule (WWW-D6), apart: compiled, its sort key
    (a lambda) would make every count build an environment for it."""
    public, secret = current_ballots(votes)
    cast: list[tuple[str, str, int, tuple]] = []  # voter, target, weight, time key
    for voter, (target, key) in public.items():
        if target is not None and voter not in secret:
            w = weight(voter, target, False) if voter in weighted and weight else 1
            cast.append((voter, target, w, key))
    for voter, (target, _) in secret.items():
        if target is not None:
            shown = public.get(voter)
            key = shown[1] if shown is not None else LATEST  # INQ-R49
            w = weight(voter, target, True) if voter in weighted and weight else 1
            cast.append((voter, target, w, key))
    totals: dict[str, int] = {}
    decisive: dict[str, tuple] = {}
    latest: dict[str, str] = {}  # target -> the voter of his decisive vote
    for voter, target, w, key in cast:
        if w <= 0:
            continue
        totals[target] = totals.get(target, 0) + w
        if key > decisive.get(target, (-1,)):
            decisive[target] = key
            latest[target] = voter
    executed = _executed_from(totals, decisive)
    decisive_voter = latest.get(executed) if executed is not None else None
    if executed is not None:
        on = sorted(
            (TrueVote(v, t, w, k) for v, t, w, k in cast if t == executed and w > 0),
            key=lambda tv: tv.key,
        )
        decisive_voter = _tipping_voter(executed, on, totals, decisive)
    return Execution(executed, totals, decisive_voter)


def _tipping_voter(
    executed: str, ordered: list[TrueVote], totals: dict[str, int], decisive: dict[str, tuple]
) -> str:
    """The earliest vote on ``executed`` with which he was already the one executed (WWW-D6)."""
    running = 0
    for vote in ordered:
        running += vote.weight
        trial_totals = {**totals, executed: running}
        trial_decisive = {**decisive, executed: vote.key}
        if _executed_from(trial_totals, trial_decisive) == executed:
            return vote.voter
    return ordered[-1].voter


class ForumBallot:
    """A public vote as a forum thread shows it: struck once changed or withdrawn.

    Written out rather than a dataclass: compiled, a dataclass's init is interpreted, and
    a flooded day makes one ballot per vote change."""

    __slots__ = ("at", "struck", "voter")

    voter: str
    at: Any
    struck: bool

    def __init__(self, voter: str, at: Any, struck: bool = False) -> None:
        self.voter = voter
        self.at = at
        self.struck = struck

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ForumBallot):
            return NotImplemented
        return (self.voter, self.at, self.struck) == (other.voter, other.at, other.struck)

    def __repr__(self) -> str:
        return f"ForumBallot(voter={self.voter!r}, at={self.at!r}, struck={self.struck!r})"


class StandingBallots:
    """The day's vote events followed one by one, in casting order (:meth:`add`): each
    voter's standing public and secret ballots (:func:`current_ballots`), as of the latest
    event. A ballot keeps the time it was pointed at its target: the same target again
    changes nothing (WWW-D4, INQ-D5); a withdrawal ends it. A secret vote (the Boia's,
    INQ-R45..R49) has a book of its own."""

    __slots__ = ("events", "public", "secret")

    events: int
    public: dict[str, tuple]
    secret: dict[str, tuple]

    def __init__(self) -> None:
        self.events = 0  # the events added: the next one's place (its time key's seq)
        # {voter: (target, (0, at, seq))}: target None with ``abstain``, a vote for nobody
        self.public = {}
        self.secret = {}

    def add(self, voter: str, target: str | None, at: Any, secret: bool, abstain: bool) -> int:
        """The next vote event (``target`` None: withdrawn, or for nobody with
        ``abstain``); returns its place among the day's events."""
        seq = self.events
        self.events = seq + 1
        book = self.secret if secret else self.public
        if target is None and not abstain:
            book.pop(voter, None)  # withdrawn
        else:
            previous = book.get(voter)
            if previous is None or previous[0] != target:  # same target again: old time stands
                book[voter] = (target, (0, at, seq))
        return seq

    def true_votes(self) -> TrueVotes:
        """:func:`true_votes` of the events added (copies of the standing ballots)."""
        return true_votes_of(dict(self.public), dict(self.secret))


class _Line:
    """A target's line on the forum: every public vote pointed at him, in order, whether
    each is struck (kept apart: a page copies them as of its reading, while a ballot's own
    flag moves on with later events), and how many stand."""

    __slots__ = ("ballots", "standing", "struck", "target")

    target: str
    ballots: list[ForumBallot]
    struck: list[bool]
    standing: int

    def __init__(self, target: str) -> None:
        self.target = target
        self.ballots = []
        self.struck = []
        self.standing = 0


class DayTally(StandingBallots):
    """:class:`StandingBallots`, and the forum-style lines of the public votes
    (:func:`forum_tally`), as of the latest event: a page that follows a flooded day keeps
    one and adds the votes cast since it last looked. A secret vote never shows on the
    forum (INQ-D7)."""

    __slots__ = ("_lines", "_standing")

    _lines: dict[str, _Line]
    _standing: dict[str, tuple[_Line, ForumBallot, int]]  # voter -> his ballot, its place

    def __init__(self) -> None:
        super().__init__()
        self._lines = {}
        self._standing = {}

    def add(self, voter: str, target: str | None, at: Any, secret: bool, abstain: bool) -> int:
        seq = super().add(voter, target, at, secret, abstain)
        if not secret:
            self._show(voter, target, at)
        return seq

    def _show(self, voter: str, target: str | None, at: Any) -> None:
        """A public vote on the forum: the voter's standing ballot struck when it changes
        or goes (a vote for nobody shows as none), a new ballot on a new target."""
        previous = self._standing.get(voter)
        if previous is not None:
            line, ballot, place = previous
            if line.target == target:
                return  # the same target again: the old ballot stands (WWW-D4, INQ-D5)
            ballot.struck = True
            line.struck[place] = True
            line.standing -= 1
            if target is None:
                del self._standing[voter]
        if target is not None:
            on = self._lines.get(target)
            if on is None:
                on = self._lines[target] = _Line(target)
            new = ForumBallot(voter, at)
            self._standing[voter] = (on, new, len(on.ballots))
            on.ballots.append(new)
            on.struck.append(False)
            on.standing += 1

    def _order(self) -> list[_Line]:
        """The lines, most standing votes first (ties: the first pointed at first)."""
        return sorted(self._lines.values(), key=lambda line: -line.standing)

    def forum(self) -> list[tuple[str, list[ForumBallot]]]:
        """:func:`forum_tally`'s lines: the tally's own ballots, whose flags later events
        strike."""
        return [(line.target, line.ballots) for line in self._order()]

    def lines(self) -> list[tuple[str, list[ForumBallot], list[bool]]]:
        """The forum lines as of now, each with whether each ballot is struck (copies:
        later events leave them as they are)."""
        return [(line.target, list(line.ballots), list(line.struck)) for line in self._order()]

    def voted(self) -> set[str]:
        """Who has a standing public vote (a vote for nobody is none)."""
        return set(self._standing)


def forum_tally(votes: Iterable[Vote]) -> tuple[list[tuple[str, list[ForumBallot]]], set[str]]:
    """The public votes at face value in forum style (the same standing-vote rule as
    :func:`current_ballots`, :class:`DayTally`): each target with every vote pointed at
    it, in order, the changed or withdrawn ones struck, most standing votes first; and who
    has a standing vote. A secret vote never shows (INQ-D7)."""
    tally = DayTally()
    for vote in votes:  # compiled: a native call each, no bound method made
        tally.add(vote.voter, vote.target, vote.at, vote.secret, vote.abstain)
    return tally.forum(), tally.voted()


def public_tally(votes: Iterable[Vote]) -> dict[str, list[Ballot]]:
    """The public votes at face value, per target, in the order they were pointed there."""
    public, _ = current_ballots(v for v in votes if not v.secret)
    ordered = sorted(public.items(), key=lambda item: item[1][1])
    tally: dict[str, list[Ballot]] = {}
    for voter, (target, (_, at, seq)) in ordered:
        if target is not None:
            tally.setdefault(target, []).append(Ballot(voter, target, at, seq))
    return tally


@dataclass(slots=True)
class TrueVotes:
    """The day's standing ballots and each candidate's true votes, by the rules of
    :func:`count_votes` (each weighing 1): a public vote counts unless its voter holds a
    secret vote, which counts instead, with the time of his public vote (the latest of
    all when he has none, INQ-R49)."""

    public: dict[str, tuple]  # {voter: (target or None, time key)}: standing public ballots
    secret: dict[str, tuple]  # the same for the secret ballots
    true: dict[str, list[tuple[str, tuple]]]  # {candidate: [(voter, time key)]}: public first

    def decisive(self, candidate: str) -> tuple[str, tuple] | None:
        """The voter and time key of ``candidate``'s latest true vote: on a tie, the
        candidate whose decisive vote came first is executed (WWW-R10, INQ-R7)."""
        votes = self.true.get(candidate)
        return max(votes, key=lambda vote: vote[1]) if votes else None

    def face(self) -> dict[str, int]:
        """Each candidate's standing public votes at face value (the forum's count)."""
        counts: dict[str, int] = {}
        for target, _key in self.public.values():
            if target is not None:
                counts[target] = counts.get(target, 0) + 1
        return counts


def true_votes(votes: Iterable[Vote]) -> TrueVotes:
    """The standing ballots of ``votes`` (in casting order) and each candidate's true votes,
    for a page that explains the count (who is tied, whose vote was decisive)."""
    public, secret = current_ballots(votes)
    return true_votes_of(public, secret)


def true_votes_of(public: dict, secret: dict) -> TrueVotes:
    """``true_votes`` from the standing ballots (voter: (target, time key)) already known."""
    true: dict[str, list[tuple[str, tuple]]] = {}
    for voter, (target, key) in public.items():
        if target is not None and voter not in secret:
            true.setdefault(target, []).append((voter, key))
    for voter, (target, _key) in secret.items():
        if target is not None:
            shown = public.get(voter)
            true.setdefault(target, []).append((voter, shown[1] if shown else LATEST))
    return TrueVotes(public, secret, true)
