"""The classic village's rules (CV-R1..R7 in setup.yaml): abilities as data, three steps."""

from __future__ import annotations

from typing import Any, ClassVar

from roles.engine.abilities import Ability, remember_target
from roles.engine.messages import RESULTS, VERB, VERB_TO, ResultKind, _, declare, msg, words
from roles.engine.model import GameState, PhaseOutcome, Player
from roles.engine.simple import Night, SimpleRuleset

declare({  # what this setup says to a person (Italian: locale/ beside this file)
    "cv.maul_wolf": _("cannot maul %(target)s, a wolf"),
    "cv.trace.protected": _("the wolves choose %(target)s, protected: nobody dies"),
    "cv.trace.kill": _("the wolves kill %(target)s"),
    "cv.step.guardia": _("the guard's phase"),
    "cv.step.lupi": _("the wolves' attack"),
    "cv.step.veggente": _("the seer's phase"),
    "cv.result.investigation": _("%(name)s is %(value)s."),
    "cv.value.lupo": _("a wolf"),
    "cv.value.umano": _("a human"),
})  # fmt: skip
words(VERB, "maul", "protect", "probe")
words(VERB_TO, "maul", "protect", "probe")

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
        night.outcome.why(msg("cv.trace.protected", "CV-R3", target=victim.name))
    elif victim.alive and night.mark(victim, "pack"):
        night.outcome.why(msg("cv.trace.kill", "CV-R2", target=victim.name))


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
    suspect_values = frozenset({"lupo"})  # CV-R4
    result_kinds = {
        **RESULTS,
        "investigation": ResultKind(
            lambda about, value: msg(
                "cv.result.investigation", name=about, value=msg(f"cv.value.{value}")
            )
        ),
    }
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
            raise self.violation(label, actor, msg("cv.maul_wolf", target=target.name), "CV-R2")

    def winning_factions(self, state: GameState) -> list[str] | None:
        """CV-R7."""
        counts = [p.counts_as for p in state.players if p.alive]
        wolves = counts.count("lupo")
        if wolves == 0:
            return ["villaggio"]
        return ["lupi"] if wolves >= len(counts) - wolves else None
