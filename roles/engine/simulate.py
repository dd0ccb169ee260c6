"""Random legal games, for the property tests and the benchmark.

The simulator knows nothing of the rules beyond each role's declared abilities: it
proposes random choices and keeps those the ruleset's own legality check accepts, so
every game it plays is legal by the engine's definition.

It runs in the benchmark's inner loop, so it does the cheap, rule-free filtering
itself (an ability's phase kind, who is still alive) and asks the ruleset only about
what is left.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, Final

from roles.engine.abilities import DAY, NIGHT, Ability
from roles.engine.errors import RuleViolation
from roles.engine.model import PHASE_LABELS, Action, GameState, Player, Vote, phase_label
from roles.engine.registry import ruleset_for
from roles.engine.ruleset import Ruleset
from roles.engine.setups import deal_roles

TRIES: Final = 4  # random targets tried per ability use before giving it up
EAGERNESS: Final = 0.8  # chance that a player who may act does


def _attempt(
    rules: Ruleset, state: GameState, label: str, rng: random.Random,
    actor: Player, ability: Ability, pools: Pools,
) -> Action | None:  # fmt: skip
    """A random legal use of ``ability`` by ``actor``, or None after TRIES targets."""
    pool = pools.by_ability.get(ability)
    if pool is None:
        pool = pools.narrow(rules, state, ability)
    return draw_action(rules, state, label, rng, actor.name, ability, pool,
                       rules.has_random_fields)  # fmt: skip


def draw_action(
    rules: Ruleset, state: GameState, label: str, rng: random.Random,
    name: str, ability: Ability, pool: list, random_fields: bool,
) -> Action | None:  # fmt: skip
    """A random legal use of ``ability`` by ``name`` with a target drawn from ``pool`` (and
    the ability's random fields), or None after TRIES targets: the random model's draw,
    and the informed model's from its own pools."""
    if random_fields:
        fields = rules.random_fields(state, ability, rng)
        during, fake_role = fields.get("during"), fields.get("fake_role")
        vision = "vision" in fields
    else:
        during = fake_role = None
        vision = False
    actor = state.by_name[name]
    size = len(pool)
    for _ in range(TRIES):
        # rng.random() called as a method: compiled, that skips making a bound method per
        # call of draw_action (most draws take one try)
        target = pool[int(rng.random() * size)] if size else None
        action = Action(name, target, during, fake_role, vision, interned=True)
        try:
            rules.check_use(state, label, action, actor)
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
    eagerness: float = EAGERNESS,
    pools: Pools | None = None,
) -> list[Action]:
    """Random legal ability uses in phase ``label``: each living actor's own abilities,
    and each shared ability (the pack kill, the Guards) once per allowed use, entered by
    one member who may use it (a pack or a pair always agrees on its choice)."""
    if pools is None:
        pools = Pools(state)
    chance = rng.random
    can_use = rules.can_use
    actions: list[Action] = []
    for player, ability in solo:
        if player.alive and chance() < eagerness and can_use(state, label, player, ability):
            action = _attempt(rules, state, label, rng, player, ability, pools)
            if action is not None:
                actions.append(action)
    for ability, members in shared:
        size = len(members)
        first = int(chance() * size)
        for i in range(size):  # the first member who may act, from a random one on
            member = members[(first + i) % size]
            if can_use(state, label, member, ability):
                break
        else:
            continue
        for _ in range(rules.shared_uses(state, label, ability)):
            action = _attempt(rules, state, label, rng, member, ability, pools)
            if action is not None:
                actions.append(action)
    return actions


class Pools:
    """The names the simulator draws targets from: the living, or everyone still in the
    village (the dead too) for an ability that may target the dead; narrowed once per
    ability by the ruleset's guess, which must read only what a death does not change (a
    card, a pack's faction), and kept up to date as players die or leave (a guess only: the
    legality check still judges every draw)."""

    __slots__ = ("by_ability", "living", "present")

    def __init__(self, state: GameState) -> None:
        self.living = [p.name for p in state.players if p.alive]
        self.present = [p.name for p in state.players if not p.departed]
        self.by_ability: dict[Ability, list[str]] = {}

    def narrow(self, rules: Ruleset, state: GameState, ability: Ability) -> list[str]:
        """The pool of ``ability`` (looked up in ``by_ability`` first)."""
        if not ability.needs_target:
            pool: list[str] = []
        else:
            names = self.living if ability.dead_rule else self.present
            pool = rules.likely_targets(state, ability, names) if names else names
        self.by_ability[ability] = pool
        return pool

    def remove(self, player: Player) -> None:
        """``player`` died (or left: then he is not even a target for the dead). The narrowed
        pools lose him too: the rulesets' guesses read what a death does not change."""
        name = player.name
        living, present = self.living, self.present
        _drop(living, name)
        if player.departed:
            _drop(present, name)
        for ability, pool in self.by_ability.items():
            if pool is living or pool is present:
                continue  # the same list: already done
            if ability.dead_rule or player.departed:
                _drop(pool, name)


def _drop(names: list[str], name: str) -> None:
    """``name`` out of ``names`` if there (as ``list.remove``, without its ValueError). The
    pools hold the game's own (interned) names: looked for by identity first, a plain loop
    (compiled, ``list.remove`` and ``in`` compare each name through Python's generic calls)."""
    for i in range(len(names)):
        if names[i] is name:
            del names[i]
            return
    if name in names:  # another string of the same text
        names.remove(name)


def random_votes(
    state: GameState,
    rng: random.Random,
    secret_role: str | None,
    living: list[Player] | None = None,
) -> list[Vote]:
    """Most living players vote for one of a few suspects; a few withdraw."""
    if living is None:
        living = [p for p in state.players if p.alive]
    chance = rng.random
    size = len(living)
    suspects = [living[int(chance() * size)].name for _ in range(3)]  # maybe twice the same
    start = int(chance() * size)  # who votes first
    votes: list[Vote] = []
    append = votes.append
    for at, voter in enumerate(living[start:] + living[:start]):
        roll = chance()
        if roll >= 0.15:
            name = voter.name
            target = suspects[int(roll * 7919) % 3]
            if target != name:
                append(Vote(name, target, at, voter.dealt_role == secret_role, interned=True))
                if roll > 0.97:
                    append(Vote(name, None, at, interned=True))
    return votes


def _by_phase_kind(rules: Ruleset, state: GameState) -> dict[bool, tuple[list, list]]:
    """Every (player, ability) and every shared ability with its members, split by the
    kind of phase they can be used in: ``{is_night: (solo, shared)}``."""
    kinds: dict[bool, tuple[list, list]] = {}
    for night in (True, False):
        solo: list[tuple[Player, Ability]] = []
        groups: dict[Ability, list[Player]] = {}
        usable = _usable(rules, night)
        for player in state.players:
            for ability in usable[player.dealt_role]:
                if ability.shared:
                    groups.setdefault(ability, []).append(player)
                else:
                    solo.append((player, ability))
        kinds[night] = (solo, list(groups.items()))
    return kinds


@cache
def _usable(rules: Ruleset, night: bool) -> dict[str, list[Ability]]:
    """Dealt role -> its abilities usable at night (or by day)."""
    return {
        role: [a for a in rules.card_abilities(role) if a.when != (DAY if night else NIGHT)]
        for role in rules.setup.cards
    }


def random_game(
    setup_key: str,
    seed: int,
    *,
    max_phases: int = 200,
    options: Mapping[str, Any] | None = None,
    rules: Ruleset | None = None,
    model: Callable[..., Any] | None = None,
) -> tuple[GameState, list]:
    """Play one random legal game to its end; return the final state and every submission.

    ``options``: the setup's options overridden; ``rules``: another ruleset of the setup
    (a card swapped, for the balance study); ``model``: who chooses instead of chance, built
    as ``model(rules, state, start_outcome, rng)`` with ``actions(label, night, solo,
    shared, pools)``, ``votes(living, secret_role)`` and ``observe(outcome)`` (see
    roles/balance/informed.py)."""
    if rules is None:
        rules = ruleset_for(setup_key)
    rng = random.Random(seed)
    state, start = rules.new_game(deal_roles(rules.setup, _names(rules), rng), seed=seed,
                                  options=options)  # fmt: skip
    kinds = _by_phase_kind(rules, state)
    secret_role = rules.vote_rules.get("secret_role")
    living = list(state.players)
    pools = Pools(state)
    by_name = state.by_name
    play = rules.play
    chooser = model(rules, state, start, rng) if model is not None else None
    log = []
    for index in range(max_phases):
        label = PHASE_LABELS[index] if index < len(PHASE_LABELS) else phase_label(index)
        night = not index % 2
        solo, shared = kinds[night]
        if chooser is None:
            actions = random_actions(rules, state, label, rng, solo, shared, pools=pools)
            votes = [] if night else random_votes(state, rng, secret_role, living)
        else:
            actions = chooser.actions(label, night, solo, shared, pools)
            votes = [] if night else chooser.votes(living, secret_role)
        outcome = play(state, label, actions=actions, votes=votes, checked=True)
        log.append((label, actions, votes, outcome))
        if chooser is not None:
            chooser.observe(outcome)
        if outcome.deaths:
            if state.winning_factions is not None:
                return state, log
            for death in outcome.deaths:  # (dead actors stay in kinds: they are skipped)
                gone = by_name[death.player]
                living.remove(gone)
                pools.remove(gone)
    raise RuntimeError(f"game {setup_key}/{seed} did not end in {max_phases} phases")


@cache
def _names(rules: Ruleset) -> tuple[str, ...]:
    return tuple(f"P{i:02d}" for i in range(rules.setup.players))
