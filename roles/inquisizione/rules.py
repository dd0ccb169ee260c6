"""Eresia vs Inquisizione vs Branco: legality, the deal, day, night and wins."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from roles.engine.abilities import Ability, available, check_ability
from roles.engine.channels import Channel, cemetery, living
from roles.engine.errors import RuleViolation
from roles.engine.mechanics import PACK_BLOCKED, blocked_night
from roles.engine.messages import Role, msg
from roles.engine.model import Action, GameState, PhaseOutcome, Player, Status, Vote
from roles.engine.ruleset import Ruleset
from roles.inquisizione import messages as messages  # declares the setup's message ids
from roles.inquisizione import night
from roles.inquisizione.abilities import (
    ABILITIES,
    DESIGNATE,
    MAUL,
    NO_ABILITY_RULE,
    PROTECT,
    REDIRECT,
    WOLVES,
)
from roles.inquisizione.statuses import DESIGNATION, LAST_WOLF, MAULED_FARMERS


class Inquisizione(Ruleset):
    key = "inquisizione"
    prefix = "inq."
    count_rule = "INQ-R1"
    options_rule = "INQ-D29"  # a retired or unknown setting is refused
    roles_rule = "INQ-R14"
    dead_actor_rule = "INQ-D19"
    vote_rules: ClassVar[dict[str, str]] = {
        "when": "INQ-R11", "secret": "INQ-R45", "secret_role": "boia",
        "target": "INQ-D5", "self": "INQ-D5", "tie": "INQ-R7",
    }  # fmt: skip
    night_steps = night.STEPS
    suspect_values = frozenset({"losco", "eretico"})  # INQ-R27 (Veggente), INQ-R44
    result_kinds = messages.RESULTS
    target_checks = frozenset({PROTECT, MAUL})

    # -- the deal (INQ §11, INQ-R34, R42, R43, R53, R56, INQ-D23) ------------------------

    def start(self, state: GameState, outcome: PhaseOutcome, draws: dict[str, Any]) -> None:
        if draws:
            raise RuleViolation(msg("deal.unknown_draw", draw=repr(next(iter(draws)))), "spec",
                                phase="setup")  # fmt: skip
        players = state.players  # in seat order, each with his dealt card (nobody has turned)
        guards = state.groups.get("guardia_gemella", ())
        pack = [p for p in players if p.role in WOLVES]
        pair = [p for p in players if p.role == "boia" or p.role == "templare"]
        pair_told = state.options["inq.boia_templar_know_each_other"]
        for p in players:  # the results in seat order
            role = p.role
            group: Sequence[Player]
            if role == "guardia_gemella":
                group = guards
            elif role == "lupo_mannaro":
                group = pack
            elif role == "inquisitore" or (pair_told and (role == "boia" or role == "templare")):
                group = pair
            else:
                continue
            names = [q.name for q in group if q is not p]
            if names:
                outcome.tell(p.name, "knows", None, names)

    # -- legality ---------------------------------------------------------------------

    def card_abilities(self, role: str) -> tuple[Ability, ...]:
        ability = ABILITIES.get(role)
        return (ability,) if ability else ()

    def likely_targets(self, state: GameState, ability: Ability, pool: list[str]) -> list[str]:
        if ability is MAUL:
            return [n for n in pool if state.by_name[n].faction != "branco"]
        if ability is PROTECT:
            return [n for n in pool if state.by_name[n].role != "guardia_gemella"]
        return pool

    def ability_key(self, actor: Player, action: Action) -> str:
        return ABILITIES[actor.role].key

    def ability_rule(self, actor: Player) -> str:
        ability = ABILITIES.get(actor.role)
        return ability.rule if ability else NO_ABILITY_RULE.get(actor.role, self.roles_rule)

    def check_action(self, state: GameState, label: str, action: Action) -> str | None:
        return self.check_use(state, label, action, state.by_name[action.actor])

    def check_use(self, state: GameState, label: str, action: Action, actor: Player) -> str | None:
        ability = ABILITIES.get(actor.role)
        if ability is None:
            raise self.violation(label, actor, msg("action.no_ability"),
                                 NO_ABILITY_RULE.get(actor.role, self.roles_rule))  # fmt: skip
        if action.vision or action.during or action.fake_role:
            raise self.violation(label, actor, msg("action.extra_field"),
                                 ability.rule)  # fmt: skip
        if label == "N0" and ability is REDIRECT and not state.options["inq.postino_on_n0"]:
            raise self.violation(label, actor, msg("action.not_n0_act"), "INQ-D10")

        if ability is PROTECT:
            for guard in state.groups.get("guardia_gemella", ()):  # INQ-R38, inline: hot path
                if not guard.alive:
                    self.check_guards_alive(state, label, actor)
        elif ability is MAUL and label != "N0":
            self.check_may_maul(state, label, actor)

        owner = self.slot_owner(actor) if ability.remembered else None  # the Guards' by group
        check_ability(self, state, label, actor, action, ability, owner=owner)
        return None if ability.shared else ability.key

    def check_target(
        self, state: GameState, label: str, actor: Player, ability: Ability, target: Player
    ) -> None:
        if ability is PROTECT and target.role == "guardia_gemella":
            if not state.options["inq.guards_can_protect_partner"]:
                raise self.violation(label, actor, msg("inq.protect_guard", target=target.name),
                                     "INQ-D11")  # fmt: skip
        elif ability is MAUL and target.role in ("lupo_mannaro", "lupo_scorbutico"):  # noqa: SIM102
            if not state.options["inq.wolves_can_target_wolves"]:
                raise self.violation(label, actor, msg("inq.maul_wolf", target=target.name),
                                     "INQ-D12")  # fmt: skip

    def slot_owner(self, actor: Player) -> str:
        """Shared slots are remembered per group, not per member."""
        if actor.role == "guardia_gemella":
            return "guardie"
        return "branco" if actor.role in ("lupo_mannaro", "lupo_scorbutico") else actor.name

    def guards_active(self, state: GameState) -> bool:
        """INQ-R38: the power needs both Guards alive (cards never change hands here)."""
        for guard in state.dealt("guardia_gemella"):  # noqa: SIM110 - no generator: hot path
            if not guard.alive:
                return False
        return True

    def werewolves_alive(self, state: GameState) -> bool:
        for wolf in state.dealt("lupo_mannaro"):  # noqa: SIM110 - no generator: hot path
            if wolf.alive:
                return True
        return False

    def maul_blocked(self, state: GameState, label: str) -> bool:
        """INQ-R61, INQ-D25: no maul the night after the Martire was mauled."""
        return PACK_BLOCKED in state.statuses and blocked_night(state, int(label[1:]) * 2)

    def can_use(self, state: GameState, label: str, player: Player, ability: Ability) -> bool:
        if not (player.alive and available(state, label, player, ability)):
            return False
        if ability is PROTECT:
            return self.guards_active(state)
        if ability is MAUL:
            alone_ok = player.role == "lupo_mannaro" or not self.werewolves_alive(state)
            return alone_ok and not self.maul_blocked(state, label)
        return True

    def check_guards_alive(self, state: GameState, label: str, actor: Player) -> None:
        if not self.guards_active(state):
            raise self.violation(label, actor, msg("inq.guard_alone"), "INQ-R38")

    def check_may_maul(self, state: GameState, label: str, actor: Player) -> None:
        """INQ-R58 (the Lupo Scorbutico mauls only alone), INQ-R61 (the Martire's block)."""
        if actor.role == "lupo_scorbutico" and self.werewolves_alive(state):
            raise self.violation(label, actor, msg("inq.grumpy_not_alone"), "INQ-R58")
        if self.maul_blocked(state, label):
            raise self.violation(label, actor, msg("inq.maul_blocked"), "INQ-R61")

    # -- phases -------------------------------------------------------------------------

    def designate(self, state: GameState, actions: list[Action]) -> None:
        """INQ-R52, INQ-D14: the Templare's standing designation, changeable until the
        deadline; with ``templar_designation_persists`` off it holds for one phase only."""
        if not state.options["inq.templar_designation_persists"]:
            state.statuses.pop(DESIGNATION, None)
        for action in actions:
            actor = state.by_name[action.actor]
            if actor.role == "templare" and actor.alive:
                state.set_status(Status(DESIGNATION, None, action.target))

    def resolve_night(self, state: GameState, outcome: PhaseOutcome, actions: list[Action]) -> None:
        night.resolve(self, state, outcome, actions)

    def died(self, state: GameState, outcome: PhaseOutcome, player: Player, cause: str) -> None:
        """INQ-R50: the Templare killed for any reason takes his designated Heretic along.
        INQ-D4: a Farmer mauled by the pack is remembered (the one death that may cost him
        his win, with ``inq.mauled_farmer_loses``)."""
        if player.role == "templare":
            night.templar_dies(self, state, outcome)
        elif player.role == "contadino" and cause == "pack":
            mauled = state.statuses.get(MAULED_FARMERS)
            names = (*mauled.value, player.name) if mauled else (player.name,)
            state.set_status(Status(MAULED_FARMERS, None, None, names))

    def resolve_day(
        self, state: GameState, outcome: PhaseOutcome, actions: list[Action], votes: list[Vote]
    ) -> None:
        """INQ §9: the tally with the Boia's secret and triple vote, then the consequences."""
        options = state.options
        if actions or not options["inq.templar_designation_persists"]:
            self.designate(state, actions)
        if not options["inq.boia_secret_withdrawable"]:
            self.check_secret_kept(state, outcome.phase, votes)

        def weight(voter: str, target: str, secret: bool) -> int:
            chosen = state.by_name[target]  # INQ-R47, INQ-D8: the Boia's vote, judged at 22:00
            return (
                3
                if chosen.role in ("lupo_mannaro", "lupo_scorbutico") or chosen.faction == "eresia"
                else 1
            )

        boia = state.holder("boia")
        self.run_vote(state, outcome, votes, weight=weight, weighted=(boia.name,) if boia else ())

    def check_secret_kept(self, state: GameState, label: str, votes: list[Vote]) -> None:
        """INQ-D7 with ``inq.boia_secret_withdrawable`` off: the Boia may change his secret
        vote or abstain, not withdraw it; withdrawing a secret vote he does not have
        withdraws nothing and is no refusal (INQ-D27)."""
        holding: set[str] = set()
        for vote in votes:
            if not vote.secret:
                continue
            if vote.target is not None or vote.abstain:
                holding.add(vote.voter)
            elif vote.voter in holding:
                raise self.violation(label, state.by_name[vote.voter],
                                     msg("inq.secret_withdraw"), "INQ-D7")  # fmt: skip

    def after_phase(self, state: GameState, outcome: PhaseOutcome) -> None:
        """INQ-R58, INQ-D13: tell the Lupo Scorbutico once he is the only wolf (he becomes
        it in a phase with a death)."""
        if not outcome.deaths or LAST_WOLF in state.statuses:
            return
        grumpy = state.holder("lupo_scorbutico")
        if grumpy is None or not grumpy.alive:
            return
        if not self.werewolves_alive(state):
            state.set_status(Status(LAST_WOLF, None, grumpy.name))
            outcome.tell(grumpy.name, "last_wolf", None, True)
            outcome.why(msg("inq.trace.last_wolf", "INQ-R58", wolf=grumpy.name,
                            role=Role("lupo_scorbutico")))  # fmt: skip

    # -- channels -------------------------------------------------------------------------

    def channels(self, state: GameState) -> list[Channel]:
        """INQ-R2..R4, R33, R36, R53, R56, INQ-D17, D18: the Guards' pair, the Lupi Mannari
        (never the Lupo Scorbutico) and the Cemetery, read by the living Becchino."""
        return [
            Channel("guardie", "Guardie Gemelle", living(state, ("guardia_gemella",))),
            Channel("branco", "Branco", living(state, ("lupo_mannaro",))),
            cemetery(state, departed=False, readers=living(state, ("becchino",))),
        ]

    # -- wins (INQ §6, INQ-D16) -----------------------------------------------------------

    def winning_factions(self, state: GameState) -> list[str] | None:
        alive = wolves = 0
        for p in state.players:
            if p.alive:
                alive += 1
                if p.counts_as == "lupo":
                    wolves += 1
        if wolves == 0:  # INQ-D16: the village condition first
            heretics = inquisition = False
            for p in state.players:
                if p.alive:
                    faction = p.faction
                    heretics = heretics or faction == "eresia"
                    inquisition = inquisition or faction == "inquisizione"
            return ["eresia"] if heretics or not inquisition else ["inquisizione"]  # R22, R23
        if wolves >= alive - wolves:
            return ["branco"]  # INQ-R24
        return None

    def faction_winners(self, state: GameState, factions: list[str]) -> set[str]:
        """INQ-R25, INQ-D3, INQ-D4: the Farmers win with Heresy or the Inquisition, alive or
        dead, whatever ``dead_members_share_win`` says; with ``inq.mauled_farmer_loses``
        a Farmer the pack mauled does not (executed or struck by the Templar, he does)."""
        names = super().faction_winners(state, factions)
        if factions[0] in ("eresia", "inquisizione"):
            mauled: tuple[str, ...] = ()
            if state.options["inq.mauled_farmer_loses"]:
                status = state.statuses.get(MAULED_FARMERS)
                mauled = status.value if status else ()
            names |= {
                p.name for p in state.players if p.role == "contadino" and p.name not in mauled
            }
        return names


__all__ = ["DESIGNATE", "MAUL", "Inquisizione"]
