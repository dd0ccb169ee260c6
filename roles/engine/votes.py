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
    ``{voter: (target, time key)}`` with time key ``(0, at, seq)``."""
    public: dict[str, tuple] = {}
    secret: dict[str, tuple] = {}
    for seq, vote in enumerate(votes):
        book = secret if vote.secret else public
        target = vote.target
        if target is None and not vote.abstain:
            book.pop(vote.voter, None)  # withdrawn
            continue
        previous = book.get(vote.voter)
        if previous is None or previous[0] != target:  # same target again: old time stands
            book[vote.voter] = (target, (0, vote.at, seq))
    return public, secret


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


@dataclass(slots=True)
class ForumBallot:
    """A public vote as a forum thread shows it: struck once changed or withdrawn."""

    voter: str
    at: Any
    struck: bool = False


def forum_tally(votes: Iterable[Vote]) -> tuple[list[tuple[str, list[ForumBallot]]], set[str]]:
    """The public votes at face value in forum style (the same standing-vote rule as
    :func:`current_ballots`): each target with every vote pointed at it, in order, the
    changed or withdrawn ones struck, most standing votes first; and who has a standing
    vote. A secret vote never shows (INQ-D7)."""
    lines: dict[str, list[ForumBallot]] = {}
    standing: dict[str, tuple[str, ForumBallot]] = {}  # voter -> (target, ballot)
    for vote in votes:
        if vote.secret:
            continue
        previous = standing.get(vote.voter)
        if previous is not None and previous[0] == vote.target:
            continue  # the same target again: the old time stands (WWW-D4, INQ-D5)
        if previous is not None:
            previous[1].struck = True
            del standing[vote.voter]
        if vote.target is not None:
            ballot = ForumBallot(vote.voter, vote.at)
            lines.setdefault(vote.target, []).append(ballot)
            standing[vote.voter] = (vote.target, ballot)
    ordered = sorted(lines.items(), key=lambda line: -sum(not b.struck for b in line[1]))
    return ordered, set(standing)


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
