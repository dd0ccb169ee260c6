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
- every other choice (the pack's victim, a protection, a Law phase) is a random legal
  one drawn as roles/engine/simulate.py draws it, the engine's legality check
  (``Ruleset.check_action``) judging every draw.

It runs in the study's inner loop: what depends only on the ruleset is computed once
(:func:`profile`), what depends on the deal once per game (the targets' pools too: the
dead are taken out of them as they die); it uses the ruleset's public interface only.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

from roles.engine.abilities import Ability
from roles.engine.model import Action, GameState, PhaseOutcome, Player, Vote
from roles.engine.ruleset import Ruleset
from roles.engine.simulate import EAGERNESS, draw_action

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


@dataclass(frozen=True)
class Profile:
    """What the model and the study's counting read of a ruleset, computed once."""

    reveals: frozenset[str]  # suspect_values
    # the result values that show a suspect: a suspect value, or a card seen as one
    revealing: frozenset[str]


@cache
def profile(rules: Ruleset) -> Profile:
    reveals = suspect_values(rules)
    cards = rules.setup.cards
    seen = {key for key, card in cards.items() if card.seen_as in reveals}
    return Profile(reveals, frozenset(reveals | seen))


def is_hit(revealing: frozenset[str], value: object) -> bool:
    """Whether a result's value shows a suspect (a value that is no name, e.g. a list, never
    does)."""
    try:
        return value in revealing
    except TypeError:  # unhashable
        return False


class InformedModel:
    """One game's informed table: built by the simulator with the dealt state."""

    def __init__(
        self, rules: Ruleset, state: GameState, start: PhaseOutcome, rng: random.Random
    ) -> None:
        self.rules, self.state, self.rng = rules, state, rng
        self.revealing = profile(rules).revealing
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
        # who a player's pools leave out: his bloc and the players he tested
        self.excluded: dict[str, frozenset[str]] = dict(self.bloc)
        self.random_fields = rules.has_random_fields
        self.base: dict[Ability, list[str]] = {}  # ability -> its pool (see _bury)
        # the names of the living and of those still in the village, in seat order
        self.living = [p.name for p in state.players if p.alive]
        self.present = [p.name for p in state.players if not p.departed]
        self.vote_table: dict[str | None, tuple] | None = None  # see votes()

    # -- the night ---------------------------------------------------------------------

    def actions(
        self, label: str, night: bool, solo: list, shared: list, pools: object = None
    ) -> list[Action]:
        """Each living actor's own abilities, four times in five; each shared ability
        once per allowed use, entered by a member drawn among those who may use it.
        (``pools``, the simulator's, is not read: the model keeps its own.)"""
        rules, state = self.rules, self.state
        chance = self.rng.random
        can_use = rules.can_use
        attempt = self._attempt
        actions: list[Action] = []
        for player, ability in solo:
            if player.alive and chance() < EAGERNESS and can_use(state, label, player, ability):
                action = attempt(label, player, ability)
                if action is not None:
                    actions.append(action)
        for ability, members in shared:
            # can_use is false for the dead (Ruleset.can_use): they are skipped unasked
            alive = [m for m in members if m.alive and can_use(state, label, m, ability)]
            if not alive:
                continue
            member = alive[int(chance() * len(alive))]
            for _ in range(rules.shared_uses(state, label, ability)):
                action = attempt(label, member, ability)
                if action is not None:
                    actions.append(action)
        return actions

    def _attempt(self, label: str, actor: Player, ability: Ability) -> Action | None:
        """A random legal use of ``ability`` by ``actor`` from :meth:`pool`, or None after
        TRIES targets (the draws of roles/engine/simulate.py's attempt)."""
        pool = self.pool(actor, ability)
        return draw_action(self.rules, self.state, label, self.rng, actor.name, ability, pool,
                           self.random_fields)  # fmt: skip

    def pool(self, actor: Player, ability: Ability) -> list[str]:
        """The names ``actor`` draws his targets for ``ability`` from: the ability's pool
        (the living, or everyone still in the village for an ability that may target the
        dead, narrowed by the ruleset's guess), for an investigator without the players
        he tested and for a bloc's member without his bloc, unless nobody is left."""
        pool = self.base.get(ability)
        if pool is None:
            pool = self.base[ability] = self._narrow(ability)
        excluded = self.excluded.get(actor.name)
        if excluded is None or excluded.isdisjoint(pool):  # (the ruleset's guess may have
            return pool  # left the bloc out already: a pack's victims are no wolves)
        return [n for n in pool if n not in excluded] or pool

    def _narrow(self, ability: Ability) -> list[str]:
        if not ability.needs_target:
            return []
        names = self.living if ability.dead_rule else self.present
        return self.rules.likely_targets(self.state, ability, names) if names else []

    # -- the day -----------------------------------------------------------------------

    def votes(self, living: list[Player], secret_role: str | None) -> list[Vote]:
        """Each living player's vote: a bloc's members for their bloc's target of the day,
        the others for the first suspect alive (the secret vote for any suspect outside
        its bloc), or at random."""
        chance = self.rng.random
        bloc = self.bloc
        table = self.vote_table
        if table is None:  # per player: (own bloc or None, casts the secret vote)
            table = self.vote_table = {
                p.name: (bloc.get(p.name), p.dealt_role == secret_role) for p in self.state.players
            }
        suspects = self.suspects
        if suspects:
            by_name = self.state.by_name
            suspects = [s for s in suspects if by_name[s].alive]
        size = len(living)
        bloc_target: dict[frozenset[str], str] = {}
        votes: list[Vote] = []
        append = votes.append
        target: str | None
        for at, voter in enumerate(living):
            name = voter.name
            own, secret = table[name]
            if own is None and not secret:  # the village: the first suspect, or chance
                if suspects:
                    target = suspects[0]
                    if target == name:
                        if len(suspects) > 1:
                            target = suspects[1]
                        else:
                            target = living[int(chance() * size)].name
                            if target == name:
                                continue
                else:
                    target = living[int(chance() * size)].name
                    if target == name:
                        continue  # no self vote: this voter abstains today
                append(Vote(name, target, at, False, interned=True))
                continue
            target = None
            if suspects and (secret or own is None):
                if own is None:
                    choices = [s for s in suspects if s != name]
                else:
                    choices = [s for s in suspects if s != name and s not in own]
                if choices:  # the secret vote picks one
                    target = choices[int(chance() * len(choices))] if secret else choices[0]
            if target is None and own is not None:
                target = bloc_target.get(own)
                if target is None:
                    others = [n for n in self.living if n not in own]
                    if not others:
                        continue
                    target = bloc_target[own] = others[int(chance() * len(others))]
            elif target is None:
                target = living[int(chance() * size)].name
                if target == name:
                    continue
            append(Vote(name, target, at, secret, interned=True))
        return votes

    # -- what the table learns ----------------------------------------------------------

    def _bury(self, outcome: PhaseOutcome) -> None:
        """The dead leave the pools of the living, the departed every pool (the ruleset's
        guess was made once: it reads what a death does not change, a card, a faction)."""
        living, present, by_name = self.living, self.present, self.state.by_name
        for death in outcome.deaths:
            name = death.player
            departed = by_name[name].departed
            living.remove(name)
            if departed:
                present.remove(name)
            for ability, pool in self.base.items():
                if (
                    pool is not living
                    and pool is not present
                    and (ability.dead_rule or departed)
                    and name in pool  # (the guess may have left him out)
                ):
                    pool.remove(name)

    def observe(self, outcome: PhaseOutcome) -> None:
        if outcome.deaths:
            self._bury(outcome)
        revealing = self.revealing
        for result in outcome.results:
            if result.kind not in REVEALING_KINDS or result.about is None:
                continue
            about, to = result.about, result.to
            tested = self.tested.get(to)
            if tested is None:
                self.tested[to] = {about}
            else:
                tested.add(about)
            excluded = self.excluded.get(to)
            if excluded is None:
                self.excluded[to] = frozenset((about,))
            elif about not in excluded:
                self.excluded[to] = excluded | {about}
            if is_hit(revealing, result.value) and about not in self.suspects:
                self.suspects.append(about)
