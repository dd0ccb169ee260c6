"""Counting the day vote (WWW §9, INQ §9).

Votes arrive as events in the order they were cast. A voter has one current public
vote; its time is when it was pointed at its current target (re-posting the same
target keeps the old time, WWW-D4 / INQ-D5). The Boia may also hold a secret vote
that replaces his public one (INQ-R45..R49). Ties go to the candidate whose decisive
vote (his latest true vote) came first (WWW-R10 / INQ-R7, WWW-D5 / INQ-D6).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from roles.engine.model import Execution, Vote

# Sort key of a vote's effective time: (0, at, seq) for a timed vote; a secret-only
# Boia vote counts as later than every other vote (INQ-R49).
LATEST = (1, 0, 0)


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


def current_ballots(votes: Iterable[Vote]) -> tuple[dict[str, Ballot], dict[str, Ballot]]:
    """The standing public and secret ballots after every event, in casting order."""
    public: dict[str, Ballot] = {}
    secret: dict[str, Ballot] = {}
    for seq, vote in enumerate(votes):
        book = secret if vote.secret else public
        if vote.target is None and not vote.abstain:
            book.pop(vote.voter, None)  # withdrawn
            continue
        previous = book.get(vote.voter)
        if previous is not None and previous.target == vote.target:
            continue  # same target again: the old time stands
        book[vote.voter] = Ballot(vote.voter, vote.target, vote.at, seq)
    return public, secret


def true_votes(
    public: dict[str, Ballot],
    secret: dict[str, Ballot],
    weight: Callable[[str, str, bool], int],
) -> list[TrueVote]:
    """Each voter's true vote with its weight and the time used for ties."""
    result: list[TrueVote] = []
    for voter, ballot in public.items():
        if voter in secret or ballot.target is None:
            continue  # the secret vote is the true one (INQ-R46)
        result.append(
            TrueVote(voter, ballot.target, weight(voter, ballot.target, False),
                     (0, ballot.at, ballot.seq))
        )  # fmt: skip
    for voter, ballot in secret.items():
        if ballot.target is None:
            continue  # a secret abstention
        shown = public.get(voter)
        key = (0, shown.at, shown.seq) if shown is not None else LATEST
        result.append(TrueVote(voter, ballot.target, weight(voter, ballot.target, True), key))
    return result


def _executed_from(totals: dict[str, int], decisive: dict[str, tuple]) -> str | None:
    if not totals:
        return None
    top = max(totals.values())
    tied = [c for c, t in totals.items() if t == top]
    return min(tied, key=lambda c: decisive[c])


def count_votes(
    votes: Iterable[Vote],
    weight: Callable[[str, str, bool], int] = lambda voter, target, secret: 1,
    decisive_rule: str = "latest",
) -> Execution:
    """Tally the day: totals, the executed player (or None) and his decisive voter."""
    public, secret = current_ballots(votes)
    cast = [v for v in true_votes(public, secret, weight) if v.weight > 0]
    totals: dict[str, int] = {}
    decisive: dict[str, tuple] = {}
    on: dict[str, list[TrueVote]] = {}
    for vote in cast:
        totals[vote.target] = totals.get(vote.target, 0) + vote.weight
        on.setdefault(vote.target, []).append(vote)
        if vote.target not in decisive or vote.key > decisive[vote.target]:
            decisive[vote.target] = vote.key
    executed = _executed_from(totals, decisive)
    voter = None
    if executed is not None:
        ordered = sorted(on[executed], key=lambda v: v.key)
        voter = ordered[-1].voter
        if decisive_rule == "tipping":
            voter = _tipping_voter(executed, ordered, totals, decisive)
    return Execution(executed, totals, voter)


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


def public_tally(votes: Iterable[Vote]) -> dict[str, list[Ballot]]:
    """The public votes at face value, per target, in the order they were pointed there."""
    public, _ = current_ballots(v for v in votes if not v.secret)
    tally: dict[str, list[Ballot]] = {}
    for ballot in sorted(public.values(), key=lambda b: b.seq):
        if ballot.target is not None:
            tally.setdefault(ballot.target, []).append(ballot)
    return tally
