"""Property tests: random legal games of both setups (roles/engine/simulate.py).

They always end (the simulator gives up after 200 phases), the dead never act, the
once-per-game and consecutive-night limits hold, and the winners follow the win
formulas (WWW-R28..R31, WWW-D3, WWW-D24; INQ-R22..R26, INQ-D3, INQ-D16).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roles.engine.errors import RuleViolation
from roles.engine.model import Action, phase_label
from roles.engine.registry import ruleset_for
from roles.engine.simulate import random_game

SETUPS = ["wild-west-wolf", "inquisizione"]
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def www_expected(state) -> list[str] | None:
    alive = [p for p in state.players if p.alive]
    indians = sum(p.role in ("capo_indiano", "sciamano", "indiano") for p in alive)
    americans = sum(p.role not in ("capo_indiano", "sciamano", "indiano",
                                   "cacciatore_di_taglie", "rinnegato") for p in alive)  # fmt: skip
    outlaws = sum(p.faction == "fuorilegge" for p in alive)
    sheriff = any(p.role == "sceriffo" for p in alive)
    if indians == 0:
        return ["legge"] if sheriff or not outlaws else ["fuorilegge"]
    return ["indiani"] if indians >= americans else None


def inq_expected(state) -> list[str] | None:
    alive = [p for p in state.players if p.alive]
    wolves = sum(p.role in ("lupo_mannaro", "lupo_scorbutico") for p in alive)
    heretics = sum(p.role in ("veggente", "postino", "becchino", "guardia_gemella") for p in alive)
    inquisition = sum(p.role in ("inquisitore", "boia", "templare") for p in alive)
    if wolves == 0:
        return ["eresia"] if heretics or not inquisition else ["inquisizione"]
    return ["branco"] if wolves >= len(alive) - wolves else None


def expected_winners(state) -> list[str]:
    factions = state.winning_factions
    names = {p.name for p in state.players if p.faction in factions}
    if state.setup == "inquisizione" and factions[0] in ("eresia", "inquisizione"):
        names |= {p.name for p in state.players if p.role == "contadino"}
    names |= state.goal_met
    return [p.name for p in state.players if p.name in names]


@pytest.mark.parametrize("setup", SETUPS)
@settings(max_examples=120, deadline=None)
@given(seed=seeds)
def test_random_games_end_legally_with_consistent_winners(setup, seed):
    state, log = random_game(setup, seed)
    alive = {p.name for p in state.players}
    once: dict[tuple[str, str], int] = {}
    consecutive: dict[str, tuple[int, str]] = {}
    delivered: set[str] = set()
    for index, (label, actions, votes, outcome) in enumerate(log):
        assert label == phase_label(index)
        for action in actions:
            assert action.actor in alive, f"{label}: dead {action.actor} acted"
            role = state.by_name[action.actor].dealt_role
            key = "vision" if action.vision else role
            if key in ("bandito", "pistolero", "vision"):
                once[(action.actor, key)] = once.get((action.actor, key), 0) + 1
                assert once[(action.actor, key)] == 1, f"{label}: {key} used twice"
            if role in ("maestrina", "guardia_gemella"):
                group = "guards" if role == "guardia_gemella" else action.actor
                last = consecutive.get(group)
                assert last != (index - 2, action.target), f"{label}: {role} repeated"
            if role == "notaio":
                assert action.target not in delivered
                delivered.add(action.target)
        for role in ("maestrina", "guardia_gemella"):
            chosen = [a for a in actions if state.by_name[a.actor].dealt_role == role]
            if chosen:
                group = "guards" if role == "guardia_gemella" else chosen[-1].actor
                consecutive[group] = (index, chosen[-1].target)
        for vote in votes:
            assert vote.voter in alive, f"{label}: dead {vote.voter} voted"
            assert vote.target is None or vote.target in alive
        for death in outcome.deaths:
            assert death.player in alive, f"{label}: {death.player} died twice"
            alive.discard(death.player)
    assert {p.name for p in state.players if p.alive} == alive
    formula = www_expected if setup == "wild-west-wolf" else inq_expected
    assert state.winning_factions == formula(state)
    assert state.winners == expected_winners(state)


@pytest.mark.parametrize("setup", SETUPS)
@settings(max_examples=60, deadline=None)
@given(seed=seeds, cut=st.floats(min_value=0.1, max_value=0.9))
def test_the_dead_cannot_act_or_vote(setup, seed, cut):
    """WWW-D8 / INQ-D19: any submission from a dead player is refused."""
    rules = ruleset_for(setup)
    final, log = random_game(setup, seed)
    stop = max(1, int(len(log) * cut))
    replayed, _ = rules.new_game({p.name: p.dealt_role for p in final.players}, seed=seed)
    for label, actions, votes, _ in log[:stop]:
        rules.play(replayed, label, actions=actions, votes=votes)
    if replayed.over:
        return
    label = phase_label(replayed.phase_index + 1)
    living = [p.name for p in replayed.players if p.alive]
    for dead in (p for p in replayed.players if p.dead):
        with pytest.raises(RuleViolation) as info:
            rules.validate(replayed, label, [Action(dead.name, living[0])], [])
        assert info.value.rule == rules.dead_actor_rule
