"""The day's count under the "latest" rule (WWW-R10 / INQ-R7, WWW-D5 / INQ-D6): the ties go
to the candidate whose decisive vote (his latest true vote) came first.

:func:`roles.engine.votes.count_votes` comes here for every day of every game (the
"tipping" rule of WWW-D6 stays there), so this module counts in one pass over the votes
and one over the standing ballots, each voter's kept in a small compiled object found by
seat (typed fields: nothing is boxed, nothing is looked up by name twice).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any, Final

from roles.engine.model import Execution, Player, Vote

# Sort key of a vote's effective time: (0, at, seq) for a timed vote; a secret-only
# Boia vote counts as later than every other vote (INQ-R49).
LATEST: Final = (1, 0, 0)


class _Ballot:
    """One voter's standing ballots while a day is counted: his public and his secret
    vote (the index of the vote that set it, -1: none; its target) and where each entered
    its placing order (a withdrawn ballot leaves it, placed again it goes last; a changed
    one keeps its place). Typed fields of a compiled class: no int is boxed."""

    __slots__ = ("public", "public_place", "public_target", "secret", "secret_place",
                 "secret_target", "who")  # fmt: skip

    def __init__(self, who: int) -> None:
        self.who = who
        self.public = -1
        self.public_target: str | None = None
        self.public_place = -1
        self.secret = -1
        self.secret_target: str | None = None
        self.secret_place = -1


class _Candidate:
    """A candidate's total, and his decisive (latest) true vote: its time and its voter."""

    __slots__ = ("latest", "name", "total", "voter")

    def __init__(self, name: str, total: int, latest: int, voter: str) -> None:
        self.name = name
        self.total = total
        self.latest = latest
        self.voter = voter


def count_latest(
    cast: list[Vote],
    weight: Callable[[str, str, bool], int] | None,
    weighted: Collection[str],
    players: dict[str, Player] | None = None,
) -> Execution:
    """The count under the "latest" rule. A vote's time key ``(0, at, seq)`` orders as its
    place in the list whenever the times never go back (a replay's indexes, a site's
    timestamps in casting order): then the count keeps only indexes, with ``len(cast)``
    for a secret-only vote (INQ-R49); as soon as a time goes back, :func:`_count_keyed`.

    One pass over the votes keeps each voter's standing ballots (:class:`_Ballot`, found by
    seat, or by number as the voters first vote) and the order the ballots were placed in;
    a second pass over the standing ballots keeps the candidates (:class:`_Candidate`) in
    the order of their first true vote (the order of the totals). ``weight`` (None: every
    vote weighs 1) weighs the voters in ``weighted``."""
    size = len(cast)
    if size == 0:
        return Execution(None, {})
    if players is not None and len(players) <= _MASK_SEATS:
        once = _count_once(cast, weight, weighted, players)
        if once is not None:
            return once
    numbered: dict[str, int] = {} if players is None else _NUMBERED_BY_SEAT
    ballots: list[_Ballot | None] = [None] * (size if players is None else len(players))
    placed: list[_Ballot] = []  # the public ballots in the order they were placed
    secret_placed: list[_Ballot] = []  # the secret ones
    previous: Any = cast[0].at
    for seq in range(size):
        vote = cast[seq]
        at: Any = vote.at
        if seq:  # the times never go back, or the time keys themselves decide
            if _goes_back(previous, at):
                return _count_keyed(cast, weight, weighted)
            previous = at
        if players is not None:
            who = players[vote.voter].seat
        else:
            number = numbered.get(vote.voter)
            if number is None:
                who = numbered[vote.voter] = len(numbered)
            else:
                who = number
        ballot = ballots[who]
        if ballot is None:
            ballot = ballots[who] = _Ballot(who)
        target = vote.target
        if vote.secret:
            if target is None and not vote.abstain:
                ballot.secret = -1  # withdrawn
                ballot.secret_place = -1
            elif ballot.secret < 0:
                ballot.secret, ballot.secret_target = seq, target
                ballot.secret_place = len(secret_placed)
                secret_placed.append(ballot)
            elif _differ(ballot.secret_target, target):  # the same again: the old time stands
                ballot.secret, ballot.secret_target = seq, target
        elif target is None and not vote.abstain:
            ballot.public = -1
            ballot.public_place = -1
        elif ballot.public < 0:
            ballot.public, ballot.public_target = seq, target
            ballot.public_place = len(placed)
            placed.append(ballot)
        elif _differ(ballot.public_target, target):
            ballot.public, ballot.public_target = seq, target
    only = _weighed(weight, weighted, players, numbered)
    candidates: list[_Candidate] = []
    for k in range(len(placed)):
        ballot = placed[k]
        if ballot.public_place != k or ballot.secret >= 0:
            continue  # withdrawn since (or placed again later), or replaced by a secret vote
        target = ballot.public_target
        if target is None:
            continue  # an abstention counts for nobody
        seq = ballot.public
        w = 1
        if only != -2 and (ballot.who == only or (only == -1 and cast[seq].voter in weighted)):
            assert weight is not None
            w = weight(cast[seq].voter, target, False)
            if w <= 0:
                continue  # weighed to nothing: it counts for nobody
        _tally(candidates, cast, target, w, seq, seq)
    for k in range(len(secret_placed)):
        ballot = secret_placed[k]
        if ballot.secret_place != k:
            continue  # withdrawn since, or placed again later
        vote = cast[ballot.secret]
        w = _ballot_weight(vote.voter, vote.target, weight, weighted, True)
        if w <= 0:
            continue
        shown = ballot.public
        key = shown if shown >= 0 else size  # INQ-R49: after every other vote
        _tally(candidates, cast, vote.target or "", w, key, ballot.secret)
    return _executed(candidates)


def _count_once(
    cast: list[Vote],
    weight: Callable[[str, str, bool], int] | None,
    weighted: Collection[str],
    players: dict[str, Player],
) -> Execution | None:
    """:func:`count_latest` of the usual day, in one pass and without a ballot book: every
    voter votes once, for somebody, the times in order, and at most one secret vote, by a
    voter who casts no public one (INQ-R49: it counts after every other vote). Then each
    vote is a standing ballot, placed in the order of the list. Who already voted is a bit
    by seat. None when the day is anything else (a change, a withdrawal, an abstention, a
    time going back): the full count decides it."""
    size = len(cast)
    only = _weighed(weight, weighted, players, _NUMBERED_BY_SEAT)
    voted = 0  # the seats with a public vote, as bits
    secret_seq = secret_seat = -1
    candidates: list[_Candidate] = []
    previous: Any = cast[0].at
    for seq in range(size):
        vote = cast[seq]
        target = vote.target
        if target is None:
            return None
        at: Any = vote.at
        if seq:
            if _goes_back(previous, at):
                return None
            previous = at
        who = players[vote.voter].seat
        if vote.secret:
            if secret_seq >= 0:
                return None
            secret_seq, secret_seat = seq, who
            continue
        bit = 1 << who
        if voted & bit:
            return None
        voted |= bit
        w = 1
        if only != -2 and (who == only or (only == -1 and vote.voter in weighted)):
            assert weight is not None
            w = weight(vote.voter, target, False)
            if w <= 0:
                continue  # weighed to nothing: it counts for nobody
        _tally(candidates, cast, target, w, seq, seq)
    if secret_seq >= 0:
        if voted & (1 << secret_seat):
            return None  # his public vote would be replaced: the full count
        vote = cast[secret_seq]
        w = _ballot_weight(vote.voter, vote.target, weight, weighted, True)
        if w > 0:
            _tally(candidates, cast, vote.target or "", w, size, secret_seq)
    return _executed(candidates)


def _goes_back(previous: Any, at: Any) -> bool:
    """Whether a vote's time comes before the previous vote's (times that do not compare,
    None: yes, the time keys then decide). Whole numbers (a replay's indexes) compare as
    such, not through Python's comparison."""
    if isinstance(previous, int) and isinstance(at, int):
        return previous > at
    try:
        return not previous <= at
    except TypeError:
        return True


def _weighed(
    weight: Callable[[str, str, bool], int] | None,
    weighted: Collection[str],
    players: dict[str, Player] | None,
    numbered: dict[str, int],
) -> int:
    """The number of the voter whose ballots are weighed (the usual case: one, or none):
    -2 when nobody is weighed, -1 when several are (each is then checked by name)."""
    if weight is None or len(weighted) == 0:
        return -2
    if len(weighted) > 1:
        return -1
    for name in weighted:
        if players is not None:
            known = players.get(name)
            return known.seat if known is not None else -2
        return numbered.get(name, -2)
    return -2


def _executed(candidates: list[_Candidate]) -> Execution:
    """The count's outcome: the top total, among the tied the candidate whose decisive
    vote came first (WWW-R10, INQ-R7), the totals in the order of the first true votes."""
    if not candidates:
        return Execution(None, {})
    top = 0
    for candidate in candidates:
        if candidate.total > top:
            top = candidate.total
    chosen: _Candidate | None = None
    counted: dict[str, int] = {}
    for candidate in candidates:
        counted[candidate.name] = candidate.total
        if candidate.total == top and (chosen is None or candidate.latest < chosen.latest):
            chosen = candidate
    assert chosen is not None
    return Execution(chosen.name, counted, chosen.voter)


def _tally(
    candidates: list[_Candidate], cast: list[Vote], target: str, w: int, key: int, seq: int
) -> None:
    """A true vote (``cast[seq]``, its time ``key``) into the tally: its target's total,
    and his decisive (latest) vote."""
    for candidate in candidates:
        name = candidate.name
        if name is target or name == target:
            candidate.total += w
            if key > candidate.latest:
                candidate.latest = key
                candidate.voter = cast[seq].voter
            return
    candidates.append(_Candidate(target, w, key, cast[seq].voter))


# Never written to: the voters numbered by seat need no dict of their own.
_NUMBERED_BY_SEAT: Final[dict[str, int]] = {}
# The most seats whose votes :func:`_count_once` keeps as bits of one machine integer.
_MASK_SEATS: Final = 60


def _differ(one: str | None, other: str | None) -> bool:
    """Two targets differ (the same string object, as a replay's often are, at once)."""
    return one is not other and one != other


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
