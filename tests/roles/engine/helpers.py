"""Small builders for engine tests that drive the rulesets directly."""

from __future__ import annotations

import random

from roles.engine.model import Action, Correction, GameState, Vote
from roles.engine.registry import ruleset_for
from roles.inquisizione import night_cases as inq_cases
from roles.wild_west_wolf import night_cases as www_cases

# The tables the setups' night-order cases are played on (their night_cases modules).
WWW_TABLE = dict(www_cases.PLAYERS)
INQ_TABLE = dict(inq_cases.PLAYERS)
VOTERS = ["Ada", "Bea", "Cid", "Dan", "Eva", "Fil", "Gio"]  # the tally tests' table


def www(**options) -> GameState:
    state, _ = ruleset_for("wild-west-wolf").new_game(
        WWW_TABLE, options={f"www.{k}": v for k, v in options.items()},
        draws=www_cases.CASES.draws,
    )  # fmt: skip
    return state


def inq(**options) -> GameState:
    state, _ = ruleset_for("inquisizione").new_game(
        INQ_TABLE, options={f"inq.{k}": v for k, v in options.items()}
    )
    return state


def play(state: GameState, label: str, actions=(), votes=(), wills=None, corrections=(),
         rules=None):  # fmt: skip
    """Play one phase; ``corrections`` are the GM's, as mappings (kind, player, step)."""
    rules = rules or ruleset_for(state.setup)
    return rules.play(
        state, label,
        actions=[Action(**a) for a in actions],
        votes=[Vote(at=i, **v) for i, v in enumerate(votes)],
        wills=wills,
        corrections=[Correction(reason="GM", **c) for c in corrections],
    )  # fmt: skip


def kill(state: GameState, *names: str) -> None:
    """Mark players dead without a phase, to test formulas on a crafted table."""
    for name in names:
        state.by_name[name].alive = False


def random_votes(rng: random.Random) -> list[Vote]:
    """A random day of votes among VOTERS (Ada may vote in secret, as a Boia): changes,
    withdrawals, abstentions and times out of order, for the tally's tests."""
    if rng.random() < 0.5:  # the usual day: each voter votes once, for somebody
        voters = rng.sample(VOTERS, rng.randrange(0, len(VOTERS) + 1))
        at = rng.choice([list(range(len(voters))), [0] * len(voters),
                         [rng.randrange(0, 5) for _ in voters]])  # fmt: skip
        return [Vote(v, rng.choice(VOTERS), when, v == "Ada" and rng.random() < 0.5)
                for v, when in zip(voters, at, strict=True)]  # fmt: skip
    votes = []
    for at in range(rng.randrange(0, 25)):
        voter = rng.choice(VOTERS)
        secret = voter == "Ada" and rng.random() < 0.5
        target = None if rng.random() < 0.15 else rng.choice(VOTERS)
        abstain = secret and target is None and rng.random() < 0.5
        when = at if rng.random() < 0.8 else rng.randrange(0, 25)  # times out of order too
        votes.append(Vote(voter, target, when, secret, abstain))
    return votes
