"""Abilities declared as data: who has one, when it may be used, on whom, how often.

A role module lists its abilities; the generic check below enforces what every
ability shares (timing, self and dead targets, once per game, consecutive-night and
never-twice bans), each refusal citing the rule that makes it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from roles.engine.messages import msg, verb, verb_to
from roles.engine.model import Action, GameState, Player

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
    # Keys in ``GameState.memory``: each user's previous target, and his targets so far.
    last_key: str = field(init=False, repr=False, compare=False)
    all_key: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "last_key", f"last:{self.key}")
        object.__setattr__(self, "all_key", f"all:{self.key}")


def available(state: GameState, label: str, actor: Player, ability: Ability) -> bool:
    """Whether ``ability`` can be used at all in ``label`` (timing and once-per-game uses),
    before any target is considered: what a player form shows or hides."""
    night = int(label[1:]) if label[0] == "N" else None
    if (ability.when == NIGHT and night is None) or (ability.when == DAY and night is not None):
        return False
    if night is not None and (
        night < ability.first_night
        or (ability.only_night is not None and night != ability.only_night)
    ):
        return False
    return not (ability.once_rule and (actor.name, ability.key) in state.used)


def used_key(ability: Ability, actor: Player) -> tuple[str, str]:
    """The key of a spent once-per-game ability in ``GameState.used``."""
    return (actor.name, ability.key)


def last_targets(state: GameState, ability: Ability) -> dict[str, str]:
    """Memory of each ability's targets: ``{actor or group: name}`` of the previous night."""
    return state.memory.setdefault(ability.last_key, {})


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
    night = int(label[1:]) if label[0] == "N" else None
    when = ability.when
    if when != ANY:
        if when == NIGHT and night is None:
            raise ruleset.violation(label, actor, msg("action.night_only", verb=verb(ability.verb)),
                                    ability.rule)  # fmt: skip
        if when == DAY and night is not None:
            raise ruleset.violation(label, actor, msg("action.day_only", verb=verb(ability.verb)),
                                    ability.rule)  # fmt: skip
    if night is not None and ability.only_night is not None and night != ability.only_night:
        raise ruleset.violation(
            label,
            actor,
            msg("action.only_night", verb=verb(ability.verb), night=ability.only_night),
            ability.rule,
        )
    if night is not None and night < ability.first_night:
        raise ruleset.violation(
            label,
            actor,
            msg("action.not_n0", verb=verb(ability.verb)),
            ability.first_night_rule or ability.rule,
        )
    if ability.once_rule and used_key(ability, actor) in state.used:
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
    memory_key = owner or actor.name
    if ability.repeat_rule and night is not None:
        previous = state.memory.get(ability.last_key, {}).get(memory_key)
        if previous is not None and previous == (night - 1, target.name):
            raise ruleset.violation(
                label, actor,
                msg("action.repeat", verb=verb_to(ability.verb), target=target.name),
                ability.repeat_rule,
            )  # fmt: skip
    if ability.never_twice_rule:
        done = state.memory.get(ability.all_key, {}).get(memory_key, ())
        if target.name in done:
            raise ruleset.violation(
                label, actor,
                msg("action.never_twice", verb=verb_to(ability.verb), target=target.name),
                ability.never_twice_rule,
            )  # fmt: skip
    ruleset.check_target(state, label, actor, ability, target)
    return target


def remember_target(state: GameState, ability: Ability, night: int, who: str, target: str) -> None:
    """Record a resolved target for the consecutive-night and never-twice bans."""
    last_targets(state, ability)[who] = (night, target)
    if ability.never_twice_rule:
        state.memory.setdefault(ability.all_key, {}).setdefault(who, []).append(target)
