"""Small builders for engine tests that drive the rulesets directly."""

from __future__ import annotations

from roles.engine.model import Action, Correction, GameState, Vote
from roles.engine.registry import ruleset_for
from roles.inquisizione import night_cases as inq_cases
from roles.wild_west_wolf import night_cases as www_cases

# The tables the setups' night-order cases are played on (their night_cases modules).
WWW_TABLE = dict(www_cases.PLAYERS)
INQ_TABLE = dict(inq_cases.PLAYERS)


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
