"""The day's count under the "latest" rule (WWW-R10 / INQ-R7, WWW-D5 / INQ-D6): the ties go
to the candidate whose decisive vote (his latest true vote) came first.

:func:`roles.engine.votes.count_votes` comes here for every day of every game (the
"tipping" rule of WWW-D6 stays there), so the usual day (every voter votes once) is
counted in one pass over the votes, who voted a bit by seat; any other in one pass over
the votes and one over the standing ballots, kept as the indexes of the votes that set
them: nothing is made per voter, and each voter is looked up by name once.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any, Final

from roles.engine.model import Execution, Player, Vote

# Sort key of a vote's effective time: (0, at, seq) for a timed vote; a secret-only
# Boia vote counts as later than every other vote (INQ-R49).
LATEST: Final = (1, 0, 0)


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
    The usual day (:func:`_count_once`) is counted in one pass; any other, by
    :func:`_count_full`. ``weight`` (None: every vote weighs 1) weighs the voters in
    ``weighted``."""
    if not cast:
        return Execution(None, {})
    if players is not None:
        once = _count_once(cast, weight, weighted, players)
        if once is not None:
            return once
    return _count_full(cast, weight, weighted, players)


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
    time going back): :func:`_count_full` decides it."""
    size = len(cast)
    only = _weighed(weight, weighted, players, _BY_SEAT)
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
        _tally(candidates, target, w, seq, vote.voter)
    if secret_seq >= 0:
        if voted & (1 << secret_seat):
            return None  # his public vote would be replaced: the full count
        vote = cast[secret_seq]
        w = _ballot_weight(vote.voter, vote.target, weight, weighted, True)
        if w > 0:
            _tally(candidates, vote.target or "", w, size, vote.voter)
    return _executed(candidates)


def _count_full(
    cast: list[Vote],
    weight: Callable[[str, str, bool], int] | None,
    weighted: Collection[str],
    players: dict[str, Player] | None,
) -> Execution:
    """:func:`count_latest` of any day. One pass over the votes places the standing
    ballots: each public one as the index of the vote that set it, in the order the
    ballots were placed (a withdrawn ballot leaves its place, placed again it goes last; a
    changed one keeps its place), who holds one a bit by seat (or by number as the voters
    first vote), so only a voter's second vote looks for his ballot; the secret ballots
    (INQ-R45) the same, apart. A second pass over the standing ballots keeps the
    candidates (:class:`_Candidate`) in the order of their first true vote (the order of
    the totals)."""
    size = len(cast)
    # without players: the voters numbered as they come (with them, never written to)
    numbered: dict[str, int] = {} if players is None else _BY_SEAT
    only = _weighed(weight, weighted, players, numbered)
    voted = 0  # the seats with a standing public ballot, as bits
    order: list[int] = []  # the public ballots in placing order: their votes' indexes
    only_place = -1  # the place of the weighed voter's standing public ballot
    secrets = 0  # the seats with a standing secret ballot
    secret_order: list[int] = []  # the secret ballots, the same
    secret_seats: list[int] = []  # and their voters' seats
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
        bit = 1 << who
        target = vote.target
        withdrawn = target is None and not vote.abstain
        if vote.secret:
            if secrets & bit:
                k = _standing(secret_order, cast, vote.voter)
                if withdrawn:
                    secret_order[k] = -1
                    secrets ^= bit
                elif _differ(cast[secret_order[k]].target, target):  # the old time stands
                    secret_order[k] = seq
            elif not withdrawn:
                secrets |= bit
                secret_order.append(seq)
                secret_seats.append(who)
        elif voted & bit:  # his second vote: a change or a withdrawal
            k = _standing(order, cast, vote.voter)
            if withdrawn:
                order[k] = -1
                voted ^= bit
                if k == only_place:
                    only_place = -1
            elif _differ(cast[order[k]].target, target):  # the same again: the old time stands
                order[k] = seq
        elif not withdrawn:
            if who == only:
                only_place = len(order)
            voted |= bit
            order.append(seq)
    keys: list[int] = []  # each standing secret ballot's time: his public ballot's (INQ-R49)
    if secrets:
        for j in range(len(secret_order)):
            key = -1
            if secret_order[j] >= 0:
                key = size  # INQ-R49: with no public ballot, after every other vote
                if voted & (1 << secret_seats[j]):
                    k = _standing(order, cast, cast[secret_order[j]].voter)
                    key = order[k]
                    order[k] = -1  # replaced by the secret ballot
            keys.append(key)
    candidates: list[_Candidate] = []
    for k in range(len(order)):
        seq = order[k]
        if seq < 0:
            continue  # withdrawn since (or placed again later), or replaced
        vote = cast[seq]
        target = vote.target
        if target is None:
            continue  # an abstention counts for nobody
        w = 1
        if only != -2 and (k == only_place or (only == -1 and vote.voter in weighted)):
            assert weight is not None
            w = weight(vote.voter, target, False)
            if w <= 0:
                continue  # weighed to nothing: it counts for nobody
        _tally(candidates, target, w, seq, vote.voter)
    for j in range(len(keys)):
        key = keys[j]
        if key < 0:
            continue  # withdrawn since
        seq = secret_order[j]
        vote = cast[seq]
        w = _ballot_weight(vote.voter, vote.target, weight, weighted, True)
        if w <= 0:
            continue
        _tally(candidates, vote.target or "", w, key, vote.voter)
    return _executed(candidates)


# The voters' numbers when they are numbered by seat: never written to, so no dict is made.
_BY_SEAT: Final[dict[str, int]] = {}


def _standing(order: list[int], cast: list[Vote], voter: str) -> int:
    """The place of ``voter``'s standing ballot in ``order`` (he has one), found by his
    name: the same object first, as a game's names are."""
    for k in range(len(order)):
        seq = order[k]
        if seq >= 0 and cast[seq].voter is voter:
            return k
    for k in range(len(order)):
        seq = order[k]
        if seq >= 0 and cast[seq].voter == voter:
            return k
    raise AssertionError(voter)


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
    """The seat of the voter whose ballots are weighed (the usual case: one, or none): -2
    when nobody is weighed, -1 when several are (each is then checked by name). Without
    players, he is numbered first (0)."""
    if weight is None:
        return -2
    size = len(weighted)
    if size != 1:
        return -2 if size == 0 else -1
    # (a ruleset passes one name as a tuple: read without an iterator)
    name = weighted[0] if isinstance(weighted, tuple) else next(iter(weighted))
    if players is not None:
        known = players.get(name)
        return known.seat if known is not None else -2
    numbered[name] = 0
    return 0


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


def _tally(candidates: list[_Candidate], target: str, w: int, key: int, voter: str) -> None:
    """A true vote (by ``voter``, its time ``key``) into the tally: its target's total, and
    his decisive (latest) vote. The target is looked for as the same object first (a
    game's names are), then by its text."""
    found: _Candidate | None = None
    for candidate in candidates:
        if candidate.name is target:
            found = candidate
            break
    else:
        for candidate in candidates:
            if candidate.name == target:
                found = candidate
                break
    if found is None:
        candidates.append(_Candidate(target, w, key, voter))
        return
    found.total += w
    if key > found.latest:
        found.latest = key
        found.voter = voter


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
