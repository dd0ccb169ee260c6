"""The GM's preview resolves a flooded day from the events that decide it
(games.deciding.deciding_votes): the engine's outcome is the same as from every event, its
refusals included (a change where changes are off, WWW-D4 / INQ-D5; the Boia's secret
withdrawal where it is off, INQ-D7), whatever the history."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.utils import timezone
from hypothesis import given, settings
from hypothesis import strategies as st

from games.deciding import deciding_votes
from games.engine import gather_inputs, rebuild, replay
from games.models import Submission
from games.phases import current_phase, phase_commit, phase_preview
from roles.engine.announce import announce
from roles.engine.errors import RuleViolation
from roles.engine.model import Vote
from roles.engine.registry import ruleset_for
from roles.engine.setups import deal_roles
from roles.engine.votes import current_ballots
from tests.factories import make_game

SETUPS = {"wild-west-wolf": 16, "inquisizione": 19}
OPTIONS = {
    "wild-west-wolf": [{}, {"www.allow_vote_change": False},
                       {"www.rinnegato_decisive_vote": "tipping"}],
    "inquisizione": [{}, {"inq.allow_vote_change": False},
                     {"inq.boia_secret_withdrawable": False}],
}  # fmt: skip


def day_one(setup: str, options: dict, seed: int):
    """The rules and the state at the opening of Day 1 (a night with no action)."""
    rules = ruleset_for(setup)
    names = [f"P{i:02d}" for i in range(SETUPS[setup])]
    dealt = deal_roles(rules.setup, names, random.Random(seed))
    state, _ = rules.new_game(dealt, seed=seed, options=options)
    rules.play(state, "N0")
    return rules, state


def decided(events: list[dict]) -> list[dict]:
    """The deciding events of ``events``, as the preview gathers them."""
    kept = deciding_votes([(e["voter"], e["target"], e["secret"], e["abstain"]) for e in events])
    return [events[i] for i in kept]


def legal_events(rules, state, picks) -> list[dict]:
    """Vote events as the site gathers them (games.engine.gather_inputs): the legal ones,
    each ``at`` its place in the list."""
    living = [p.name for p in state.players if p.alive]
    boia = next((p.name for p in state.players if p.dealt_role == "boia"), None)
    events = []
    for voter, target, secret, abstain in picks:
        name = boia if secret and boia else living[voter % 5]
        secret = bool(secret and boia)
        vote = Vote(name, None if target is None else living[target % 6], len(events), secret,
                    bool(abstain and secret and target is None))  # fmt: skip
        try:
            rules.check_vote(state, "D1", vote)
        except RuleViolation:
            continue
        events.append({"voter": vote.voter, "target": vote.target, "at": vote.at,
                       "secret": vote.secret, "abstain": vote.abstain})  # fmt: skip
    return events


def resolved(setup: str, options: dict, seed: int, events: list[dict]) -> tuple:
    """Everything the preview shows of Day 1 resolved from ``events``."""
    rules, state = day_one(setup, options, seed)
    votes = [Vote(e["voter"], e["target"], e["at"], e["secret"], e["abstain"]) for e in events]
    try:
        outcome = rules.play(state, "D1", votes=votes)
    except RuleViolation as exc:
        return ("refused", str(exc), exc.rule)
    execution = outcome.execution
    return (
        execution.executed, list(execution.totals.items()), execution.decisive_voter,
        [(d.player, d.cause) for d in outcome.deaths], [repr(t) for t in outcome.trace],
        [repr(r) for r in outcome.results], state.winners, announce(state, outcome),
        [(p.name, p.alive) for p in state.players],
    )  # fmt: skip


def standing(events: list[dict]) -> list[list[tuple]]:
    """The engine's standing public and secret ballots, in its books' order, each with the
    ``at`` of the event that pointed it at its target."""
    votes = [Vote(e["voter"], e["target"], e["at"], e["secret"], e["abstain"]) for e in events]
    return [[(voter, target, key[1]) for voter, (target, key) in book.items()]
            for book in current_ballots(votes)]  # fmt: skip


events_strategy = st.lists(
    st.tuples(st.integers(0, 4), st.one_of(st.none(), st.integers(0, 5)), st.booleans(),
              st.booleans()),
    max_size=80,
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(setup=st.sampled_from(sorted(SETUPS)), variant=st.integers(0, 2),
       seed=st.integers(0, 3), picks=events_strategy)  # fmt: skip
def test_the_deciding_votes_resolve_the_day_as_every_vote(setup, variant, seed, picks):
    options = OPTIONS[setup][variant]
    rules, state = day_one(setup, options, seed)
    events = legal_events(rules, state, picks)
    deciding = decided(events)
    assert [e for e in events if e in deciding] == deciding  # a subsequence, in order
    assert standing(deciding) == standing(events)
    assert resolved(setup, options, seed, deciding) == resolved(setup, options, seed, events)


def test_a_flood_keeps_a_few_events_per_voter():
    rules, state = day_one("wild-west-wolf", {}, 1)
    rng = random.Random(1)
    picks = [(rng.randrange(5), rng.randrange(6), False, False) for _ in range(5000)]
    events = legal_events(rules, state, picks)
    deciding = decided(events)
    assert len(deciding) <= 5 * (6 + 4)  # each distinct vote once, and a ballot's few
    assert resolved("wild-west-wolf", {}, 1, deciding) == resolved("wild-west-wolf", {}, 1, events)


def test_a_repeated_vote_is_refused_where_changes_are_off():
    """WWW-D4: the second event of a voter, even the same vote again, is refused."""
    rules, state = day_one("wild-west-wolf", {"www.allow_vote_change": False}, 0)
    events = legal_events(rules, state, [(0, 1, False, False), (1, 2, False, False)] * 2)
    deciding = decided(events)
    assert resolved("wild-west-wolf", {"www.allow_vote_change": False}, 0, deciding)[0] == (
        "refused"
    )
    assert resolved("wild-west-wolf", {"www.allow_vote_change": False}, 0, deciding) == (
        resolved("wild-west-wolf", {"www.allow_vote_change": False}, 0, events)
    )


def test_a_secret_withdrawal_in_the_middle_is_refused_where_it_is_off():
    """INQ-D7: the Boia withdrew his secret vote once, then voted again."""
    options = {"inq.boia_secret_withdrawable": False}
    rules, state = day_one("inquisizione", options, 0)
    picks = [(0, 1, True, False), (0, 2, False, False), (0, None, True, False),
             (1, 3, False, False), (0, 1, True, False), (0, 1, True, False)]  # fmt: skip
    events = legal_events(rules, state, picks)
    deciding = decided(events)
    assert resolved("inquisizione", options, 0, deciding)[0] == "refused"
    assert resolved("inquisizione", options, 0, deciding) == (
        resolved("inquisizione", options, 0, events)
    )


def test_a_ballot_back_on_its_target_counts_from_its_return():
    """WWW-D4: pointed back at a target, a vote counts from then (the tie goes to the
    candidate whose decisive vote came first, WWW-R10)."""
    rules, state = day_one("wild-west-wolf", {}, 0)
    picks = [(0, 1, False, False), (0, 1, False, False), (0, 2, False, False),
             (1, 2, False, False), (0, 1, False, False), (0, 1, False, False),
             (2, 1, False, False), (3, 2, False, False), (0, 1, False, False)]  # fmt: skip
    events = legal_events(rules, state, picks)
    deciding = decided(events)
    assert standing(deciding) == standing(events)
    assert resolved("wild-west-wolf", {}, 0, deciding) == resolved("wild-west-wolf", {}, 0, events)


def test_a_ballot_withdrawn_again_is_listed_from_its_return():
    """The engine lists a ballot from its last return after a withdrawal: the order of
    the totals on the page."""
    rules, state = day_one("wild-west-wolf", {}, 0)
    picks = [(0, 1, False, False), (0, 2, False, False), (0, None, False, False),
             (0, 3, False, False), (1, 2, False, False), (0, None, False, False),
             (0, 1, False, False), (2, 3, False, False), (0, 2, False, False),
             (0, 4, False, False)]  # fmt: skip
    events = legal_events(rules, state, picks)
    assert len(events) == len(picks)
    deciding = decided(events)
    assert [voter for voter, _, _ in standing(events)[0]] == ["P01", "P00", "P02"]
    assert standing(deciding) == standing(events)
    assert resolved("wild-west-wolf", {}, 0, deciding) == resolved("wild-west-wolf", {}, 0, events)


@pytest.mark.django_db
def test_the_preview_of_a_flooded_day_is_the_commits_outcome(gm_user):
    """The page's preview (deciding events) and the commit's input (every event) resolve
    a flooded day alike; the refused votes are listed all the same."""
    game = make_game(gm_user)
    phase_commit(phase=current_phase(game), user=gm_user)
    day = current_phase(game)
    players = list(game.players.order_by("seat"))
    rng = random.Random(3)
    start = timezone.now() - dt.timedelta(hours=2)
    Submission.objects.bulk_create(
        Submission(phase=day, player=voter, kind=Submission.Kind.VOTE,
                   at=start + dt.timedelta(seconds=i),
                   target=rng.choice([*players[:6], None]))  # self-votes: refused
        for i, voter in enumerate(rng.choice(players[:8]) for _ in range(600))
    )  # fmt: skip
    preview = phase_preview(day)
    every = gather_inputs(rebuild(game), day)
    assert len(preview.inputs.votes) < len(every.votes) / 4
    assert preview.inputs.dropped == every.dropped
    assert preview.inputs.dropped  # a self-vote is refused (WWW-R9), each time it was sent
    outcome = replay(rebuild(game), day.label, every.as_json(), [])
    assert preview.outcome.execution == outcome.execution
    assert list(preview.outcome.execution.totals.items()) == list(outcome.execution.totals.items())
    assert (preview.outcome.deaths, preview.outcome.trace) == (outcome.deaths, outcome.trace)
