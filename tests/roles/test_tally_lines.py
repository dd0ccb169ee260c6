"""The board's tally lines and the post's bounded changes, read in a few passes (a flooded
day has thousands of ballots): the same as read ballot by ballot. No database."""

from __future__ import annotations

from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as st

from games.selectors.board import STRUCK_SHOWN, TallyLine
from games.text.posts import MAX_CHANGES_SHOWN, _bounded
from roles.engine.model import Vote
from roles.engine.votes import forum_tally

NAMES = [f"p{i}" for i in range(5)]
PLAYERS = {name: SimpleNamespace(name=name) for name in NAMES}


def lines_of(picks) -> list[TallyLine]:
    votes = [Vote(NAMES[v], None if t is None else NAMES[t], at) for v, t, at in picks]
    return [
        TallyLine(PLAYERS[target], ballots, PLAYERS) for target, ballots in forum_tally(votes)[0]
    ]


def reference_bounded(tally):
    """The post's bounds as first written: each voter's struck ballots sorted by time."""
    struck, latest = {}, {}
    for line in tally:
        for vote in line.votes:
            if vote.struck:
                struck.setdefault(vote.voter, []).append(vote)
            else:
                latest[vote.voter] = vote
    hidden, counted = set(), {}
    for voter, votes in struck.items():
        votes.sort(key=lambda v: v.at)
        older = votes[:-MAX_CHANGES_SHOWN]
        if older:
            hidden.update(id(v) for v in older)
            counted[id(latest.get(voter, votes[-1]))] = len(older)
    return hidden, counted


picks_strategy = st.lists(
    st.tuples(st.integers(0, 4), st.one_of(st.none(), st.integers(0, 4)), st.integers(0, 30)),
    max_size=150,
)  # times repeat: ties


@settings(max_examples=200, deadline=None)
@given(picks=picks_strategy)
def test_a_line_lists_its_standing_and_latest_struck_ballots(picks):
    for line in lines_of(picks):
        struck = [v for v in line.votes if v.struck]
        older = {id(v) for v in struck[:-STRUCK_SHOWN]}  # as first written
        assert line.count == len(line.votes) - len(struck)
        assert [id(line.votes[i]) for i in line._shown] == [
            id(v) for v in line.votes if id(v) not in older
        ]
        assert line.hidden == len(older)
        standing = [v for v in line.votes if not v.struck]
        decisive = line.decisive
        assert (decisive.at if decisive else None) == (standing[-1].at if standing else None)


@settings(max_examples=200, deadline=None)
@given(picks=picks_strategy)
def test_a_post_lists_each_voters_latest_changes(picks):
    tally = lines_of(picks)
    listed, counted = _bounded(tally)
    hidden, expected = reference_bounded(tally)
    every_struck = {id(v) for line in tally for v in line.votes if v.struck}
    assert listed == every_struck - hidden
    assert counted == expected
