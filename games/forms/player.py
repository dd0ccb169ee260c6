"""What a player may submit now, as the engine says (the forms offer nothing else)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from games.engine import Ability, Rebuilt, Ruleset, RuleViolation, Vote, role_name
from games.engine import EnginePlayer as Player
from games.models import Phase, Submission
from games.text.words import ability_label


@dataclass
class AbilityForm:
    phase: Phase
    ability: Ability
    label: str
    targets: list[str]  # the legal targets, by name
    current: Submission | None = None
    phase_choices: tuple[str, ...] = ()  # Bandito / Pistolero: the Law phase to act in
    roles: list[tuple[str, str]] = field(default_factory=list)  # Pianista: role choices
    optional: bool = False  # the Templare may clear his designation
    setup_key: str = ""

    @property
    def law_phases(self) -> list[tuple[str, str]]:
        """The Law phases to choose from, (key, name): the role's name, never its key."""
        return [(key, role_name(key, self.setup_key)) for key in self.phase_choices]

    @property
    def chosen(self) -> str:
        """The standing choice in words (issue 31 minor): the target, or the role the
        Pianista shows by its card's name (not its key), and the Law phase chosen."""
        sub = self.current
        if sub is None:
            return ""
        if sub.target_id:
            words = sub.target.name
        elif sub.fake_role:
            words = dict(self.roles).get(sub.fake_role) or role_name(sub.fake_role, self.setup_key)
        else:
            words = "—"
        if sub.during:
            words += ", " + _("durante la fase di %(role)s") % {
                "role": role_name(sub.during, self.setup_key)
            }
        return words


@dataclass
class VoteForm:
    phase: Phase
    targets: list[str]
    current: Submission | None = None
    secret: bool = False


def ability_forms(
    built: Rebuilt, phase: Phase, name: str, latest: dict, *, skip: tuple[str, ...] = ()
) -> list[AbilityForm]:
    """The forms of ``name``'s abilities usable in ``phase`` (those in ``skip`` left out)."""
    rules, state = built.rules, built.state
    player = state.by_name[name]
    forms = []
    for ability in rules.abilities_of(player):
        if ability.key in skip or not rules.can_use(state, phase.label, player, ability):
            continue
        choices = rules.phase_choices(ability)
        form = AbilityForm(phase, ability, ability_label(rules, ability.key), [],
                           latest.get(ability.key), choices, setup_key=rules.key)  # fmt: skip
        if ability.needs_target:
            form.targets = rules.legal_targets(
                state, name, label=phase.label, during=choices[0] if choices else None,
                vision=ability.key == "vision",
            )  # fmt: skip
            form.optional = ability.optional_target
            if not form.targets and not form.optional:
                continue
        else:
            form.roles = [(k, role_name(k, rules.key)) for k in rules.setup.cards
                          if k != player.dealt_role]  # fmt: skip
        forms.append(form)
    return forms


def vote_forms(built: Rebuilt, phase: Phase, name: str, latest: dict) -> list[VoteForm]:
    rules, state = built.rules, built.state
    if not phase.label.startswith("D") or not state.by_name[name].alive:
        return []
    targets = []
    for candidate in state.players:
        try:
            rules.check_vote(state, phase.label, Vote(name, candidate.name, 0))
        except RuleViolation:
            continue
        targets.append(candidate.name)
    forms = [VoteForm(phase, targets, latest.get("vote"))]
    if rules.vote_rules.get("secret_role") == state.by_name[name].dealt_role:
        forms.append(VoteForm(phase, targets, latest.get("secret"), secret=True))
    return forms


def phase_choices_of(rules: Ruleset) -> tuple[str, ...]:
    """Every night phase any ability of the setup lets its user pick (the GM's form)."""
    seen: dict[str, None] = {}
    for role in rules.setup.cards:
        probe = Player(role, 0, role, role, rules.setup.cards[role].faction)
        for ability in rules.abilities_of(probe):
            seen.update(dict.fromkeys(rules.phase_choices(ability)))
    return tuple(seen)
