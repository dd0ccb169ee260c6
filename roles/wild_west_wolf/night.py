"""The Wild West Wolf night (WWW §10), one step per entry of the ordering table.

Deaths marked in a step take effect at the end of its phase (WWW-D8): a player dead
at the start of a phase cannot act in it, and every check inside a phase sees the
state at its start. All results are delivered at dawn, to the dead too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from roles.engine.abilities import Ability, remember_target
from roles.engine.messages import Role, msg
from roles.engine.model import Action, Death, GameState, PhaseOutcome, Player, Status
from roles.wild_west_wolf.abilities import (
    ABILITIES,
    ACCOMPANY,
    DELIVER,
    RECRUIT,
    SHOOT,
    VIP_ROLES,
    VISION,
)

# The statuses and the draw, by kind (roles/wild_west_wolf/statuses.py); phase 5, the Indians
# (roles/wild_west_wolf/indians.py).
from roles.wild_west_wolf.indians import attacks_allowed, indians
from roles.wild_west_wolf.statuses import BOUNTY, EXECUTED, FAKE_ROLE_CHOSEN, GUILT, REVENGE

if TYPE_CHECKING:
    from roles.wild_west_wolf.rules import WildWestWolf

__all__ = [
    "BOUNTY",
    "EXECUTED",
    "FAKE_ROLE_CHOSEN",
    "GUILT",
    "REVENGE",
    "STEPS",
    "Death",
    "attacks_allowed",
    "resolve",
]


class Night:
    """What one night's resolution carries from step to step."""

    __slots__ = ("accompanied", "attack_killed", "attack_landed", "chosen", "index", "outcome",
                 "outlaws", "rules", "state", "submitted")  # fmt: skip

    def __init__(
        self,
        rules: WildWestWolf,
        state: GameState,
        outcome: PhaseOutcome,
        index: int,
        submitted: list[Action],
    ) -> None:
        self.rules = rules
        self.state = state
        self.outcome = outcome
        self.index = index
        self.submitted = submitted  # every entry, in submission order (the pack's, WWW-D19)
        self.chosen: dict[str, Action] = {}  # ability key -> its last entry
        self.outlaws = False  # whether the Bandito or the Pistolero chose a Law phase
        self.accompanied: Player | None = None
        self.attack_landed: list[Player] = []  # victims for the Maestrina
        self.attack_killed: list[Player] = []  # victims for the Capo

    def player(self, name: str | None) -> Player | None:
        return self.state.by_name.get(name) if name else None

    def mark(self, player: Player, cause: str) -> bool:
        """Mark a death, applied at the end of the step; False when the GM spares him."""
        return self.rules.mark(self.state, self.outcome, player, cause)

    def outlaw_acting(self, ability: Ability, phase: str) -> tuple[Player, Action] | None:
        """The Bandito's or Pistolero's action, if he chose this Law phase and is alive
        (WWW-R57, R61, R94; void if he died earlier tonight, WWW-D8). Any attempt spends
        his single use (WWW-D11, D12)."""
        action = self.chosen.get(ability.key)
        if action is None or action.during != phase:
            return None
        actor = self.state.by_name[action.actor]
        if not actor.alive:
            return None
        self.state.used.add((actor.name, ability.key))
        return actor, action


# -- the Law phases: the owner acts, then the Bandito, then the Pistolero --------------


def pastore(night: Night, owner: Player) -> None:
    """WWW-R35, WWW-D14: the seen-as of yesterday's executed player, or 'nessuno'."""
    if night.index == 0:
        return  # WWW-R18: only the Maresciallo and the Pianista act on N0
    execution = night.state.status(EXECUTED, night.index)
    executed = execution.player if execution else None
    if executed is None:
        night.outcome.tell(owner.name, "autopsy", None, "nessuno")
        return
    seen = night.rules.seen_as(night.state.by_name[executed].role)
    night.outcome.tell(owner.name, "autopsy", executed, seen)


def notaio(night: Night, owner: Player) -> None:
    """WWW-R41..R48, WWW-D22: deliver the wills collected so far to one recipient."""
    action = night.chosen.get("deliver")
    if action is None:
        return
    state = night.state
    assert action.target is not None  # a targeted ability: checked as submitted
    remember_target(state, DELIVER, night.index // 2, owner.name, action.target)
    authors = [
        name for name in state.death_order
        if name in state.wills and state.death_phase[name] < night.index
    ]  # fmt: skip
    if state.options["www.notary_delivery"] == "since_last":
        delivered = state.wills_delivered
        authors = [name for name in authors if name not in delivered]
        delivered.update(authors)
    if authors:
        night.outcome.tell(action.target, "wills", None, authors)
        night.outcome.why(msg("www.trace.wills", "WWW-R42", notary=owner.name, role=Role("notaio"),
                              authors=", ".join(authors), recipient=action.target))  # fmt: skip


def maresciallo(night: Night, owner: Player) -> None:
    """WWW-R34: Americano or Indiano (seen as)."""
    action = night.chosen.get("investigate")
    if action is None:
        return
    assert action.target is not None  # a targeted ability: checked as submitted
    target = night.state.by_name[action.target]
    seen = night.rules.seen_as(target.role)
    night.outcome.tell(owner.name, "investigation", target.name, seen)


def maestrina(night: Night, owner: Player) -> None:
    """WWW-R36, R37: record whom she accompanies; what she learns comes in phase 5."""
    action = night.chosen.get("accompany")
    if action is None:
        return
    assert action.target is not None  # a targeted ability: checked as submitted
    remember_target(night.state, ACCOMPANY, night.index // 2, owner.name, action.target)
    night.accompanied = night.state.by_name[action.target]


def bandito(night: Night, phase: str, owner: Player | None, owner_alive: bool) -> None:
    """WWW-R57..R59, WWW-D11: the recruitment, if the Bandito chose this phase."""
    acting = night.outlaw_acting(RECRUIT, phase)
    if acting is None:
        return
    bandit, action = acting
    state, out = night.state, night.outcome
    assert action.target is not None  # a targeted ability: checked as submitted
    target = state.by_name[action.target]
    told_failure = state.options["www.bandit_told_failure"]
    if owner_alive and owner is not None:
        out.tell(bandit.name, "recruit", target.name, "exposed")
        out.tell(bandit.name, "recognized", None, owner.name)
        out.tell(owner.name, "recognized", None, bandit.name)
        out.why(msg("www.trace.bandit_caught", "WWW-R58", bandit=bandit.name, role=Role("bandito"),
                    phase=Role(phase), owner=owner.name))  # fmt: skip
    elif not target.alive:
        if told_failure:
            out.tell(bandit.name, "recruit", target.name, "failed")
    elif target.dealt_role == "sceriffo" or target.faction == "indiani":
        night.mark(bandit, "recruit_backfire")
        if told_failure:
            out.tell(bandit.name, "recruit", target.name, "failed")
        out.why(msg("www.trace.bandit_shot", "WWW-R59, WWW-D29", target=target.name,
                    bandit=bandit.name, role=Role("bandito")))  # fmt: skip
        if state.options["www.bandit_shooter_informed"]:
            out.tell(target.name, "recognized", None, bandit.name)  # WWW-D11
    elif target.faction != "legge":
        if told_failure:
            out.tell(bandit.name, "recruit", target.name, "failed")
        out.why(msg("www.trace.recruit_failed", "WWW-R59, WWW-D11", bandit=bandit.name,
                    role=Role("bandito"), target=target.name))  # fmt: skip
    else:
        target.faction = "fuorilegge"
        out.tell(bandit.name, "recruit", target.name, "success")
        out.tell(target.name, "recruited_by", None, bandit.name)
        out.why(msg("www.trace.recruited", "WWW-R59", bandit=bandit.name, role=Role("bandito"),
                    target=target.name))  # fmt: skip


def pistolero(night: Night, phase: str, owner: Player | None, owner_alive: bool) -> None:
    """WWW-R61, R62, R65, WWW-D12: the shot, if the Pistolero chose this phase."""
    acting = night.outlaw_acting(SHOOT, phase)
    if acting is None:
        return
    gunman, action = acting
    state, out = night.state, night.outcome
    if owner_alive and owner is not None:
        night.mark(owner, "pistolero")
        out.why(msg("www.trace.gunman_caught", "WWW-R62, WWW-R65", gunman=gunman.name,
                    role=Role("pistolero"), phase=Role(phase), owner=owner.name))  # fmt: skip
        return
    assert action.target is not None  # a targeted ability: checked as submitted
    target = state.by_name[action.target]
    if not target.alive:
        return
    if target.role == "cacciatore_di_taglie" and state.options["www.hunter_immune_to_pistolero"]:
        out.why(msg("www.trace.immune", "WWW-R85, WWW-D12", target=target.name))
        return
    night.mark(target, "pistolero")
    out.why(msg("www.trace.shot", "WWW-R61", gunman=gunman.name, role=Role("pistolero"),
                target=target.name))  # fmt: skip


def law_phase(role: str, own_step: Callable[[Night, Player], None]) -> Callable[[Night], None]:
    def step(night: Night) -> None:
        held = night.state.groups.get(role)  # the deal never changes: a single holder
        owner = held[0] if held else None
        owner_alive = owner is not None and owner.alive
        if owner is not None and owner_alive:
            own_step(night, owner)
        if not night.outlaws:  # neither "recruit" nor "shoot" chosen (resolve)
            return
        counts_alive = (
            owner is not None
            and owner_alive
            and (night.state.options["www.converted_owner_counts"] or owner.faction == "legge")
        )  # WWW-D10
        bandito(night, role, owner, counts_alive)
        pistolero(night, role, owner, counts_alive)

    step.__doc__ = f"The {role}'s phase (WWW-R93): owner, then Bandito, then Pistolero."
    return step


# -- after phase 5 ----------------------------------------------------------------------


def guilt(night: Night) -> None:
    """WWW-R89, WWW-D7: the decisive voter on the Rinnegato dies; nothing prevents it."""
    due = night.state.statuses and night.state.status(GUILT, night.index)
    if not due:
        return
    assert due.player is not None  # the guilt status names the decisive voter
    guilty = night.state.by_name[due.player]
    if guilty.alive and night.mark(guilty, "guilt"):
        night.outcome.why(msg("www.trace.guilt", "WWW-R89", player=guilty.name))


def bounty_turns(night: Night) -> None:
    """WWW-R84, WWW-D21: the Cacciatore whose bounty died tonight becomes the Rinnegato."""
    state = night.state
    bounty = state.draws.get(BOUNTY)
    if not bounty or state.death_phase.get(bounty) != night.index:
        return
    hunter = state.holder("cacciatore_di_taglie")
    if hunter is not None and hunter.alive and hunter.role == "cacciatore_di_taglie":
        hunter.role = "rinnegato"
        hunter.counts_as = night.rules.setup.cards["rinnegato"].counts_as
        night.outcome.tell(hunter.name, "rinnegato", None, bounty)
        night.outcome.why(msg("www.trace.rinnegato", "WWW-R84", bounty=bounty,
                              hunter=hunter.name))  # fmt: skip


def vip(night: Night) -> None:
    """WWW-R66, R70, R71, WWW-D17: the living Capo learns whether each victim was a VIP."""
    if not night.attack_killed:
        return
    state = night.state
    chief = state.holder("capo_indiano")
    if chief is None or not chief.alive:
        return
    vips = VIPS_WITH_SHERIFF if state.options["www.sheriff_is_vip"] else VIPS
    for victim in night.attack_killed:
        night.outcome.tell(
            chief.name, "vip", victim.name, "vip" if victim.dealt_role in vips else "non_vip"
        )


def pianista(night: Night) -> None:
    """WWW-R90: the Pianista's N0 choice of the role the Sciamano will be told."""
    action = night.chosen.get("fake_role")
    if action is not None and night.state.by_name[action.actor].alive:
        night.state.set_status(Status(FAKE_ROLE_CHOSEN, None, action.actor, action.fake_role))


# The night's steps (WWW-R93 and, for what the text leaves unplaced, WWW-D7, D9, D17,
# D21); the setup's YAML night_order runs them. Each reads the state at its start and
# marks deaths that apply at its end; a GM's correction acts at a named step.
STEPS: Final[dict[str, Callable[[Night], None]]] = {
    # 0. Pianista (N0 only): sets the fake role the Sciamano's vision reads.
    "pianista": pianista,
    # 1. Pastore: reads yesterday's execution; sets the autopsy result. Bandito/Pistolero.
    "pastore": law_phase("pastore", pastore),
    # 2. Notaio: reads the wills handed in; sets a delivery. Bandito/Pistolero.
    "notaio": law_phase("notaio", notaio),
    # 3. Maresciallo: reads seen-as; sets an investigation. Bandito/Pistolero.
    "maresciallo": law_phase("maresciallo", maresciallo),
    # 4. Maestrina: sets whom she accompanies (read in phase 5). Bandito/Pistolero.
    "maestrina": law_phase("maestrina", maestrina),
    # 5. Indians: reads the pack's targets, the block and the revenge, the accompanied
    #    player, the fake role; sets the attack's deaths, the vision, the Maestrina's and
    #    the Indians' information, the Pianista's block.
    "indiani": indians,
    # 6. Guilt (WWW-D7): reads the decisive voter on yesterday's Rinnegato; sets his death.
    "guilt": guilt,
    # 7. The Rinnegato change (WWW-D21): reads the bounty's death tonight; sets the role.
    "bounty": bounty_turns,
    # 8. VIP news (WWW-D17): reads the attack's dead and whether the Capo is alive at dawn.
    "vip": vip,
}


def resolve(
    rules: WildWestWolf, state: GameState, out: PhaseOutcome, actions: list[Action]
) -> None:
    night = Night(rules, state, out, state.phase_index, actions)
    by_name, chosen = state.by_name, night.chosen
    for action in actions:  # each (checked) entry filed under its ability; the steps read it
        key = VISION.key if action.vision else ABILITY_KEYS[by_name[action.actor].dealt_role]
        chosen[key] = action
        if key == RECRUIT.key or key == SHOOT.key:
            night.outlaws = True
    rules.run_night_table(state, out, night)


VIPS: Final = frozenset(VIP_ROLES)
VIPS_WITH_SHERIFF: Final = frozenset((*VIP_ROLES, "sceriffo"))  # WWW-D17

# A card's ability key, but the vision's (flagged on the action, WWW-R74): the Sciamano's
# other entries are pack kills.
ABILITY_KEYS: Final = {
    role: next(a.key for a in abilities if a is not VISION) for role, abilities in ABILITIES.items()
}
