"""The informed player model of the balance study (docs/balance.md).

Random legal play says little about a setup's balance: this model plays as a table that
uses what it learns. It knows no role and no setup; it reads the results the engine
gives (``knows`` at the deal, ``investigation`` and ``vision`` at night) and asks the
ruleset which investigation values show an enemy (``Ruleset.suspect_values``):

- **blocs**: the players told of each other at the deal (a pack, a pair of Guards, the
  Inquisitore with his men) form a bloc; a bloc never votes for one of its own and its
  living members vote together for one target, drawn each day among the non-members;
- **suspects**: every investigator's hits (a value in ``suspect_values``, or a vision of a
  card seen so) are made public; every player outside a bloc votes for the first suspect
  found still alive (so the village agrees), otherwise at random;
- **the secret vote** (the Boia) goes to a suspect outside his bloc, when there is one;
- **investigators** (whoever got an ``investigation`` result) never test the same player
  twice nor a member of their own bloc while somebody else is left;
- every other choice (the pack's victim, a protection, a Law phase) stays the random
  legal one of roles/engine/simulate.py, the engine's legality check judging every draw.
"""

from __future__ import annotations

import random

from roles.engine.abilities import Ability
from roles.engine.model import Action, GameState, PhaseOutcome, Player, Vote
from roles.engine.ruleset import Ruleset
from roles.engine.simulate import EAGERNESS, Pools, _attempt

REVEALING_KINDS = ("investigation", "vision")


def suspect_values(rules: Ruleset) -> frozenset[str]:
    """The ruleset's declared values, or, when it declares none, the seen-as values that
    only cards of a minority faction carry (the wolves' ``lupo`` in a classic village)."""
    if rules.suspect_values:
        return rules.suspect_values
    cards = rules.setup.cards.values()
    biggest = max(
        rules.setup.factions or ("",), key=lambda f: sum(c.count for c in cards if c.faction == f)
    )
    honest = {c.seen_as for c in cards if c.faction == biggest}
    return frozenset(c.seen_as for c in cards if c.seen_as not in honest)


class _Narrowed:
    """The one pool an actor draws from (the simulator's :class:`Pools` interface)."""

    __slots__ = ("by_ability",)

    def __init__(self, ability: Ability, pool: list[str]) -> None:
        self.by_ability = {ability: pool}


class InformedModel:
    """One game's informed table: built by the simulator with the dealt state."""

    def __init__(
        self, rules: Ruleset, state: GameState, start: PhaseOutcome, rng: random.Random
    ) -> None:
        self.rules, self.state, self.rng = rules, state, rng
        self.reveals = suspect_values(rules)
        self.cards = rules.setup.cards
        self.bloc: dict[str, frozenset[str]] = {}
        for result in start.results:
            if result.kind == "knows" and result.value:
                members = {result.to, *result.value}
                for name in list(members):
                    members |= self.bloc.get(name, frozenset())
                joined = frozenset(members)
                for name in joined:
                    self.bloc[name] = joined
        self.suspects: list[str] = []  # in the order found: the village agrees on the first
        self.tested: dict[str, set[str]] = {}  # investigator -> players already tested

    # -- the night ---------------------------------------------------------------------

    def actions(
        self, label: str, night: bool, solo: list, shared: list, pools: Pools
    ) -> list[Action]:
        rules, state, rng = self.rules, self.state, self.rng
        chance = rng.random
        can_use = rules.can_use
        actions: list[Action] = []
        for player, ability in solo:
            if player.alive and chance() < EAGERNESS and can_use(state, label, player, ability):
                action = _attempt(
                    rules, state, label, rng, player, ability, self._pools(player, ability, pools)
                )
                if action is not None:
                    actions.append(action)
        for ability, members in shared:
            alive = [m for m in members if can_use(state, label, m, ability)]
            if not alive:
                continue
            member = alive[int(chance() * len(alive))]
            for _ in range(rules.shared_uses(state, label, ability)):
                action = _attempt(
                    rules, state, label, rng, member, ability, self._pools(member, ability, pools)
                )
                if action is not None:
                    actions.append(action)
        return actions

    def _pools(self, actor: Player, ability: Ability, pools: Pools) -> Pools | _Narrowed:
        """An investigator's pool without the players he tested and his own bloc; a
        bloc's without its members; anyone else's the simulator's."""
        tested = self.tested.get(actor.name)
        own = self.bloc.get(actor.name)
        if tested is None and own is None:
            return pools
        pool = pools.by_ability.get(ability)
        if pool is None:
            pool = pools.narrow(self.rules, self.state, ability)
        left = [
            n for n in pool if (tested is None or n not in tested) and (own is None or n not in own)
        ]
        return _Narrowed(ability, left or pool)

    # -- the day -----------------------------------------------------------------------

    def votes(self, living: list[Player], secret_role: str | None) -> list[Vote]:
        chance = self.rng.random
        by_name, bloc = self.state.by_name, self.bloc
        suspects = [s for s in self.suspects if by_name[s].alive] if self.suspects else ()
        size = len(living)
        bloc_target: dict[frozenset[str], str] = {}
        votes: list[Vote] = []
        for at, voter in enumerate(living):
            name = voter.name
            own = bloc.get(name)
            secret = voter.dealt_role == secret_role
            target = None
            if suspects and (secret or own is None):
                choices = [s for s in suspects if s != name and (own is None or s not in own)]
                if choices:  # the village agrees on the first; the secret vote picks one
                    target = choices[int(chance() * len(choices))] if secret else choices[0]
            if target is None and own is not None:
                target = bloc_target.get(own)
                if target is None:
                    others = [p.name for p in living if p.name not in own]
                    if not others:
                        continue
                    target = bloc_target[own] = others[int(chance() * len(others))]
            elif target is None:
                target = living[int(chance() * size)].name
                if target == name:
                    continue  # no self vote: this voter abstains today
            votes.append(Vote(name, target, at, secret))
        return votes

    # -- what the table learns ----------------------------------------------------------

    def observe(self, outcome: PhaseOutcome) -> None:
        reveals, cards = self.reveals, self.cards
        for result in outcome.results:
            if result.kind not in REVEALING_KINDS or result.about is None:
                continue
            value = result.value
            self.tested.setdefault(result.to, set()).add(result.about)
            seen = cards[value].seen_as if value in cards else value
            if (value in reveals or seen in reveals) and result.about not in self.suspects:
                self.suspects.append(result.about)
