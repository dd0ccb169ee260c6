"""Counting the day vote (WWW §9, INQ §9).

Votes arrive as events in the order they were cast. A voter has one current public
vote; its time is when it was pointed at its current target (re-posting the same
target keeps the old time, WWW-D4 / INQ-D5). The Boia may also hold a secret vote
that replaces his public one (INQ-R45..R49). Ties go to the candidate whose decisive
vote (his latest true vote) came first (WWW-R10 / INQ-R7, WWW-D5 / INQ-D6).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from roles.engine.model import Execution, Player, Vote

# Sort key of a vote's effective time: (0, at, seq) for a timed vote; a secret-only
# Boia vote counts as later than every other vote (INQ-R49).
LATEST: Final = (1, 0, 0)


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
    players: Mapping[str, Player] | None = None,
) -> Execution:
    """Tally the day: totals, the executed player (or None) and his decisive voter.

    ``weight(voter, target, secret)`` gives the weight of the true votes of the voters in
    ``weighted`` (every other vote weighs 1). ``players``: the game's players by name, every
    voter among them (the engine's votes are checked): their seats number the ballots.
    This runs once per day of every game, so it works on plain tuples.
    """
    if decisive_rule != "tipping":
        return _count_latest(votes, weight if weighted else None, weighted, players)
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


def _count_latest(
    votes: Iterable[Vote],
    weight: Callable[[str, str, bool], int] | None,
    weighted: Collection[str],
    players: Mapping[str, Player] | None = None,
) -> Execution:
    """:func:`count_votes` under the "latest" rule. A vote's time key ``(0, at, seq)``
    orders as its place in the list whenever the times never go back (a replay's indexes, a
    site's timestamps in casting order): then the count keeps only indexes, with
    ``len(votes)`` for a secret-only vote (INQ-R49); otherwise :func:`_count_keyed`. The
    voters are numbered (by seat, or as they first vote), their standing ballots kept in
    lists; the candidates are few: their totals, decisive times and voters are kept in
    short lists, in the order of their first true vote (the order of the totals)."""
    cast: list[Vote] = votes if isinstance(votes, list) else list(votes)
    size = len(cast)
    if size > 1:
        try:
            previous = cast[0].at
            for i in range(1, size):
                at = cast[i].at
                if not previous <= at:
                    return _count_keyed(cast, weight, weighted)
                previous = at
        except TypeError:  # times that do not compare (None): the tuples decide
            return _count_keyed(cast, weight, weighted)
    numbered: dict[str, int] = {}
    seats = len(players) if players is not None else size
    # Each voter's standing public and secret vote (its index, -1: none), and where his
    # public ballot entered ``order`` (the order the ballots were placed in: a withdrawn
    # one leaves it, placed again it goes last).
    public = [-1] * seats
    secret = [-1] * seats
    placed = [-1] * seats
    order: list[int] = []
    secrets = 0
    for seq in range(size):
        vote = cast[seq]
        if players is not None:
            who = players[vote.voter].seat
        else:
            number = numbered.get(vote.voter)
            if number is None:
                who = numbered[vote.voter] = len(numbered)
            else:
                who = number
        target = vote.target
        if vote.secret:
            secrets += 1
            if target is None and not vote.abstain:
                secret[who] = -1  # withdrawn
            else:
                standing = secret[who]
                if standing < 0 or _differ(cast[standing].target, target):
                    secret[who] = seq  # the same target again: the old time stands
        elif target is None and not vote.abstain:
            public[who] = -1
            placed[who] = -1
        else:
            standing = public[who]
            if standing < 0:
                public[who] = seq
                placed[who] = len(order)
                order.append(who)
            elif _differ(cast[standing].target, target):
                public[who] = seq
    candidates: list[str] = []
    totals: list[int] = []
    latest: list[int] = []  # the time of each candidate's decisive (latest) true vote
    decisive: list[str] = []  # its voter
    for k in range(len(order)):
        who = order[k]
        if placed[who] != k or (secrets and secret[who] >= 0):
            continue  # withdrawn since (or placed again later), or replaced by a secret vote
        seq = public[who]
        vote = cast[seq]
        w = _ballot_weight(vote.voter, vote.target, weight, weighted, False)
        if w > 0:
            _tally(candidates, totals, latest, decisive, vote.target or "", w, seq, vote.voter)
    if secrets:
        for seq in _secret_ballots(cast):
            vote = cast[seq]
            w = _ballot_weight(vote.voter, vote.target, weight, weighted, True)
            if w <= 0:
                continue
            voter = vote.voter
            who = players[voter].seat if players is not None else numbered[voter]
            shown = public[who]
            key = shown if shown >= 0 else size  # INQ-R49: after every other vote
            _tally(candidates, totals, latest, decisive, vote.target or "", w, key, voter)
    if not candidates:
        return Execution(None, {})
    top = 0
    for total in totals:
        if total > top:
            top = total
    chosen = -1  # among the tied, the one whose decisive vote came first
    counted: dict[str, int] = {}
    for i in range(len(candidates)):
        total = totals[i]
        counted[candidates[i]] = total
        if total == top and (chosen < 0 or latest[i] < latest[chosen]):
            chosen = i
    return Execution(candidates[chosen], counted, decisive[chosen])


def _differ(one: str | None, other: str | None) -> bool:
    """Two targets differ (the same string object, as a replay's often are, at once)."""
    return one is not other and one != other


def _secret_ballots(cast: list[Vote]) -> list[int]:
    """The standing secret ballots (the indexes of their votes), in the order they were
    placed (a withdrawn ballot leaves it, a changed one keeps its place): the secret votes
    are few, so they are read again here."""
    ballots: dict[str, int] = {}
    for seq in range(len(cast)):
        vote = cast[seq]
        if not vote.secret:
            continue
        target = vote.target
        if target is None and not vote.abstain:
            ballots.pop(vote.voter, None)
        else:
            standing = ballots.get(vote.voter)
            if standing is None or cast[standing].target != target:
                ballots[vote.voter] = seq
    return list(ballots.values())


def _ballot_weight(
    voter: str, target: str | None, weight: Callable[[str, str, bool], int] | None,
    weighted: Collection[str], secret: bool,
) -> int:  # fmt: skip
    """What ``voter``'s ballot puts on ``target``: 0 for no target, else his weight (1
    unless the setup weighs him; 0 or less: it counts for nobody)."""
    if target is None:
        return 0
    if weight is not None and voter in weighted:
        return weight(voter, target, secret)
    return 1


def _tally(
    candidates: list[str], totals: list[int], latest: list[int], decisive: list[str],
    target: str, w: int, key: int, voter: str,
) -> None:  # fmt: skip
    """A true vote into the tally: the target's total, and his decisive (latest) vote."""
    for i in range(len(candidates)):
        candidate = candidates[i]
        if candidate is target or candidate == target:
            totals[i] = totals[i] + w
            if key > latest[i]:
                latest[i] = key
                decisive[i] = voter
            return
    candidates.append(target)
    totals.append(w)
    latest.append(key)
    decisive.append(voter)


def _count_keyed(
    votes: list[Vote],
    weight: Callable[[str, str, bool], int] | None,
    weighted: Collection[str],
) -> Execution:
    """:func:`_count_latest` on the time keys themselves (times out of order): the standing
    ballots (as :func:`current_ballots` reads them), then one pass over the true votes, the
    public ones (unless a secret vote replaces them) and then the secret ones, each target's
    total, decisive time key and decisive voter kept in one list."""
    public: dict[str, tuple[str | None, tuple]] = {}
    secret: dict[str, tuple[str | None, tuple]] = {}
    for seq, vote in enumerate(votes):
        book = secret if vote.secret else public
        target = vote.target
        if target is None and not vote.abstain:
            book.pop(vote.voter, None)  # withdrawn
        else:
            previous = book.get(vote.voter)
            if previous is None or previous[0] != target:  # same target: old time stands
                book[vote.voter] = (target, (0, vote.at, seq))
    tally: dict[str, list] = {}  # target -> [total, decisive key, decisive voter]
    for voter, (target, key) in public.items():
        if voter not in secret:
            w = _ballot_weight(voter, target, weight, weighted, False)
            if w > 0:
                _add_ballot(tally, target or "", w, key, voter)
    if secret:
        for voter, (target, _) in secret.items():
            w = _ballot_weight(voter, target, weight, weighted, True)
            if w > 0:
                shown = public.get(voter)
                key = shown[1] if shown is not None else LATEST  # INQ-R49
                _add_ballot(tally, target or "", w, key, voter)
    if not tally:
        return Execution(None, {})
    totals = {target: entry[0] for target, entry in tally.items()}
    top = max(totals.values())
    executed = ""  # among the tied, the one whose decisive vote came first
    best: list | None = None
    for target, entry in tally.items():
        if entry[0] == top and (best is None or entry[1] < best[1]):
            executed, best = target, entry
    assert best is not None
    return Execution(executed, totals, best[2])


def _add_ballot(tally: dict[str, list], target: str, w: int, key: tuple, voter: str) -> None:
    """A true vote into the tally: the target's total, and his decisive (latest) vote."""
    entry = tally.get(target)
    if entry is None:
        tally[target] = [w, key, voter]
    else:
        entry[0] += w
        if key > entry[1]:
            entry[1] = key
            entry[2] = voter


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
    true: dict[str, list[tuple[str, tuple]]] = {}
    for voter, (target, key) in public.items():
        if target is not None and voter not in secret:
            true.setdefault(target, []).append((voter, key))
    for voter, (target, _key) in secret.items():
        if target is not None:
            shown = public.get(voter)
            true.setdefault(target, []).append((voter, shown[1] if shown else LATEST))
    return TrueVotes(public, secret, true)
