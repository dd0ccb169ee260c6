"""The day's tally (WWW §9, INQ §9) against a plain reading of its rules, on random vote
lists: the fast count must give the same totals (in the same order), the same executed
player and the same decisive voter, whatever the mix of changes, withdrawals, secret votes,
abstentions, weights and the decisive-vote rule (WWW-R10, WWW-D4..D6, INQ-R7, INQ-R45..R49)."""

from __future__ import annotations

import random

import pytest

from roles.engine.model import Player
from roles.engine.votes import LATEST, count_votes, current_ballots
from tests.roles.engine.helpers import VOTERS as NAMES
from tests.roles.engine.helpers import random_votes


def reference(votes, weight, decisive_rule, weighted):
    """Every true vote with its weight and time key; the top total wins, a tie goes to the
    candidate whose latest true vote came first; the decisive voter is the latest vote on
    the executed ("latest") or the earliest with which he was already executed ("tipping")."""
    public, secret = current_ballots(votes)
    cast = [
        (voter, target, weight(voter, target, False) if voter in weighted else 1, key)
        for voter, (target, key) in public.items()
        if target is not None and voter not in secret
    ]
    for voter, (target, _) in secret.items():
        if target is not None:
            key = public[voter][1] if voter in public else LATEST
            cast.append((voter, target, weight(voter, target, True) if voter in weighted else 1,
                         key))  # fmt: skip
    cast = [c for c in cast if c[2] > 0]
    totals: dict[str, int] = {}
    for _, target, w, _ in cast:
        totals[target] = totals.get(target, 0) + w

    def executed_of(totals, keys):
        if not totals:
            return None
        top = max(totals.values())
        return min((c for c in totals if totals[c] == top), key=lambda c: keys[c])

    keys = {c: max(k for _, t, _, k in cast if t == c) for c in totals}
    executed = executed_of(totals, keys)
    if executed is None:
        return executed, totals, None
    on = [c for c in cast if c[1] == executed]
    voter = max(on, key=lambda c: c[3])[0]
    if decisive_rule == "tipping":
        running = 0
        for v, _, w, k in sorted(on, key=lambda c: c[3]):
            running += w
            if executed_of({**totals, executed: running}, {**keys, executed: k}) == executed:
                voter = v
                break
    return executed, totals, voter


@pytest.mark.parametrize("decisive_rule", ["latest", "tipping"])
def test_the_tally_agrees_with_its_plain_reading(decisive_rule):
    rng = random.Random(11)

    def weight(voter: str, target: str, secret: bool) -> int:
        return {"Bea": 3, "Cid": 0}.get(target, 1) if secret else 2

    for _ in range(6000):
        votes = random_votes(rng)
        weighted = {"Ada"} if rng.random() < 0.5 else set()
        execution = count_votes(votes, weight, decisive_rule, weighted)
        executed, totals, voter = reference(votes, weight, decisive_rule, weighted)
        assert (execution.executed, list(execution.totals.items()), execution.decisive_voter) \
            == (executed, list(totals.items()), voter), votes  # fmt: skip


@pytest.mark.parametrize("decisive_rule", ["latest", "tipping"])
def test_the_tally_of_votes_in_casting_order_agrees_with_its_plain_reading(decisive_rule):
    """Times that never go back (a replay's indexes, the site's timestamps): the count
    keeps only the votes' places, and must still agree with the plain reading."""
    rng = random.Random(12)

    def weight(voter: str, target: str, secret: bool) -> int:
        return {"Bea": 3, "Cid": 0}.get(target, 1) if secret else 2

    for _ in range(6000):
        votes = random_votes(rng)
        ties = rng.random() < 0.3  # equal times: the order of casting decides
        for i, vote in enumerate(votes):
            vote.at = i // 3 if ties else i
        weighted = {"Ada"} if rng.random() < 0.5 else set()
        expected = reference(votes, weight, decisive_rule, weighted)
        for players in (None, PLAYERS):  # voters numbered as they come, or by seat
            execution = count_votes(votes, weight, decisive_rule, weighted, players)
            assert (execution.executed, list(execution.totals.items()),
                    execution.decisive_voter) == (expected[0], list(expected[1].items()),
                                                  expected[2]), votes  # fmt: skip


PLAYERS = {name: Player(name, seat, "x", "x", "x") for seat, name in enumerate(reversed(NAMES))}
