"""Wild West Wolf: legality, the deal, the day and the win formulas.

The night lives in :mod:`roles.wild_west_wolf.night`, whose ordering table follows WWW-R93.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from roles.engine.abilities import Ability, available, check_ability, night_number
from roles.engine.channels import Channel, cemetery, living
from roles.engine.errors import RuleViolation
from roles.engine.messages import Role, msg
from roles.engine.model import Action, GameState, PhaseOutcome, Player, Status, Vote
from roles.engine.ruleset import Ruleset
from roles.engine.wills import cut_will
from roles.wild_west_wolf import messages as messages  # declares the setup's message ids
from roles.wild_west_wolf import night
from roles.wild_west_wolf.abilities import (
    ABILITIES,
    BOUNTY_ROLES,
    FAKE_ROLE,
    INDIANS,
    LAW_PHASES,
    NO_ABILITY_RULE,
    PACK_KILL,
    RECRUIT,
    SHOOT,
    VISION,
)
from roles.wild_west_wolf.statuses import BOUNTY, EXECUTED, GUILT, REVENGE


class WildWestWolf(Ruleset):
    key = "wild-west-wolf"
    prefix = "www."
    count_rule = "WWW-R2"
    options_rule = "WWW-D35"  # a retired or unknown setting is refused
    roles_rule = "WWW-R19"
    undealt_rule = "WWW-R20"
    dead_actor_rule = "WWW-D8"
    departed_rule = "WWW-D21"
    vote_rules: ClassVar[dict[str, str]] = {
        "when": "WWW-R14", "secret": "WWW-D4", "target": "WWW-D4", "self": "WWW-D4",
        "tie": "WWW-R10",
    }  # fmt: skip
    will_delivery_kind = "wills"  # the Notaio's delivery (WWW-R42)
    will_rules: ClassVar[dict[str, str]] = {
        "limit": "WWW-R45", "deadline": "WWW-R46", "refused": "WWW-R44", "decision": "WWW-D23",
    }  # fmt: skip
    night_steps = night.STEPS
    suspect_values = frozenset({"indiano"})  # WWW-R34: the Maresciallo finds an Indian
    result_kinds = messages.RESULTS
    action_fields = ("during", "fake_role", "vision")
    target_checks = frozenset({PACK_KILL})

    # -- the deal (WWW §11, WWW-R56, R60, R76, R79) -----------------------------------

    def start(self, state: GameState, outcome: PhaseOutcome, draws: dict[str, Any]) -> None:
        players = state.players  # in seat order, each with his dealt card
        pair = [p for p in players if p.role == "bandito" or p.role == "pistolero"]
        indians = [p for p in players if p.role in INDIANS]
        know_roles = state.options["www.indians_know_roles"]
        for p in players:
            role = p.role
            if role == "bandito" or role == "pistolero":
                outcome.tell(p.name, "knows", None, [q.name for q in pair if q is not p])
            elif role in INDIANS:
                outcome.tell(p.name, "knows", None, [q.name for q in indians if q is not p])
                if know_roles:  # WWW-D19, switched: each fellow Indian's card too
                    for q in indians:
                        if q is not p:
                            outcome.tell(p.name, "role_of", q.name, q.role)
        hunter = state.holder("cacciatore_di_taglie")
        assert hunter is not None  # a legal deal has him (WWW-R19)
        eligible = [p for p in players if p.role in BOUNTY_ROLES]
        chosen = draws.pop(BOUNTY, None)
        if draws:
            raise RuleViolation(msg("deal.unknown_draw", draw=repr(next(iter(draws)))), "spec",
                                phase="setup")  # fmt: skip
        if chosen is None:
            target = self.draw(state, "bounty", eligible)
        else:
            picked = state.by_name.get(chosen)
            if picked is None or picked not in eligible:
                raise RuleViolation(
                    msg("www.bounty_target", target=chosen), "WWW-R79", phase="setup",
                    player=hunter.name,
                    role=hunter.role,
                )  # fmt: skip
            target = picked
        state.draws[BOUNTY] = target.name
        outcome.tell(hunter.name, "bounty", None, target.name)
        if state.options["www.hunter_told_target_role"]:  # WWW-D21, switched
            outcome.tell(hunter.name, "bounty_role", target.name, target.role)
        outcome.why(msg("www.trace.bounty", "WWW-R79", hunter=hunter.name,
                        role=Role("cacciatore_di_taglie"), target=target.name))  # fmt: skip

    def draws_made(self, state: GameState) -> dict[str, str]:
        return dict(state.draws)

    # -- legality ---------------------------------------------------------------------

    def ability_for(self, actor: Player, action: Action, label: str) -> Ability:
        abilities = ABILITIES.get(actor.dealt_role)
        if not abilities:
            rule = NO_ABILITY_RULE.get(actor.role, NO_ABILITY_RULE.get(actor.dealt_role, "WWW-R19"))
            raise self.violation(label, actor, msg("action.no_ability"), rule)
        if actor.dealt_role == "sciamano":
            return VISION if action.vision else PACK_KILL
        if action.vision:
            raise self.violation(label, actor, msg("www.no_vision"), "WWW-R74")
        return abilities[0]

    def card_abilities(self, role: str) -> tuple[Ability, ...]:
        return ABILITIES.get(role, ())

    def can_use(self, state: GameState, label: str, player: Player, ability: Ability) -> bool:
        if not (player.alive and available(state, label, player, ability)):
            return False
        return ability is not PACK_KILL or self.shared_uses(state, label, ability) > 0

    def shared_uses(self, state: GameState, label: str, ability: Ability) -> int:
        return night.attacks_allowed(self, state, int(label[1:]) * 2) if label[0] == "N" else 0

    def likely_targets(self, state: GameState, ability: Ability, pool: list[str]) -> list[str]:
        if ability is PACK_KILL:
            return [n for n in pool if state.by_name[n].faction != "indiani"]
        return pool

    def phase_choices(self, ability: Ability) -> tuple[str, ...]:
        """WWW-R57, R61, R63, R94: the Bandito and the Pistolero pick a Law phase."""
        return LAW_PHASES if ability.key in ("recruit", "shoot") else ()

    def random_fields(self, state: GameState, ability: Ability, rng: random.Random) -> dict:
        if ability is RECRUIT or ability is SHOOT:
            return {"during": rng.choice(LAW_PHASES)}
        if ability is VISION:
            return {"vision": True}
        if ability is FAKE_ROLE:
            return {"fake_role": rng.choice([r for r in self.setup.cards if r != "pianista"])}
        return {}

    def ability_key(self, actor: Player, action: Action) -> str:
        return self.ability_for(actor, action, "").key

    def ability_rule(self, actor: Player) -> str:
        abilities = ABILITIES.get(actor.dealt_role)
        return abilities[0].rule if abilities else self.roles_rule

    def check_action(self, state: GameState, label: str, action: Action) -> str | None:
        return self.check_use(state, label, action, state.by_name[action.actor])

    def check_use(self, state: GameState, label: str, action: Action, actor: Player) -> str | None:
        role = actor.dealt_role
        abilities = ABILITIES.get(role)
        if abilities and role != "sciamano" and not action.vision:  # ability_for, inline
            ability = abilities[0]
        else:
            ability = self.ability_for(actor, action, label)
        if ability is FAKE_ROLE and label[0] == "N" and label != "N0":
            raise self.violation(label, actor, msg("www.fake_role_n0"), "WWW-R90")
        if ability is PACK_KILL:
            if label == "N0":
                raise self.violation(label, actor, msg("www.attack_n0"), "WWW-R18")
            number = night_number(label)  # (the table's labels: looked up, not parsed)
            if number is not None and night.attacks_allowed(self, state, number * 2) == 0:
                raise self.violation(label, actor, msg("www.attack_blocked"), "WWW-R91")

        if ability is FAKE_ROLE:
            self.check_fake_role(state, label, actor, action)
        elif (ability is RECRUIT or ability is SHOOT) and action.during not in LAW_PHASES:
            raise self.violation(
                label, actor,
                msg("www.law_phase", phases=", ".join(LAW_PHASES), during=repr(action.during)),
                "WWW-R63",
            )  # fmt: skip
        check_ability(self, state, label, actor, action, ability)
        return None if ability.shared else ability.key

    def check_target(
        self, state: GameState, label: str, actor: Player, ability: Ability, target: Player
    ) -> None:
        if (
            ability is PACK_KILL
            and target.faction == "indiani"
            and not state.options["www.indians_can_target_indians"]
        ):
            raise self.violation(label, actor, msg("www.attack_indian", target=target.name),
                                 "WWW-D19")  # fmt: skip

    def check_fake_role(self, state: GameState, label: str, actor: Player, action: Action) -> None:
        choice = action.fake_role
        if choice is None:
            raise self.violation(label, actor, msg("www.choose_role"), "WWW-R90")
        if choice == "pianista" or choice not in self.setup.cards:
            raise self.violation(label, actor, msg("www.fake_role", choice=repr(choice)),
                                 "WWW-D20")  # fmt: skip

    def can_write_will(self, state: GameState, name: str) -> bool:
        """WWW-R44: loners cannot write a will (once dead they have already won or lost)."""
        return state.by_name[name].faction != "solitario" and super().can_write_will(state, name)

    def take_wills(self, state: GameState, label: str, wills: Mapping[str, str]) -> None:
        limit = self.will_word_limit(state) or 0
        for author, text in wills.items():
            player = self.player(state, author, label)
            if not self.can_write_will(state, author):
                raise self.violation(label, player, msg("www.loner_will"), "WWW-R44")
            state.wills[author] = cut_will(str(text), limit).kept  # WWW-R45

    # -- the night ----------------------------------------------------------------------

    def resolve_night(self, state: GameState, outcome: PhaseOutcome, actions: list[Action]) -> None:
        night.resolve(self, state, outcome, actions)

    # -- the day (WWW §9) ----------------------------------------------------------------

    def resolve_day(
        self, state: GameState, outcome: PhaseOutcome, actions: list[Action], votes: list[Vote]
    ) -> None:
        executed = self.run_vote(
            state, outcome, votes, decisive_rule=state.options["www.rinnegato_decisive_vote"]
        )
        if executed is not None:
            state.set_status(Status(EXECUTED, state.phase_index + 1, executed.name))
            assert outcome.execution is not None  # the vote that executed him
            self.after_execution(state, outcome, executed, outcome.execution.decisive_voter)

    def after_execution(
        self, state: GameState, outcome: PhaseOutcome, executed: Player, decisive: str | None
    ) -> None:
        """WWW §9 step 6, in order."""
        hunter = state.holder("cacciatore_di_taglie")
        if (
            hunter is not None
            and executed.name == state.draws.get(BOUNTY)
            and hunter.alive
            and hunter.role == "cacciatore_di_taglie"
        ):
            state.goal_met.add(hunter.name)
            if not (state.corrections and state.spares(outcome, hunter)):  # or he stays
                hunter.departed = True
                hunter.alive = False
                outcome.departed.append(hunter.name)
                outcome.deaths.append(night.Death(hunter.name, "left"))
                outcome.why(msg("www.trace.collects", "WWW-R81, WWW-R82", hunter=hunter.name,
                                target=executed.name))  # fmt: skip
        self.execution_effects(state, outcome, executed, decisive)

    def execution_effects(
        self, state: GameState, outcome: PhaseOutcome, executed: Player, decisive: str | None
    ) -> None:
        """WWW-R69, R73, R89: the Capo's revenge, the Rinnegato's goal and the guilt."""
        if executed.dealt_role == "capo_indiano":
            state.set_status(Status(REVENGE, state.phase_index + 1, executed.name))
            outcome.why(msg("www.trace.capo_executed", "WWW-R69"))
        if executed.role == "rinnegato":
            state.goal_met.add(executed.name)
            voter = state.by_name[decisive] if decisive else None
            if voter is not None and voter.dealt_role == "capo_indiano":
                outcome.why(msg("www.trace.capo_decisive", "WWW-R73"))
            elif voter is not None:
                state.set_status(Status(GUILT, state.phase_index + 1, voter.name))
                outcome.why(msg("www.trace.guilty_vote", "WWW-R89, WWW-D6", voter=voter.name))

    # -- channels and will deadlines ---------------------------------------------------

    def channels(self, state: GameState) -> list[Channel]:
        """WWW-R5..R7, WWW-D25: the Indians' chat and the Cemetery, nothing else."""
        departed = state.options["www.departed_cemetery_access"]
        return [
            Channel("indiani", "Indiani", living(state, (), by_faction="indiani")),
            cemetery(state, departed=departed),
        ]

    def will_deadline(self, state: GameState, name: str) -> tuple[str, str] | None:
        """WWW-R17, WWW-R46, WWW-D23: (phase, HH:MM) by which ``name`` must hand in his
        will; None for the living and for loners, who write none (WWW-R44)."""
        player = state.by_name[name]
        if player.alive or player.faction == "solitario":
            return None
        index = state.death_phase[name]
        if index % 2 == 0:  # died in night k: noon of day k+1
            return (f"D{index // 2 + 1}", "12:00")
        return (f"D{index // 2 + 1}", state.options["www.day_death_will_deadline"])

    # -- wins (WWW §6) ---------------------------------------------------------------

    def winning_factions(self, state: GameState) -> list[str] | None:
        indians = americans = 0
        for p in state.players:
            if p.alive:
                counts_as = p.counts_as
                if counts_as == "indiano":
                    indians += 1
                elif counts_as == "americano":
                    americans += 1
        if indians == 0:  # WWW-D24: with no Indian alive the Indians never win
            sheriff = outlaws = False
            for p in state.players:
                if p.alive:
                    sheriff = sheriff or p.dealt_role == "sceriffo"
                    outlaws = outlaws or p.faction == "fuorilegge"
            return ["legge"] if sheriff or not outlaws else ["fuorilegge"]  # WWW-R28, R29
        if indians >= americans:
            return ["indiani"]  # WWW-R30
        return None
