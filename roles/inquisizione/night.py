"""The Inquisizione night (INQ §10), one step per entry of the ordering table.

Nobody dies before step 5 in this ruleset, so every step sees the players alive at the
start of the night. All results are delivered at dawn, to the dead too (INQ-D22).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from roles.engine.abilities import remember_target
from roles.engine.mechanics import blocked_night, martyr_of_the_pack
from roles.engine.messages import msg
from roles.engine.model import Action, GameState, PhaseOutcome, Player
from roles.inquisizione.abilities import ABILITIES, PROTECT
from roles.inquisizione.statuses import DESIGNATION

if TYPE_CHECKING:
    from roles.inquisizione.rules import Inquisizione


class Night:
    """What one night's resolution carries from step to step."""

    __slots__ = ("chosen", "index", "outcome", "protected", "recipient", "rules", "state",
                 "visitors")  # fmt: skip

    def __init__(
        self, rules: Inquisizione, state: GameState, outcome: PhaseOutcome, index: int
    ) -> None:
        self.rules = rules
        self.state = state
        self.outcome = outcome
        self.index = index
        self.chosen: dict[str, Action] = {}  # ability key -> last action
        self.recipient: str | None = None  # the Postino's redirect
        self.protected: str | None = None
        # who targeted the Lupo Scorbutico (made at the first: most nights, nobody)
        self.visitors: set[str] | None = None

    def acting(self, key: str, role: str) -> tuple[Player, Action] | None:
        """The living holder of ``role`` and his action ``key``, if he submitted one."""
        action = self.chosen.get(key)
        if action is None:
            return None
        actor = self.state.by_name[action.actor]
        return (actor, action) if actor.alive and actor.role == role else None

    def visit(self, actor: Player, target: str | None) -> None:
        if target is not None and self.state.by_name[target].role == "lupo_scorbutico":
            if self.visitors is None:
                self.visitors = set()
            self.visitors.add(actor.name)


def postino(night: Night) -> None:
    """INQ-R29, R30, INQ-D10: record the redirect of the Seer's answer."""
    acting = night.acting("redirect", "postino")
    if acting is None:
        return
    actor, action = acting
    assert action.target is not None  # a targeted ability: checked as submitted
    night.recipient = action.target
    night.visit(actor, action.target)


def veggente(night: Night) -> None:
    """INQ-R27, R28, R30, R31: INNOCENTE or LOSCO, to the Seer or the Postino's recipient."""
    acting = night.acting("probe", "veggente")
    if acting is None:
        return  # INQ-D10: no probe, nothing for the recipient either
    seer, action = acting
    assert action.target is not None  # a targeted ability: checked as submitted
    night.visit(seer, action.target)
    target = night.state.by_name[action.target]
    seen = night.rules.seen_as(target.role)
    to = night.recipient or seer.name
    names_target = not night.recipient or night.recipient == seer.name
    names_target = names_target or night.state.options["inq.postino_message_names_target"]
    night.outcome.tell(to, "investigation", target.name if names_target else None, seen)
    if night.recipient:
        night.outcome.why(msg("inq.trace.redirected", "INQ-R30", recipient=night.recipient,
                              target=target.name))  # fmt: skip


def inquisitore(night: Night) -> None:
    """INQ-R44: eretico when the target's faction is ERESIA, else non_eretico."""
    acting = night.acting("test", "inquisitore")
    if acting is None:
        return
    actor, action = acting
    assert action.target is not None  # a targeted ability: checked as submitted
    night.visit(actor, action.target)
    target = night.state.by_name[action.target]
    value = "eretico" if target.faction == "eresia" else "non_eretico"
    night.outcome.tell(actor.name, "investigation", target.name, value)


def guardie_gemelle(night: Night) -> None:
    """INQ-R35, R37, R38, INQ-D11: both Guards alive at nightfall protect one player."""
    action = night.chosen.get("protect")
    if action is None:
        return
    assert action.target is not None  # a targeted ability: checked as submitted
    guards = night.state.dealt("guardia_gemella")
    for guard in guards:
        if not guard.alive:
            return
    night.protected = action.target
    remember_target(night.state, PROTECT, night.index // 2, "guardie", action.target)  # R37
    if night.state.by_name[action.target].role != "lupo_scorbutico":
        return  # nobody visits the Lupo Scorbutico (night.visit, inline)
    both = night.state.options["inq.grumpy_list_both_guards"]
    for guard in guards if both else [night.state.by_name[action.actor]]:
        night.visit(guard, action.target)  # INQ-D13: both Guards are listed


def lupi(night: Night) -> None:
    """INQ-R54, R58, R61, R62, INQ-D15: the maul, stopped only by the Guards."""
    action = night.chosen.get("maul")
    state, out = night.state, night.outcome
    if action is None or blocked_night(state, night.index):
        return
    assert action.target is not None  # a targeted ability: checked as submitted
    victim = state.by_name[action.target]
    if not victim.alive:
        return
    if victim.name == night.protected:
        out.why(msg("inq.trace.protected", "INQ-R35", target=victim.name))
        return
    if state.options["inq.record_maul_executor"]:
        out.why(msg("inq.trace.maul_by", "INQ-R54, INQ-D12", target=victim.name, wolf=action.actor))
    else:
        out.why(msg("inq.trace.maul", "INQ-R54, INQ-D12", target=victim.name))
    if not night.rules.mark(state, out, victim, "pack"):
        return  # spared by the GM: not mauled, so no block and no goal (INQ-D15)
    if victim.role == "martire":
        martyr_of_the_pack(state, out, victim, night.index,
                           msg("inq.trace.martire", "INQ-R61, INQ-R62"))  # fmt: skip


def templar_dies(rules: Inquisizione, state: GameState, out: PhaseOutcome) -> None:
    """INQ-R50, R51, INQ-D14: the designated Heretic dies with the Templare."""
    designation = state.status(DESIGNATION)
    name = designation.player if designation else None
    if not name:
        return
    designated = state.by_name[name]
    others = [p for p in state.players if p.alive and p.faction == "inquisizione"]
    if not others:
        out.why(msg("inq.trace.templare_last", "INQ-R51"))
        return
    if designated.alive and designated.faction == "eresia":
        out.why(msg("inq.trace.templare", "INQ-R50, INQ-R39", target=designated.name))
        rules.kill(state, out, designated, "templare")


def visitors(night: Night) -> None:
    """INQ-R59, R60, INQ-D13: the Lupo Scorbutico learns who targeted him, at dawn."""
    grumpy = night.state.holder("lupo_scorbutico")
    if grumpy is None or night.state.death_phase.get(grumpy.name, night.index) < night.index:
        return
    seen = night.visitors
    names = [p.name for p in night.state.players if p.name in seen] if seen else []
    night.outcome.tell(grumpy.name, "visitors", None, names)


def templare(night: Night) -> None:
    """INQ-R50, R52, INQ-D14: the Templare's designation for tonight, read when he dies
    (a dead player named is accepted and has no effect)."""
    action = night.chosen.get("designate")
    if action is not None:
        night.rules.designate(night.state, [action])
    elif not night.state.options["inq.templar_designation_persists"]:
        night.rules.designate(night.state, [])


# The night's steps (INQ-R63; the Templare's designation, INQ-R52, and the visitor list,
# INQ-R59, where the text places them); the setup's YAML night_order runs them. A GM's
# correction acts at a named step.
STEPS: Final[dict[str, Callable[[Night], None]]] = {
    # 0. Templare: sets the standing designation (read at his death, by any cause).
    "templare": templare,
    # 1. Postino: sets where the Seer's answer goes.
    "postino": postino,
    # 2. Veggente: reads seen-as and the redirect; sets the answer.
    "veggente": veggente,
    # 3. Inquisitore: reads factions; sets his answer.
    "inquisitore": inquisitore,
    # 4. Guardie Gemelle: reads both Guards alive; sets the protected player (read by step
    #    5) and remembers him (INQ-R37).
    "guardie_gemelle": guardie_gemelle,
    # 5. Lupi: reads the protection and the block; sets the maul's death, the Martire's
    #    block, the Templare's chain.
    "lupi": lupi,
    # 6. Dawn: the Lupo Scorbutico's visitors (INQ-R59, INQ-D22).
    "scorbutico": visitors,
}


def resolve(
    rules: Inquisizione, state: GameState, out: PhaseOutcome, actions: list[Action]
) -> None:
    night = Night(rules, state, out, state.phase_index)
    for action in actions:
        night.chosen[ABILITIES[state.by_name[action.actor].role].key] = action  # the last counts
    rules.run_night_table(state, out, night)
