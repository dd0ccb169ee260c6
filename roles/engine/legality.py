"""What every ruleset checks before it resolves anything: who may act, on whom, and vote.

The checks use the state at the *start* of the phase (WWW-D8, INQ §10), which is also what
the player forms offer; each refusal is a :class:`RuleViolation` citing its rule.
:class:`roles.engine.ruleset.Ruleset` builds on this (through :class:`roles.engine.deal.Dealing`),
and a setup's rules subclass that.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any, ClassVar

from roles.engine.abilities import Ability, available
from roles.engine.errors import RuleViolation
from roles.engine.messages import Message, msg, verb_to
from roles.engine.messages import verb as bare_verb
from roles.engine.model import Action, GameState, Player, Vote, phase_label


class Legality(ABC):
    prefix: ClassVar[str]  # option prefix, "www." or "inq."
    roles_rule: ClassVar[str]  # the rule fixing the role list
    vote_rules: ClassVar[dict[str, str]]  # which rule forbids what, for votes
    dead_actor_rule: ClassVar[str]
    departed_rule: ClassVar[str] = "spec"

    def opt(self, state: GameState, name: str) -> Any:
        return state.options[self.prefix + name]

    def validate(
        self, state: GameState, label: str, actions: list[Action], votes: list[Vote]
    ) -> None:
        if actions:
            self.validate_actions(state, label, actions)
        if votes:
            self.check_votes(state, label, votes)

    def validate_actions(self, state: GameState, label: str, actions: list[Action]) -> None:
        """Every action legal, and at most one use of each ability slot per phase."""
        # the slots filled: a few each phase, so a list (made at the second: one needs none)
        seen: list[str] | None = None
        first: str | None = None
        by_name = state.by_name
        for action in actions:
            actor = by_name.get(action.actor)  # type: ignore[arg-type]
            if actor is None or not actor.alive:
                actor = self.player(state, action.actor, label)
                self.require_in_game(actor, label)
            slot = self.check_use(state, label, action, actor)
            if slot is None:
                continue
            if first is None:
                first = slot
                continue
            if seen is None:
                seen = [first]
            for filled in seen:
                if filled == slot:
                    raise self.violation(label, actor, msg("action.slot_used"),
                                         self.ability_rule(actor))  # fmt: skip
            seen.append(slot)

    def check_votes(self, state: GameState, label: str, votes: list[Vote]) -> None:
        """All the day's votes; the common legal case is checked inline (it runs for
        every voter of every day), anything unusual gets the detailed check."""
        if label[0] != "D":
            for vote in votes:
                self.check_vote(state, label, vote)  # refused: no vote at night
            return
        by_name = state.by_name
        secret_role: str | None = ""  # read when a secret vote comes ("": not yet)
        # the last target looked up (votes gather on a few): the same name again is the
        # same player, as nothing changes while the votes are checked
        last: str | None = None
        chosen: Player | None = None
        for vote in votes:
            voter = by_name.get(vote.voter)
            if voter is not None and voter.alive:
                target = vote.target
                if target is not None:
                    if target is not last:
                        chosen = by_name.get(target)
                        last = target
                    if chosen is None or not chosen.alive or chosen is voter:
                        self.check_vote(state, label, vote)
                        continue
                if not vote.secret:
                    continue
                if secret_role == "":
                    secret_role = self.vote_rules.get("secret_role")
                if voter.dealt_role == secret_role:
                    continue
            self.check_vote(state, label, vote)

    @abstractmethod
    def check_action(self, state: GameState, label: str, action: Action) -> str | None:
        """Raise RuleViolation if ``action`` is illegal; return its per-phase slot key
        (None for shared slots such as the pack kill, where the last entry counts)."""

    def check_use(self, state: GameState, label: str, action: Action, actor: Player) -> str | None:
        """:meth:`check_action` with its actor already found (the one in ``state`` named by
        ``action.actor``): a ruleset may check without looking him up again."""
        return self.check_action(state, label, action)

    def ability_rule(self, actor: Player) -> str:
        return self.roles_rule

    def check_target(  # noqa: B027 - an optional hook
        self, state: GameState, label: str, actor: Player, ability: Ability, target: Player
    ) -> None:
        """Setup-specific limits on a target, once the shared ones passed."""

    @abstractmethod
    def ability_key(self, actor: Player, action: Action) -> str:
        """The slot an (already checked) action fills: its ability's key."""

    @abstractmethod
    def card_abilities(self, role: str) -> tuple[Ability, ...]:
        """The abilities the holder of the card ``role`` may submit."""

    def abilities_of(self, player: Player) -> tuple[Ability, ...]:
        """The abilities ``player`` may submit (by his dealt card: a converted player keeps
        his powers)."""
        return self.card_abilities(player.dealt_role)

    def can_use(self, state: GameState, label: str, player: Player, ability: Ability) -> bool:
        """Whether ``player`` may use ``ability`` at all in ``label``, whatever the target:
        the player forms show exactly these (the legality check still judges each use)."""
        return player.alive and available(state, label, player, ability)

    def phase_choices(self, ability: Ability) -> tuple[str, ...]:
        """The night phases an ability's user must pick one of (none for most)."""
        return ()

    def shared_uses(self, state: GameState, label: str, ability: Ability) -> int:
        """How many entries of a shared ability count in ``label`` (two pack kills...)."""
        return 1

    def likely_targets(self, state: GameState, ability: Ability, pool: list[str]) -> list[str]:
        """The simulator's first guess at targets (the legality check still decides), made
        once per game: it reads only what a death does not change (a card, a pack's faction)."""
        return pool

    def random_fields(self, state: GameState, ability: Ability, rng: random.Random) -> dict:
        """Extra fields a random use of ``ability`` needs (the simulator's hook)."""
        return {}

    def legal_targets(
        self,
        state: GameState,
        actor: str,
        *,
        label: str | None = None,
        during: str | None = None,
        vision: bool = False,
    ) -> list[str]:
        """Whom ``actor`` may target in the next phase (the player forms offer exactly
        these, so the forms and the replay never disagree)."""
        label = label or phase_label(state.phase_index + 1)
        player = self.player(state, actor, label)
        names = []
        for candidate in state.players:
            action = Action(actor, candidate.name, during=during, vision=vision)
            try:
                self.require_in_game(player, label)
                self.check_action(state, label, action)
            except RuleViolation:
                continue
            names.append(candidate.name)
        return names

    def check_vote(self, state: GameState, label: str, vote: Vote) -> None:
        rules = self.vote_rules
        voter = self.player(state, vote.voter, label)
        if label[0] != "D":
            raise self.violation(label, voter, msg("vote.at_night"), rules["when"])
        self.require_in_game(voter, label)
        if vote.secret and voter.dealt_role != rules.get("secret_role"):
            raise self.violation(label, voter, msg("vote.no_secret"), rules["secret"])
        if vote.target is None:
            return
        target = self.player(state, vote.target, label)
        if not target.alive:
            raise self.violation(label, voter, msg("vote.target_out", target=target.name),
                                 rules["target"])  # fmt: skip
        if target is voter and not self.opt(state, "allow_self_vote"):
            raise self.violation(label, voter, msg("vote.self"), rules["self"])

    def player(self, state: GameState, name: str | None, label: str) -> Player:
        player = state.by_name.get(name) if name is not None else None
        if player is None:
            raise RuleViolation(msg("player.unknown", name=repr(name)), "spec", phase=label)
        return player

    def require_in_game(self, player: Player, label: str) -> None:
        if player.departed:
            raise self.violation(label, player, msg("player.departed"), self.departed_rule)
        if not player.alive:
            raise self.violation(label, player, msg("player.dead"), self.dead_actor_rule)

    def violation(self, label: str, player: Player, message: Message, rule: str) -> RuleViolation:
        return RuleViolation(message, rule, phase=label, player=player.name, role=player.role)

    def target_of(
        self,
        state: GameState,
        label: str,
        actor: Player,
        action: Action,
        *,
        rule_self: str | None,
        rule_dead: str | None,
        verb: str,
    ) -> Player:
        """The action's target, checked: present, not the actor (when ``rule_self``),
        in the game (when ``rule_dead``)."""
        if action.target is None:
            raise self.violation(label, actor, msg("action.no_target", verb=bare_verb(verb)),
                                 self.ability_rule(actor))  # fmt: skip
        target = self.player(state, action.target, label)
        if rule_self and target is actor:
            raise self.violation(label, actor, msg("action.self", verb=verb_to(verb)), rule_self)
        if target.departed:
            raise self.violation(
                label, actor, msg("action.target_departed", verb=verb_to(verb), target=target.name),
                self.departed_rule,
            )  # fmt: skip
        if rule_dead and not target.alive:
            raise self.violation(
                label, actor, msg("action.target_dead", verb=verb_to(verb), target=target.name),
                rule_dead,
            )  # fmt: skip
        return target
