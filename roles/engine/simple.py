"""A base for small setups: each card's abilities as data, one generic legality check, and a
night of named steps over the actions chosen (the classic village of the tests is written
on it; see docs/adding-a-setup.md). The larger setups keep their own Night for their many
interactions, on the same ordering-table machinery.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from roles.engine.abilities import Ability, check_ability
from roles.engine.channels import Channel, cemetery, living
from roles.engine.messages import msg
from roles.engine.model import Action, GameState, PhaseOutcome, Player, Vote
from roles.engine.ruleset import Ruleset


@dataclass
class Night:
    """What one night's resolution carries from step to step."""

    rules: SimpleRuleset
    state: GameState
    outcome: PhaseOutcome
    index: int
    chosen: dict[str, Action] = field(default_factory=dict)  # ability key -> last action
    notes: dict[str, Any] = field(default_factory=dict)  # what a step sets for a later one

    def acting(self, key: str) -> tuple[Player, Action] | None:
        """The action ``key`` and its actor, if he is still alive at this step."""
        action = self.chosen.get(key)
        if action is None:
            return None
        actor = self.state.by_name[action.actor]
        return (actor, action) if actor.alive else None

    def mark(self, player: Player, cause: str) -> bool:
        """A death at the end of this step; False when the GM spares him."""
        return self.rules.mark(self.state, self.outcome, player, cause)


class SimpleRuleset(Ruleset):
    """A ruleset whose cards have at most one ability each."""

    abilities: ClassVar[Mapping[str, tuple[Ability, ...]]]  # card -> its abilities
    groups: ClassVar[Mapping[str, str]] = {}  # card -> the group that shares its slot and chat

    def card_abilities(self, role: str) -> tuple[Ability, ...]:
        return self.abilities.get(role, ())

    def ability_key(self, actor: Player, action: Action) -> str:
        return self.card_abilities(actor.dealt_role)[0].key

    def check_action(self, state: GameState, label: str, action: Action) -> str | None:
        actor = state.by_name[action.actor]
        abilities = self.card_abilities(actor.dealt_role)
        if not abilities:
            raise self.violation(label, actor, msg("action.no_ability"), self.roles_rule)
        ability = abilities[0]
        if action.vision or action.during or action.fake_role:
            raise self.violation(label, actor, msg("action.extra_field"),
                                 ability.rule)  # fmt: skip
        owner = self.groups.get(actor.dealt_role, actor.name)
        check_ability(self, state, label, actor, action, ability, owner=owner)
        return None if ability.shared else ability.key

    def resolve_night(self, state: GameState, outcome: PhaseOutcome, actions: list[Action]) -> None:
        night = Night(self, state, outcome, state.phase_index)
        for action in actions:
            night.chosen[self.ability_key(state.by_name[action.actor], action)] = action
        self.run_night_table(state, outcome, night)

    def resolve_day(
        self, state: GameState, outcome: PhaseOutcome, actions: list[Action], votes: list[Vote]
    ) -> None:
        self.run_vote(state, outcome, votes)

    def channels(self, state: GameState) -> list[Channel]:
        """Each group's chat among its living members, and the Cemetery."""
        chats: dict[str, list[str]] = {}
        for card, group in self.groups.items():
            chats.setdefault(group, []).append(card)
        return [
            *(Channel(group, group.capitalize(), living(state, tuple(cards)))
              for group, cards in chats.items()),
            cemetery(state, departed=False),
        ]  # fmt: skip
