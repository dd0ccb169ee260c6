"""The engine's tally for the pages that explain a count (roles.engine.votes.true_votes):
on random vote lists it must agree with the count that decides the day (count_votes) and
with the forum-style tally of the public votes (forum_tally), so the site has one tally."""

from __future__ import annotations

import random

from roles.engine.votes import LATEST, count_votes, forum_tally, true_votes
from tests.roles.engine.helpers import random_votes


def test_the_true_votes_are_the_counted_ones():
    """WWW §9, INQ §9: same totals in the same order, the same executed player (the top
    total; a tie to the earliest decisive vote, WWW-R10 / INQ-R7) and decisive voter."""
    rng = random.Random(5)
    for _ in range(6000):
        votes = random_votes(rng)
        execution = count_votes(votes)
        tally = true_votes(votes)
        totals = {candidate: len(voters) for candidate, voters in tally.true.items()}
        assert list(totals.items()) == list(execution.totals.items()), votes
        executed = None
        if totals:
            top = max(totals.values())
            executed = min((c for c, t in totals.items() if t == top),
                           key=lambda c: tally.decisive(c)[1])  # fmt: skip
        assert executed == execution.executed, votes
        decisive = tally.decisive(executed) if executed else None
        assert (decisive[0] if decisive else None) == execution.decisive_voter, votes
        for candidate in totals:  # the decisive vote is the latest true vote
            voter, key = tally.decisive(candidate)
            assert key == max(k for _, k in tally.true[candidate])
            assert (voter, key) in tally.true[candidate]
        assert tally.decisive("nobody") is None


def test_the_secret_vote_replaces_the_public_one_with_its_time():
    """INQ-R45..R49: the Boia's secret vote counts instead of his public one, at the time
    of his public vote, or after every other vote without one."""
    from roles.engine.model import Vote

    votes = [Vote("Ada", "Bea", 1), Vote("Cid", "Bea", 2), Vote("Ada", "Dan", 3, True),
             Vote("Eva", "Fil", 4, True)]  # fmt: skip
    tally = true_votes(votes)
    assert tally.true == {"Bea": [("Cid", (0, 2, 1))], "Dan": [("Ada", (0, 1, 0))],
                          "Fil": [("Eva", LATEST)]}  # fmt: skip
    assert tally.face() == {"Bea": 2}


def test_the_face_count_is_the_forum_tally():
    """The public votes at face value: each target's standing ballots in the forum-style
    tally (WWW-D4, INQ-D5, a secret vote never shows: INQ-D7)."""
    rng = random.Random(6)
    for _ in range(6000):
        votes = random_votes(rng)
        lines, standing = forum_tally(votes)
        forum = {target: sum(not b.struck for b in ballots) for target, ballots in lines}
        tally = true_votes(votes)
        assert tally.face() == {t: n for t, n in forum.items() if n}, votes
        assert standing == {v for v, (target, _key) in tally.public.items() if target}, votes
