"""The day's tally followed vote by vote (roles.engine.votes.DayTally), on random vote lists
fed whole or in steps, against a plain reading of the rules (WWW §9, INQ §9): a ballot
keeps the time it was pointed at its target, the same target again changes nothing
(WWW-D4, INQ-D5), a withdrawal ends it; a secret vote has a book of its own and never
shows on the forum (INQ-D7), and counts with the time of its voter's public vote, the
latest of all without one (INQ-R49)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from roles.engine.model import Vote
from roles.engine.votes import LATEST, DayTally, current_ballots, forum_tally, true_votes

NAMES = ["Ada", "Bea", "Cid", "Dan"]

votes_strategy = st.lists(
    st.builds(Vote, st.sampled_from(NAMES), st.one_of(st.none(), st.sampled_from(NAMES)),
              st.integers(0, 6), st.booleans(), st.booleans()),  # times tied, out of order
    max_size=40,
)  # fmt: skip


def withdrawn(vote: Vote) -> bool:
    return vote.target is None and not vote.abstain


def book_of(votes: list[Vote], secret: bool) -> list[tuple[str, tuple]]:
    """A book's standing ballots, in its order: a voter's ballot is his events' last run
    pointed at one target (a vote for nobody is one too) with the time key of the run's
    first event; none after a withdrawal. A voter comes in the order of his first event
    since his last withdrawal."""
    events = [(seq, v) for seq, v in enumerate(votes) if v.secret == secret]
    standing = []
    for voter in NAMES:
        mine = [(seq, v) for seq, v in events if v.voter == voter]
        if not mine or withdrawn(mine[-1][1]):
            continue
        run = len(mine) - 1
        while (
            run > 0
            and not withdrawn(mine[run - 1][1])
            and mine[run - 1][1].target == mine[-1][1].target
        ):
            run -= 1
        since = max((i + 1 for i, (_, v) in enumerate(mine) if withdrawn(v)), default=0)
        seq, first = mine[run]
        standing.append((mine[since][0], voter, (first.target, (0, first.at, seq))))
    return [(voter, ballot) for _, voter, ballot in sorted(standing)]


def forum_of(votes: list[Vote]) -> tuple[list[tuple[str, list[tuple]]], set[str]]:
    """The forum lines: a public vote shows as a ballot unless its voter's previous public
    vote was for the same target; struck once he votes otherwise (or for nobody, or
    withdraws); the targets by standing ballots, ties in the order first voted."""
    public = [v for v in votes if not v.secret]
    lines: dict[str, list[tuple]] = {}
    for i, vote in enumerate(public):
        before = [v for v in public[:i] if v.voter == vote.voter]
        if vote.target is None or (before and before[-1].target == vote.target):
            continue
        after = [v for v in public[i + 1 :] if v.voter == vote.voter]
        struck = any(v.target != vote.target for v in after)
        lines.setdefault(vote.target, []).append((vote.voter, vote.at, struck))
    ordered = sorted(lines.items(), key=lambda line: -sum(not b[2] for b in line[1]))
    last = {v.voter: v.target for v in public}
    return ordered, {voter for voter, target in last.items() if target is not None}


def shown(lines) -> list[tuple[str, list[tuple]]]:
    return [(t, [(b.voter, b.at, b.struck) for b in ballots]) for t, ballots in lines]


@settings(max_examples=400, deadline=None)
@given(votes=votes_strategy)
def test_the_tally_and_its_functions_follow_the_rules(votes):
    """``current_ballots`` and ``forum_tally`` (the tally fed every vote) give each book in
    its order with its time keys, and the forum's lines, struck flags and standing voters."""
    public, secret = current_ballots(votes)
    assert list(public.items()) == book_of(votes, False)
    assert list(secret.items()) == book_of(votes, True)
    lines, voted = forum_tally(votes)
    assert (shown(lines), voted) == forum_of(votes)


@settings(max_examples=300, deadline=None)
@given(votes=votes_strategy, cuts=st.lists(st.integers(0, 40), max_size=4))
def test_the_tally_fed_in_steps_gives_each_steps_results_and_keeps_them(votes, cuts):
    """Fed a few votes at a time, as the GM's page adds the votes cast since it last
    looked: after each step its lines, standing voters, books and true votes are those of
    the votes so far, and the lines read at a step stay as they were (copies)."""
    tally, seen, read = DayTally(), 0, []
    for cut in [*sorted(min(c, len(votes)) for c in cuts), len(votes)]:
        for vote in votes[seen:cut]:  # each returns its place among the day's events
            assert tally.add(vote.voter, vote.target, vote.at, vote.secret, vote.abstain) == seen
            seen += 1
        so_far = votes[:seen]
        lines, voted = forum_of(so_far)
        got = tally.lines()
        read.append((got, lines))
        assert [(t, [(b.voter, b.at) for b in bs], struck) for t, bs, struck in got] == [
            (t, [(v, at) for v, at, _ in bs], [s for *_, s in bs]) for t, bs in lines
        ]
        assert tally.voted() == voted
        assert (list(tally.public.items()), list(tally.secret.items())) == (
            book_of(so_far, False), book_of(so_far, True))  # fmt: skip
        expected = true_votes(so_far)
        now = tally.true_votes()
        assert (now.public, now.secret, now.true) == (expected.public, expected.secret,
                                                      expected.true)  # fmt: skip
    for got, lines in read:
        assert [(t, struck) for t, _, struck in got] == [
            (t, [s for *_, s in bs]) for t, bs in lines
        ]
    assert shown(tally.forum()) == forum_of(votes)[0]  # the tally's own ballots, struck now


@settings(max_examples=300, deadline=None)
@given(votes=votes_strategy)
def test_a_secret_vote_counts_with_its_voters_public_time(votes):
    """INQ-R45..R49: a voter's secret ballot is his true vote, at the time of his standing
    public ballot, after every other vote without one; his public ballot counts otherwise.
    Neither changes the forum (INQ-D7)."""
    tally = DayTally()
    for vote in votes:
        tally.add(vote.voter, vote.target, vote.at, vote.secret, vote.abstain)
    public, secret = dict(book_of(votes, False)), dict(book_of(votes, True))
    true: dict[str, list] = {}
    for voter, (target, key) in public.items():
        if target is not None and voter not in secret:
            true.setdefault(target, []).append((voter, key))
    for voter, (target, _) in secret.items():
        if target is not None:
            true.setdefault(target, []).append((voter, public[voter][1] if voter in public
                                                else LATEST))  # fmt: skip
    assert tally.true_votes().true == true
    shown_publicly = DayTally()
    for vote in votes:
        if not vote.secret:
            shown_publicly.add(vote.voter, vote.target, vote.at, False, vote.abstain)
    assert shown(tally.forum()) == shown(shown_publicly.forum())
    assert tally.voted() == shown_publicly.voted()


def test_a_changed_vote_is_struck_and_the_same_target_keeps_its_time():
    """WWW-D4 / INQ-D5 by hand: Ada's second vote for Bea keeps the first's time; her vote
    for Cid strikes it; her withdrawal strikes that one and leaves her without a vote."""
    tally = DayTally()
    for voter, target, at in [("Ada", "Bea", 1), ("Cid", "Bea", 2), ("Ada", "Bea", 3),
                              ("Ada", "Cid", 4)]:  # fmt: skip
        tally.add(voter, target, at, False, False)
    assert tally.public == {"Ada": ("Cid", (0, 4, 3)), "Cid": ("Bea", (0, 2, 1))}
    assert [(t, [(b.voter, b.at) for b in bs], s) for t, bs, s in tally.lines()] == [
        ("Bea", [("Ada", 1), ("Cid", 2)], [True, False]),
        ("Cid", [("Ada", 4)], [False]),
    ]
    tally.add("Ada", None, 5, False, False)
    assert tally.voted() == {"Cid"}
    assert [(t, s) for t, _, s in tally.lines()] == [("Bea", [True, False]), ("Cid", [True])]
    assert tally.public == {"Cid": ("Bea", (0, 2, 1))}
