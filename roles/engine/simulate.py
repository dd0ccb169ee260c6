"""Random legal games, for the property tests and the benchmark.

The simulator knows nothing of the rules beyond each role's declared abilities: it
proposes random choices and keeps those the ruleset's own legality check accepts, so
every game it plays is legal by the engine's definition.
"""

from __future__ import annotations

import random

from roles.engine.abilities import Ability
from roles.engine.errors import RuleViolation
from roles.engine.model import Action, GameState, Player, Vote, phase_label
from roles.engine.registry import ruleset_for
from roles.engine.ruleset import Ruleset
from roles.engine.setups import deal_roles

TRIES = 4  # random targets tried per ability use before giving it up


def _attempt(
    rules: Ruleset, state: GameState, label: str, rng: random.Random,
    members: list[Player], ability: Ability, pools: tuple[list[str], list[str]],
) -> Action | None:  # fmt: skip
    """A random legal use of ``ability`` by one of ``members``, or None after TRIES."""
    chance = rng.random
    in_game, everyone = pools
    pool = (in_game if ability.dead_rule else everyone) if ability.needs_target else None
    if pool:
        pool = rules.likely_targets(state, ability, pool)
    fields = rules.random_fields(state, ability, rng)
    during, fake_role, vision = fields.get("during"), fields.get("fake_role"), "vision" in fields
    for _ in range(TRIES):
        actor = members[int(chance() * len(members))]
        target = pool[int(chance() * len(pool))] if pool else None
        action = Action(actor.name, target, during, fake_role, vision)
        try:
            rules.check_action(state, label, action)
        except RuleViolation:
            continue
        return action
    return None


def random_actions(
    rules: Ruleset,
    state: GameState,
    label: str,
    rng: random.Random,
    solo: list[tuple[Player, Ability]],
    shared: list[tuple[Ability, list[Player]]],
    *,
    eagerness: float = 0.8,
) -> list[Action]:
    """Random legal ability uses in phase ``label``: each living actor's own abilities,
    and each shared ability (the pack kill, the Guards) once per allowed use."""
    pools = ([p.name for p in state.players if p.alive],
             [p.name for p in state.players if not p.departed])  # fmt: skip
    chance = rng.random
    actions: list[Action] = []
    for player, ability in solo:
        if player.alive and chance() < eagerness and rules.can_use(state, label, player, ability):
            action = _attempt(rules, state, label, rng, [player], ability, pools)
            if action is not None:
                actions.append(action)
    for ability, members in shared:
        living = [p for p in members if rules.can_use(state, label, p, ability)]
        if not living:
            continue  # (a pack or a pair always agrees on its choice)
        for _ in range(rules.shared_uses(state, label, ability)):
            action = _attempt(rules, state, label, rng, living, ability, pools)
            if action is not None:
                actions.append(action)
    return actions


def random_votes(state: GameState, rng: random.Random, secret_role: str | None) -> list[Vote]:
    """Most living players vote for one of a few suspects; a few withdraw."""
    living = [p for p in state.players if p.alive]
    suspects = rng.sample(living, k=min(3, len(living)))
    count = len(suspects)
    start = int(rng.random() * len(living))  # who votes first
    votes: list[Vote] = []
    for at, voter in enumerate(living[start:] + living[:start]):
        roll = rng.random()
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
    solo: list[tuple[Player, Ability]] = []
    groups: dict[Ability, list[Player]] = {}
    for player in state.players:
        for ability in rules.abilities_of(player):
            if ability.shared:
                groups.setdefault(ability, []).append(player)
            else:
                solo.append((player, ability))
    shared = list(groups.items())
    secret_role = rules.vote_rules.get("secret_role")
    log = []
    while state.winning_factions is None:
        index = state.phase_index + 1
        if index >= max_phases:
            raise RuntimeError(f"game {setup_key}/{seed} did not end in {max_phases} phases")
        label = phase_label(index)
        actions = random_actions(rules, state, label, rng, solo, shared)
        votes = random_votes(state, rng, secret_role) if index % 2 else []
        outcome = rules.play(state, label, actions=actions, votes=votes, checked=True)
        log.append((label, actions, votes, outcome))
    return state, log
