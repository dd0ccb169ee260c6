"""The day's count under the "latest" rule (WWW-R10 / INQ-R7, WWW-D5 / INQ-D6): the ties go
to the candidate whose decisive vote (his latest true vote) came first.

:func:`roles.engine.votes.count_votes` comes here for every day of every game (the
"tipping" rule of WWW-D6 stays there), so this module counts on plain lists indexed by
seat, in one pass over the votes and one over the standing ballots.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any, Final

from roles.engine.model import Execution, Player, Vote

# Sort key of a vote's effective time: (0, at, seq) for a timed vote; a secret-only
# Boia vote counts as later than every other vote (INQ-R49).
LATEST: Final = (1, 0, 0)


def count_latest(
    cast: list[Vote],
    weight: Callable[[str, str, bool], int] | None,
    weighted: Collection[str],
    players: dict[str, Player] | None = None,
) -> Execution:
    """The count under the "latest" rule. A vote's time key ``(0, at, seq)`` orders as its
    place in the list whenever the times never go back (a replay's indexes, a site's
    timestamps in casting order): then the count keeps only indexes, with ``len(cast)``
    for a secret-only vote (INQ-R49); otherwise :func:`_count_keyed`.

    The voters are numbered (by seat, or as they first vote), their standing ballots kept
    in lists; the candidates are few: their totals, decisive times and voters are kept in
    short lists, in the order of their first true vote (the order of the totals).
    ``weight`` (None: every vote weighs 1) weighs the voters in ``weighted``."""
    size = len(cast)
    if size > 1 and not _in_order(cast):
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
    heavy = weight is not None and len(weighted) > 0  # some voter's ballot is weighed
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
        target = vote.target
        if target is None:
            continue  # an abstention counts for nobody
        voter = vote.voter
        w = 1
        if heavy and voter in weighted:
            assert weight is not None
            w = weight(voter, target, False)
            if w <= 0:
                continue  # weighed to nothing: it counts for nobody
        # _tally, written out: it runs for every ballot of every day
        for i in range(len(candidates)):
            candidate = candidates[i]
            if candidate is target or candidate == target:
                totals[i] = totals[i] + w  # (``+=`` on a list item: mypyc's generic add)
                if seq > latest[i]:
                    latest[i] = seq
                    decisive[i] = voter
                break
        else:
            candidates.append(target)
            totals.append(w)
            latest.append(seq)
            decisive.append(voter)
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


def _in_order(cast: list[Vote]) -> bool:
    """Whether the votes' times never go back (times that do not compare: False). Whole
    numbers (a replay's indexes) are compared as such, not through Python's comparison."""
    previous: Any = cast[0].at
    for i in range(1, len(cast)):
        at: Any = cast[i].at
        if isinstance(previous, int) and isinstance(at, int):
            if previous > at:
                return False
        else:
            try:
                if not previous <= at:
                    return False
            except TypeError:  # times that do not compare (None): the tuples decide
                return False
        previous = at
    return True


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
    """:func:`count_latest` on the time keys themselves (times out of order): the standing
    ballots (as :func:`roles.engine.votes.current_ballots` reads them), then one pass over
    the true votes, the public ones (unless a secret vote replaces them) and then the
    secret ones, each target's total, decisive time key and decisive voter kept in one
    list."""
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
