"""The classic village's rules (CV-R1..R7 in setup.yaml): abilities as data, three steps."""

from __future__ import annotations

from typing import Any, ClassVar

from roles.engine.abilities import Ability, remember_target
from roles.engine.model import GameState, PhaseOutcome, Player
from roles.engine.simple import Night, SimpleRuleset

MAUL = Ability(
    "maul", "maul", "CV-R2", first_night=1, first_night_rule="CV-R2",
    self_rule="CV-R2", dead_rule="CV-R2", shared=True,
)  # fmt: skip
PROTECT = Ability(
    "protect", "protect", "CV-R3", first_night=1, first_night_rule="CV-R3",
    self_rule="CV-R3", dead_rule="CV-R3", repeat_rule="CV-R3",
)  # fmt: skip
PROBE = Ability(
    "probe", "probe", "CV-R4", self_rule="CV-R4", dead_rule="CV-R4",
    dead_option="investigate_dead",
)  # fmt: skip


def guardia(night: Night) -> None:
    """CV-R3: the protected player, read by the wolves' step."""
    if acting := night.acting("protect"):
        guard, action = acting
        night.notes["protected"] = action.target
        remember_target(night.state, PROTECT, night.index // 2, guard.name, action.target)


def lupi(night: Night) -> None:
    """CV-R2: the wolves' victim dies unless protected."""
    action = night.chosen.get("maul")
    state = night.state
    if action is None or not any(p.alive for p in state.dealt("lupo")):
        return
    victim = state.by_name[action.target]
    if victim.name == night.notes.get("protected"):
        night.outcome.why(f"the wolves choose {victim.name}, protected: nobody dies [CV-R3]")
    elif victim.alive and night.mark(victim, "pack"):
        night.outcome.why(f"the wolves kill {victim.name} [CV-R2]")


def veggente(night: Night) -> None:
    """CV-R4, CV-R5: the seer, if still alive, learns whether her target is a wolf."""
    if acting := night.acting("probe"):
        seer, action = acting
        target = night.state.by_name[action.target]
        seen = night.rules.setup.cards[target.role].seen_as
        night.outcome.tell(seer.name, "investigation", target.name, seen)


class ClassicVillage(SimpleRuleset):
    key = "classic-village"
    prefix = "cv."
    count_rule = "CV-R1"
    roles_rule = "CV-R1"
    dead_actor_rule = "CV-R5"
    vote_rules: ClassVar[dict[str, str]] = {
        "when": "CV-R6", "secret": "CV-R6", "target": "CV-R6", "self": "CV-R6", "tie": "CV-R6",
    }  # fmt: skip
    abilities: ClassVar[dict[str, tuple[Ability, ...]]] = {
        "lupo": (MAUL,), "guardia": (PROTECT,), "veggente": (PROBE,),
    }  # fmt: skip
    groups: ClassVar[dict[str, str]] = {"lupo": "lupi"}
    night_steps: ClassVar[dict[str, Any]] = {"guardia": guardia, "lupi": lupi, "veggente": veggente}

    def start(self, state: GameState, outcome: PhaseOutcome, draws: dict[str, Any]) -> None:
        """The wolves know each other."""
        wolves = state.dealt("lupo")
        for wolf in wolves:
            outcome.tell(wolf.name, "knows", None, [p.name for p in wolves if p is not wolf])

    def check_target(
        self, state: GameState, label: str, actor: Player, ability: Ability, target: Player
    ) -> None:
        if ability is MAUL and target.dealt_role == "lupo":
            raise self.violation(label, actor, f"cannot maul {target.name}, a wolf", "CV-R2")

    def winning_factions(self, state: GameState) -> list[str] | None:
        """CV-R7."""
        counts = [p.counts_as for p in state.players if p.alive]
        wolves = counts.count("lupo")
        if wolves == 0:
            return ["villaggio"]
        return ["lupi"] if wolves >= len(counts) - wolves else None
