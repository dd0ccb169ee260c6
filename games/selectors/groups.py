"""The night as a group plays it, read for the pages (issue 12 §4).

A shared ability (the Indians' attack, the wolves' maul, the twin Guards' protection) is
one slot for its group: each member's latest choice stands, and the resolution uses the
latest ones, as many as the night allows (``Ruleset.shared_uses``: two after the Capo's
execution, WWW-D19; one for the Guards and the wolves, INQ-D11, INQ-D12). Members see the
group's choice and who set it; the GM sees when members disagree.

A choice the rules no longer allow (its target died before the night, executed that day)
is told to its player and to the GM while it can still be changed, with the engine's own
legality check: the site never guesses which targets a power may take.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from games.engine import Ability, Action, Rebuilt, RuleViolation, latest_distinct
from games.models import Phase, Submission
from games.text.words import ability_label, refusal


@dataclass
class Choice:
    """One player's standing choice for an ability in a phase."""

    phase: Phase
    player: str
    slot: str
    target: str | None
    at: dt.datetime
    by_gm: bool = False  # entered by the GM on the player's behalf
    problem: str = ""  # why the rules no longer take it ("" when they do)
    target_gone: bool = False  # its target died (or left) since it was sent
    action: Action | None = None  # as the engine reads it
    label: str = ""  # the ability in the setup's words

    @property
    def text(self) -> str:
        """What the player reads about a choice the rules no longer take."""
        return problem_text(self) if self.problem else ""


@dataclass
class GroupChoice:
    """A group's shared slot in one phase: every member's choice, and what counts."""

    phase: Phase
    ability: Ability
    label: str  # the setup's words for the ability ("Attacco degli Indiani")
    members: list[str]
    uses: int  # how many of the latest distinct targets count tonight
    entries: list[Choice] = field(default_factory=list)  # time order, one per member
    chosen: list[Choice] = field(default_factory=list)  # what the resolution would use

    @property
    def targets(self) -> list[str]:
        return [c.target for c in self.chosen if c.target]

    @property
    def disagreement(self) -> bool:
        """Members stand on more targets than the night takes (WWW-D19, INQ-D11, INQ-D12:
        only the latest count, so someone's choice will not)."""
        return len({c.target for c in self.entries if c.target}) > self.uses


def standing_choices(phases: list[Phase], slots: set[str] | None = None) -> list[Choice]:
    """Every player's latest action per slot in ``phases`` (only ``slots`` when given), in
    the order the engine takes them (games.engine.gather_inputs: the time of each slot's
    latest submission)."""
    rows = Submission.objects.filter(phase__in=phases, kind=Submission.Kind.ACTION)
    if slots is not None:
        rows = rows.filter(slot__in=slots)
    rows = (
        rows.order_by("at", "pk")
        .values_list("phase_id", "player_id", "player__name", "slot", "target__name", "during",
                     "fake_role", "vision", "at", "entered_by_id", named=True)
    )  # fmt: skip
    by_pk = {p.pk: p for p in phases}
    latest: dict[tuple[int, int, str], Choice] = {}
    for row in rows:
        key = (row.phase_id, row.player_id, row.slot)
        latest.pop(key, None)  # re-inserted: keeps the time order
        actor, target = row.player__name, row.target__name
        latest[key] = Choice(
            by_pk[row.phase_id], actor, row.slot, target, row.at, row.entered_by_id is not None,
            action=Action(actor, target, row.during or None, row.fake_role or None, row.vision),
        )  # fmt: skip
    return list(latest.values())


def judge(built: Rebuilt, choices: list[Choice]) -> list[Choice]:
    """The choices of players still in the game, each with the engine's verdict now
    (``problem`` set when the rules would drop it at the resolution)."""
    rules, state = built.rules, built.state
    kept = []
    for choice in choices:
        choice.label = ability_label(rules, choice.slot)
        actor = state.by_name[choice.player]
        if not actor.alive or choice.target is None:
            continue  # a dead actor's choices and a withdrawal are nobody's concern now
        try:
            rules.check_action(state, choice.phase.label, choice.action)
        except RuleViolation as exc:
            target = state.by_name.get(choice.target)
            choice.target_gone = target is not None and not target.alive
            choice.problem = refusal(exc, rules.key)  # in the reader's language
        kept.append(choice)
    return kept


def group_choices(built: Rebuilt, phase: Phase, choices: list[Choice]) -> list[GroupChoice]:
    """Each shared ability usable in ``phase``, with its members' standing choices and the
    ones the resolution would use: the latest legal entries naming different players, as
    many as ``shared_uses`` allows (the engine's rule, WWW-D19, INQ-D11, INQ-D12)."""
    rules, state = built.rules, built.state
    groups: dict[str, GroupChoice] = {}
    for player in state.players:
        for ability in rules.abilities_of(player):
            if not ability.shared or not rules.can_use(state, phase.label, player, ability):
                continue
            group = groups.get(ability.key)
            if group is None:
                uses = rules.shared_uses(state, phase.label, ability)
                label = ability_label(rules, ability.key)
                group = groups[ability.key] = GroupChoice(phase, ability, label, [], uses)
            group.members.append(player.name)
    for group in groups.values():
        group.entries = [c for c in choices if c.phase.pk == phase.pk
                         and c.slot == group.ability.key and c.player in group.members]  # fmt: skip
        standing = [c for c in group.entries if not c.problem]
        group.chosen = latest_distinct(standing, group.uses, _target)
    return list(groups.values())


def _target(choice: Choice) -> str | None:
    return choice.target


def problem_text(choice: Choice) -> str:
    """What a player reads about his choice the rules no longer take."""
    if choice.target_gone:
        return _("Il tuo bersaglio %(name)s è morto: scegli di nuovo.") % {"name": choice.target}
    return _("La tua scelta su %(name)s non è più valida (%(why)s): scegli di nuovo.") % {
        "name": choice.target, "why": choice.problem,
    }  # fmt: skip


@dataclass
class NightWatch:
    """What the GM's phase page shows about the open phases' actions before the deadline."""

    groups: list[GroupChoice] = field(default_factory=list)
    void: list[Choice] = field(default_factory=list)  # choices the rules no longer take

    @property
    def disagreements(self) -> list[GroupChoice]:
        return [g for g in self.groups if g.disagreement]


def night_watch(built: Rebuilt, phases: list[Phase]) -> NightWatch:
    """The groups' choices and the void choices of ``phases`` (those taking submissions)."""
    if not phases:
        return NightWatch()
    choices = judge(built, standing_choices(phases))
    watch = NightWatch(void=[c for c in choices if c.problem])
    for phase in phases:
        watch.groups += group_choices(built, phase, choices)
    return watch


@dataclass
class PlayerNight:
    """What a player's page says about his choices before the deadline."""

    groups: list[GroupChoice] = field(default_factory=list)  # the groups he is in
    void: list[Choice] = field(default_factory=list)  # his choices the rules no longer take


def player_night(
    built: Rebuilt,
    phases: list[Phase],
    name: str,
    latest: dict[int, dict[str, Submission]],
    shared: set[str],
) -> PlayerNight:
    """``name``'s own void choices (from ``latest``, his standing submissions by phase and
    slot: no query) and, when he holds a shared ability (``shared``: its keys), his groups'
    choices in ``phases``."""
    mine = [
        Choice(phase, name, sub.slot, sub.target.name if sub.target else None, sub.at,
               sub.entered_by_id is not None,
               action=Action(name, sub.target.name if sub.target else None, sub.during or None,
                             sub.fake_role or None, sub.vision))
        for phase in phases for sub in latest.get(phase.pk, {}).values()
        if sub.kind == Submission.Kind.ACTION
    ]  # fmt: skip
    night = PlayerNight(void=[c for c in judge(built, mine) if c.problem])
    if shared:
        choices = judge(built, standing_choices(phases, slots=shared))
        for phase in phases:
            night.groups += [g for g in group_choices(built, phase, choices) if name in g.members]
    return night
