"""Random legal games, for the property tests and the benchmark.

The simulator knows nothing of the rules beyond each role's declared abilities: it
proposes random choices and keeps those the ruleset's own legality check accepts, so
every game it plays is legal by the engine's definition.
"""

from __future__ import annotations

import random

from roles.engine.abilities import Ability, available
from roles.engine.errors import RuleViolation
from roles.engine.model import Action, GameState, Player, Vote, phase_label
from roles.engine.registry import ruleset_for
from roles.engine.ruleset import Ruleset
from roles.engine.setups import deal_roles

TRIES = 4  # random targets tried per ability use before giving it up


def random_actions(
    rules: Ruleset,
    state: GameState,
    label: str,
    rng: random.Random,
    actors: list[tuple[Player, tuple[Ability, ...]]],
    *,
    eagerness: float = 0.8,
) -> list[Action]:
    """Random legal ability uses for the living ``actors`` in phase ``label``."""
    in_game = [p.name for p in state.players if p.alive]
    everyone = [p.name for p in state.players if not p.departed]
    actions: list[Action] = []
    shared_done: dict[str, int] = {}
    chance = rng.random
    for player, abilities in actors:
        if not player.alive:
            continue
        for ability in abilities:
            if chance() > eagerness or not available(state, label, player, ability):
                continue
            if ability.shared:
                done = shared_done.get(ability.key, 0)
                if done >= rules.shared_uses(state, label, ability):
                    continue
            fields = rules.random_fields(state, ability, rng)
            pool = (in_game if ability.dead_rule else everyone) if ability.needs_target else None
            for _ in range(TRIES):
                target = pool[int(chance() * len(pool))] if pool else None
                action = Action(player.name, target, **fields)
                try:
                    rules.check_action(state, label, action)
                except RuleViolation:
                    continue
                actions.append(action)
                if ability.shared:
                    shared_done[ability.key] = shared_done.get(ability.key, 0) + 1
                break
    return actions


def random_votes(state: GameState, rng: random.Random, secret_role: str | None) -> list[Vote]:
    """Most living players vote for one of a few suspects; a few withdraw."""
    living = [p for p in state.players if p.alive]
    suspects = rng.sample(living, k=min(3, len(living)))
    rng.shuffle(living)
    chance = rng.random
    count = len(suspects)
    votes: list[Vote] = []
    for at, voter in enumerate(living):
        roll = chance()
        if roll < 0.15:
            continue
        target = suspects[int(roll * 7919) % count]
        if target is voter:
            continue
        votes.append(Vote(voter.name, target.name, at, voter.dealt_role == secret_role))
        if roll > 0.97:
            votes.append(Vote(voter.name, None, at))
    return votes


def random_game(setup_key: str, seed: int, *, max_phases: int = 200) -> tuple[GameState, list]:
    """Play one random legal game to its end; return the final state and every submission."""
    rules = ruleset_for(setup_key)
    rng = random.Random(seed)
    names = [f"P{i:02d}" for i in range(rules.setup.players)]
    state, _ = rules.new_game(deal_roles(rules.setup, names, rng), seed=seed)
    actors = [(p, rules.abilities_of(p)) for p in state.players]
    actors = [(p, abilities) for p, abilities in actors if abilities]
    secret_role = rules.vote_rules.get("secret_role")
    log = []
    while state.winning_factions is None:
        index = state.phase_index + 1
        if index >= max_phases:
            raise RuntimeError(f"game {setup_key}/{seed} did not end in {max_phases} phases")
        label = phase_label(index)
        actions = random_actions(rules, state, label, rng, actors)
        votes = random_votes(state, rng, secret_role) if index % 2 else []
        outcome = rules.play(state, label, actions=actions, votes=votes)
        log.append((label, actions, votes, outcome))
    return state, log
