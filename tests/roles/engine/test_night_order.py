"""The night order is pinned (WWW-R93, INQ-R63): for every two adjacent steps of each
setup's ordering table, a scenario whose outcome changes when the two are swapped.

Every setup is discovered (``available_setups()``), and each setup package ships its own
cases (its ``night_cases`` module: roles/engine/night_cases.py), issue 33 §5. The test
swaps each adjacent pair of the setup's YAML night_order (the order the engine runs) and
replays the pair's case through both orders: the real order must give the documented
outcome and the swapped one a different one. A setup without cases, or a step added to the
table without a case for its new neighbours, fails here.
"""

from __future__ import annotations

import itertools

import pytest

from roles.engine import night_cases as night_cases_module
from roles.engine.night_cases import NightCase, NightCases, night_cases
from roles.engine.registry import ruleset_for
from roles.engine.setups import SetupError, available_setups


def played_setups() -> list[str]:
    """Every setup with a ruleset of its own (a referee desk's data alone has no night)."""
    keys = []
    for key in available_setups():
        try:
            ruleset_for(key)
        except SetupError:
            continue
        keys.append(key)
    return keys


SETUPS = played_setups()
PAIRS = [(key, i) for key in SETUPS for i in range(len(ruleset_for(key).night_order) - 1)]


def play(key: str, cases: NightCases, case: NightCase, order: tuple[str, ...]):
    rules = type(ruleset_for(key))(night_order=order)
    state = rules.new_game(cases.players, draws=dict(cases.draws))[0]
    outcomes = [rules.play(state, p.label, actions=p.actions, votes=p.votes, wills=p.wills,
                           corrections=p.corrections) for p in case.phases]  # fmt: skip
    return outcomes, [(o.phase, o.deaths, o.results, o.execution) for o in outcomes]


def test_every_shipped_and_test_setup_is_discovered():
    """Issue 33 §5: the setups come from available_setups(), not a list in this file."""
    assert {"wild-west-wolf", "inquisizione", "classic-village", "coin-toss"} <= set(SETUPS)


@pytest.mark.parametrize("key", SETUPS)
def test_each_setup_package_ships_cases_for_its_own_steps(key):
    """Issue 33 §5: every setup package carries its night-order cases, and each case names
    two adjacent steps of its table (a case left behind by a reordering fails)."""
    order = ruleset_for(key).night_order
    adjacent = set(itertools.pairwise(order))
    assert set(night_cases(key).pairs) <= adjacent


def test_a_setup_without_cases_is_refused_naming_the_module(monkeypatch):
    """Issue 33 §5: a setup package without its night_cases module fails, saying so."""
    monkeypatch.setattr(night_cases_module, "setup_package", lambda key: "tests.setups")
    with pytest.raises(
        SetupError, match=r"ships no night-order cases \(tests.setups.night_cases\)"
    ):
        night_cases("classic-village")


@pytest.mark.parametrize(("key", "index"), PAIRS, ids=[f"{k}-{i}" for k, i in PAIRS])
def test_swapping_two_adjacent_steps_changes_the_outcome(key, index):
    """WWW-R93 / INQ-R63: each adjacent pair of the ordering table is told apart."""
    order = ruleset_for(key).night_order
    pair = (order[index], order[index + 1])
    swapped = (*order[:index], pair[1], pair[0], *order[index + 2 :])
    cases = night_cases(key)
    assert pair in cases.pairs, f"no scenario tells {pair[0]} and {pair[1]} apart"
    case = cases.pairs[pair]
    real, real_report = play(key, cases, case, order)
    _, swapped_report = play(key, cases, case, swapped)
    if case.holds is None:  # the two steps commute: the case proves it
        assert real_report == swapped_report
        return
    assert case.holds(real[-1]), f"the real order's outcome ({pair}): {real[-1]}"
    assert real_report != swapped_report, f"swapping {pair} changes nothing"
