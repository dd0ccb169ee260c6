"""Abilities declared as data: who has one, when it may be used, on whom, how often.

A role module lists its abilities; the generic check below enforces what every
ability shares (timing, self and dead targets, once per game, consecutive-night and
never-twice bans), each refusal citing the rule that makes it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from roles.engine.messages import msg, verb, verb_to
from roles.engine.model import PHASE_LABELS, Action, GameState, PastTargets, Player

if TYPE_CHECKING:
    from roles.engine.ruleset import Ruleset

NIGHT, DAY, ANY = "night", "day", "any"


@dataclass(frozen=True, slots=True, eq=False)  # each ability is one module constant
class Ability:
    key: str  # slot name: one use per phase per actor, unless ``shared``
    verb: str  # for messages: "investigate", "protect", ...
    rule: str  # the rule that grants the ability
    when: str = NIGHT  # night, day or any phase
    first_night: int = 0  # 0: from N0; 1: from N1 ("from the second night")
    first_night_rule: str = ""  # the rule keeping it off N0
    only_night: int | None = None  # usable on that night only (the Pianista's N0 choice)
    self_rule: str | None = None  # rule forbidding the actor as target
    self_option: str | None = None  # option that, when true, allows the actor anyway
    dead_rule: str | None = None  # rule forbidding dead targets (None: dead allowed)
    dead_option: str | None = None  # option that, when true, allows dead targets
    once_rule: str | None = None  # once per game
    repeat_rule: str | None = None  # not the same target two nights in a row
    never_twice_rule: str | None = None  # never the same target twice
    shared: bool = False  # one slot for a group: the last entry counts
    needs_target: bool = True
    optional_target: bool = False  # a null target clears a standing choice (Templare)
    optional_rule: str | None = None  # the rule saying he "may" use it: he may leave it unused
    # a ban on repeated targets (consecutive nights or never twice): its past targets count
    remembered: bool = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "remembered", bool(self.repeat_rule or self.never_twice_rule))


# The usual night labels, looked up (the very strings of PHASE_LABELS, which Ruleset.play
# goes on with).
NIGHT_NUMBERS: Final[dict[str, int]] = {PHASE_LABELS[2 * i]: i for i in range(200)}


def night_number(label: str) -> int | None:
    """The night's number of a phase label (N0 -> 0, N3 -> 3), None for a day."""
    number: int | None = NIGHT_NUMBERS.get(label)
    if number is None and label[0] == "N":
        return int(label[1:])
    return number


def optional_rule(ability: Ability) -> str | None:
    """The rule that lets a player leave ``ability`` unused, None when the GM waits for
    his choice: the power's own "may" (INQ-R29 the Postino, INQ-R50 the Templare), or a
    once-per-game power kept for a later night (WWW-R57, WWW-R61, WWW-R74: "may try").
    The one rule of who still owes a choice and who may still use an optional power."""
    return ability.optional_rule or ability.once_rule


def available(state: GameState, label: str, actor: Player, ability: Ability) -> bool:
    """Whether ``ability`` can be used at all in ``label`` (timing and once-per-game uses),
    before any target is considered: what a player form shows or hides."""
    night: int | None = NIGHT_NUMBERS.get(label)
    if night is None and label[0] == "N":
        night = int(label[1:])
    if night is not None:
        only = ability.only_night
        if (
            ability.when == DAY
            or night < ability.first_night
            or (only is not None and only != night)
        ):
            return False
    elif ability.when == NIGHT:
        return False
    return not (ability.once_rule and (actor.name, ability.key) in state.used)


def check_ability(
    ruleset: Ruleset,
    state: GameState,
    label: str,
    actor: Player,
    action: Action,
    ability: Ability,
    *,
    owner: str | None = None,
) -> Player | None:
    """Enforce what every ability shares; return the target (None when it has none)."""
    when = ability.when
    night: int | None = NIGHT_NUMBERS.get(label)
    if night is None and label[0] == "N":
        night = int(label[1:])
    if night is not None:
        only = ability.only_night
        if when == DAY or night < ability.first_night or (only is not None and only != night):
            _refuse_timing(ruleset, label, actor, ability, night)
    elif when == NIGHT:
        _refuse_timing(ruleset, label, actor, ability, night)
    if ability.once_rule and (actor.name, ability.key) in state.used:
        raise ruleset.violation(
            label, actor, msg("action.once_used", verb=verb(ability.verb)),
            ability.once_rule,
        )  # fmt: skip
    if not ability.needs_target or (ability.optional_target and action.target is None):
        return None
    target = state.by_name.get(action.target)  # type: ignore[arg-type]
    if target is None or target is actor or not target.alive:  # anything unusual
        self_allowed = ability.self_rule is None or (
            ability.self_option is not None and ruleset.opt(state, ability.self_option)
        )
        dead_allowed = ability.dead_rule is None or (
            ability.dead_option is not None and ruleset.opt(state, ability.dead_option)
        )
        target = ruleset.target_of(
            state, label, actor, action,
            rule_self=None if self_allowed else ability.self_rule,
            rule_dead=None if dead_allowed else ability.dead_rule,
            verb=ability.verb,
        )  # fmt: skip
    if ability.remembered and state.targets:
        past = state.targets.get((ability.key, owner or actor.name))
        if past is not None:
            repeat = night is not None and past.night == night - 1 and past.last == target.name
            if ability.repeat_rule and repeat:
                said = msg("action.repeat", verb=verb_to(ability.verb), target=target.name)
                raise ruleset.violation(label, actor, said, ability.repeat_rule)
            if ability.never_twice_rule and target.name in past.every:
                said = msg("action.never_twice", verb=verb_to(ability.verb), target=target.name)
                raise ruleset.violation(label, actor, said, ability.never_twice_rule)
    if ability in ruleset.targets_checked:
        ruleset.check_target(state, label, actor, ability, target)
    return target


def _refuse_timing(
    ruleset: Ruleset, label: str, actor: Player, ability: Ability, night: int | None
) -> None:
    """The refusal of an ability used in the wrong phase, the first rule that forbids it."""
    when, said = ability.when, verb(ability.verb)
    if when != ANY:
        if when == NIGHT and night is None:
            raise ruleset.violation(label, actor, msg("action.night_only", verb=said), ability.rule)
        if when == DAY and night is not None:
            raise ruleset.violation(label, actor, msg("action.day_only", verb=said), ability.rule)
    if night is not None and ability.only_night is not None and night != ability.only_night:
        only = msg("action.only_night", verb=said, night=ability.only_night)
        raise ruleset.violation(label, actor, only, ability.rule)
    if night is not None and night < ability.first_night:
        rule = ability.first_night_rule or ability.rule
        raise ruleset.violation(label, actor, msg("action.not_n0", verb=said), rule)


def remember_target(state: GameState, ability: Ability, night: int, who: str, target: str) -> None:
    """Record a resolved target (``who``: the user, or his group) for the consecutive-night
    and never-twice bans."""
    past = state.targets.get((ability.key, who))
    if past is None:
        state.targets[(ability.key, who)] = PastTargets(night, target, [target])
    else:
        past.night, past.last = night, target
        past.every.append(target)
