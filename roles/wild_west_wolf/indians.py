"""Phase 5 of the Wild West Wolf night (WWW §10): the Indians' attack, the Sciamano's
vision, what the Maestrina and the Indians learn of each other (a step of
roles/wild_west_wolf/night.py's table).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from roles.engine.mechanics import PACK_BLOCKED, blocked_night, latest_distinct, martyr_of_the_pack
from roles.engine.messages import Role, msg
from roles.engine.model import Action, GameState, Player
from roles.wild_west_wolf.abilities import VISION
from roles.wild_west_wolf.statuses import FAKE_ROLE_CHOSEN, REVENGE

if TYPE_CHECKING:
    from roles.wild_west_wolf.night import Night
    from roles.wild_west_wolf.rules import WildWestWolf


def attacks_allowed(rules: WildWestWolf, state: GameState, index: int) -> int:
    """How many victims the Indians may attack on the night ``index`` (WWW §10)."""
    if index == 0:
        return 0  # WWW-R18
    statuses = state.statuses
    if PACK_BLOCKED not in statuses and REVENGE not in statuses:
        return 1
    blocked = blocked_night(state, index)  # WWW-R91
    revenge = state.status(REVENGE, index) is not None  # WWW-R69
    if blocked and revenge:
        return 0 if state.options["www.pianist_block_beats_revenge"] else 2  # WWW-D18
    if blocked:
        return 0
    return 2 if revenge else 1


def indians(night: Night) -> None:
    """Phase 5: the attack, the Sciamano's vision, the Maestrina's information."""
    if "pack_kill" in night.chosen and pack_alive(night.state):
        victims = pack_victims(night)
        for victim in victims:
            attack(night, victim, victims)
    vision(night)
    spotted(night)


def pack_alive(state: GameState) -> bool:
    """WWW-D19: the pack attacks while one of its members is alive."""
    for p in state.players:  # noqa: SIM110 - a plain loop: no generator on the hot path
        if p.alive and p.faction == "indiani":
            return True
    return False


def pack_victims(night: Night) -> list[Player]:
    """WWW-R77, R69, WWW-D19: the pack's entries sorted out, the last ones counting (as many
    different victims as the attacks allowed tonight)."""
    state = night.state
    by_name = state.by_name
    entries = [a for a in night.submitted
               if by_name[a.actor].faction == "indiani" and not a.vision]  # fmt: skip
    attacks = attacks_allowed(night.rules, state, night.index)
    if len(entries) == 1 and attacks:  # one entry: it counts (latest_distinct's answer)
        target = entries[0].target
        return [by_name[target]] if target is not None else []
    chosen = latest_distinct(entries, attacks, _target)
    return [by_name[t] for a in chosen if (t := a.target) is not None]  # an entry names one


def _target(action: Action) -> str | None:
    return action.target


def attack(night: Night, victim: Player, victims: list[Player]) -> None:
    """WWW-R77 with the Cacciatore's immunity, the Vicesceriffo's sacrifice, the Pianista.
    ``victims``: every player tonight's attacks name. With ``www.deputy_saves_on_double``
    off, a Vicesceriffo named himself does not step in for the Sheriff, whatever order the
    two were submitted in (WWW-D16)."""
    state, out = night.state, night.outcome
    if not victim.alive:
        return
    if victim.role == "cacciatore_di_taglie":
        night.attack_landed.append(victim)
        out.why(msg("www.trace.attack_immune", "WWW-R85", target=victim.name))
        return
    deputy = state.holder("vicesceriffo")
    deputy_attacked = deputy is not None and any(p is deputy for p in victims)
    if (
        victim.dealt_role == "sceriffo"
        and deputy is not None
        and deputy.alive
        and deputy.faction == "legge"
        and (state.options["www.deputy_saves_on_double"] or not deputy_attacked)
    ):
        out.why(msg("www.trace.deputy", "WWW-R50, WWW-R54", target=victim.name,
                    deputy=deputy.name, role=Role("vicesceriffo")))  # fmt: skip
        victim = deputy
    if any(p is victim for p in night.attack_landed):
        return  # the deputy dies once (WWW-D16)
    night.attack_landed.append(victim)
    if not night.mark(victim, "pack"):
        return  # spared by the GM: not killed, so no VIP news and no Pianista's block
    night.attack_killed.append(victim)
    out.why(msg("www.trace.attack", "WWW-R77", target=victim.name))
    if victim.role == "pianista":
        martyr_of_the_pack(state, out, victim, night.index,
                           msg("www.trace.pianista", "WWW-R91, WWW-R92"))  # fmt: skip


def vision(night: Night) -> None:
    """WWW-R74, R75, R90, WWW-D9: the Sciamano learns an exact role card."""
    action = night.chosen.get("vision")
    if action is None:
        return
    shaman = night.state.by_name[action.actor]
    if not shaman.alive:
        return
    night.state.used.add((shaman.name, VISION.key))
    assert action.target is not None  # a targeted ability: checked as submitted
    target = night.state.by_name[action.target]
    role = target.role
    disguise = night.state.status(FAKE_ROLE_CHOSEN)
    if role == "pianista" and disguise is not None and disguise.value:
        role = disguise.value
    night.outcome.tell(shaman.name, "vision", target.name, role)
    if night.state.options["www.shaman_reports_conversion"]:  # WWW-D9, switched
        converted = target.faction != night.rules.setup.cards[target.dealt_role].faction
        night.outcome.tell(shaman.name, "converted", target.name, converted)


def spotted(night: Night) -> None:
    """WWW-R36, R38..R40, R54, WWW-D15: the Maestrina and the Indians learn of each other."""
    if night.accompanied is None:
        return
    state, out = night.state, night.outcome
    teacher = state.holder("maestrina")
    if teacher is None:
        return
    if not any(p is night.accompanied for p in night.attack_landed):
        return  # WWW-R38: only the Indians' victim counts
    living = [p for p in state.players if p.alive and p.faction == "indiani"]
    # WWW-D15: the draw is among the Indians alive after the attack (an Indian the attack
    # killed is not drawn: www.indians_can_target_indians); the Capo never (WWW-R39, R40)
    survivors = [p for p in living if not any(p is k for k in night.attack_killed)]
    others = [p for p in survivors if p.dealt_role != "capo_indiano"]
    found = None
    if others:
        found = night.rules.draw(state, f"maestrina:{night.index}", others)
        if state.options["www.teacher_learns_role"]:  # WWW-R36: his identity, name and card
            out.tell(teacher.name, "spotted", found.name, found.role)
        else:
            out.tell(teacher.name, "spotted", None, found.name)
    # WWW-D33: every Indian alive at the start of this step learns her, one the attack
    # killed too (step 3 of the night, before the deaths apply)
    told = living
    if state.options["www.teacher_revealed_to"] == "spotted_indian":
        told = [found] if found is not None else living  # the Capo alone still learns (R40)
    for indian in told:
        out.tell(indian.name, "spotted_by", None, teacher.name)
