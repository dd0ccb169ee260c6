"""What every ruleset shares: phase sequencing, deaths and the GM's corrections, wills,
the day's vote and wins; the deal (roles/engine/deal.py) and the legality checks
(roles/engine/legality.py) are its bases.

A ruleset subclass names its setup, its night order and its steps; the checks use the
state at the *start* of the phase (WWW-D8, INQ §10), which is also what the player forms
offer.
"""

from __future__ import annotations

import hashlib
import inspect
import sys
from abc import abstractmethod
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from roles.engine.abilities import Ability
from roles.engine.channels import Channel
from roles.engine.deal import Dealing
from roles.engine.errors import RuleViolation
from roles.engine.messages import CATALOGUE, FACTION, RESULTS, Message, ResultKind, Word, msg
from roles.engine.model import (
    CORRECTION_KINDS,
    PHASE_LABELS,
    Action,
    Correction,
    GameState,
    PhaseOutcome,
    Player,
    Vote,
    phase_label,
)
from roles.engine.setups import SetupError
from roles.engine.statuses import CorrectionKind
from roles.engine.votes import count_votes

# Each ruleset class's version (Ruleset.version), digested once per process.
_VERSIONS: dict[type, str] = {}


# A setup's rules subclass this.
class Ruleset(Dealing):
    will_rules: ClassVar[dict[str, str]] = {}  # the wills' rules: limit, deadline, refused
    will_delivery_kind: ClassVar[str] = ""  # the result kind handing wills over (its authors)
    # The night's steps by name; the setup's YAML ``night_order`` says in which order
    # they run (the ruleset's night module documents what each reads and sets).
    night_steps: ClassVar[Mapping[str, Callable[[Any], None]]]
    day_steps: ClassVar[tuple[str, ...]] = ("vote",)  # where a GM correction may act by day
    # The fields beyond a target that this setup's actions may carry (the GM's entry form
    # shows only these): "during", "fake_role", "vision".
    action_fields: ClassVar[tuple[str, ...]] = ()
    # The values of an investigation's result that show the target is not on the
    # investigator's side (the balance study's informed model acts on them).
    suspect_values: ClassVar[frozenset[str]] = frozenset()
    # How each kind of private result reads (roles/engine/messages.py: the generic ones
    # and the setup's own, declared in its package).
    result_kinds: ClassVar[Mapping[str, ResultKind]] = RESULTS
    # The abilities whose targets :meth:`check_target` judges (None: every ability of the
    # setup, when the ruleset has a check_target of its own; none when it has not).
    target_checks: ClassVar[frozenset[Ability] | None] = None

    def __init__(self, night_order: Sequence[str] | None = None) -> None:
        """``night_order``: run the night in another order than the setup's (the tests
        swap steps to prove that the order matters)."""
        super().__init__()  # the setup, and what every deal reads off it
        # Whether the simulator must ask random_fields (most rulesets need no extra field).
        self.has_random_fields = type(self).random_fields is not Ruleset.random_fields
        self.has_after_phase = type(self).after_phase is not Ruleset.after_phase
        self.has_died = type(self).died is not Ruleset.died
        self.executed_rules = ""  # the rules an execution's trace cites (run_vote)
        self.vote_change_option = sys.intern(self.prefix + "allow_vote_change")  # run_vote
        self.targets_checked: frozenset[Ability] = frozenset()
        if type(self).check_target is not Ruleset.check_target:
            self.targets_checked = self.target_checks or frozenset(
                ability for role in self.setup.cards for ability in self.card_abilities(role)
            )
        order = tuple(self.setup.night_order if night_order is None else night_order)
        unknown = [key for key in order if key not in self.night_steps]
        if unknown:
            raise SetupError(f"Setup {self.key!r}: night step {unknown[0]!r} has no function "
                             f"(known steps: {', '.join(self.night_steps)})")  # fmt: skip
        missing = [key for key in self.night_steps if key not in order]
        if missing or len(set(order)) != len(order):
            raise SetupError(f"Setup {self.key!r}: night_order must name each step once "
                             f"({', '.join(self.night_steps)})")  # fmt: skip
        self.night_order: tuple[str, ...] = order
        self.night_table = tuple((key, self.night_steps[key]) for key in order)

    # -- options -------------------------------------------------------------------

    @property
    def version(self) -> str:
        """The rules version: the setup's declared ``version`` and a digest of what decides
        an outcome (the setup's package and the generic engine), so any change shows.
        Digested once per class and process (every vote asks for it: games/snapshot.py; a
        compiled class keeps no ``cached_property``, so the cache is the module's)."""
        cls = type(self)
        known = _VERSIONS.get(cls)
        if known is None:
            package = Path(inspect.getfile(cls)).parent
            engine = Path(__file__).parent
            digest = hashlib.blake2b(digest_size=6)
            files = [*package.glob("*.py"), *package.glob("*.yaml"), *engine.glob("*.py")]
            for path in sorted(files):
                digest.update(path.name.encode() + path.read_bytes())
            known = _VERSIONS[cls] = f"{self.key}@{self.setup.version}+{digest.hexdigest()}"
        return known

    def draws_made(self, state: GameState) -> dict[str, str]:
        """The deal's secret draws, by name (the site stores them by seat)."""
        return {}

    # -- phases --------------------------------------------------------------------

    def play(
        self,
        state: GameState,
        label: str,
        *,
        actions: Iterable[Action] = (),
        votes: Iterable[Vote] = (),
        wills: Mapping[str, str] | None = None,
        checked: bool = False,
        corrections: Iterable[Correction] = (),
    ) -> PhaseOutcome:
        """Validate and resolve the next phase; the state is updated in place.

        ``checked``: every action already passed :meth:`check_action` against this very
        state, one slot per actor (the simulator checks as it builds them); the votes
        are checked all the same. ``corrections``: the GM's, applied inside the
        resolution at their steps (see :class:`Correction`)."""
        index = state.phase_index + 1
        expected = PHASE_LABELS[index] if index < len(PHASE_LABELS) else phase_label(index)
        if label != expected:
            raise RuleViolation(msg("phase.out_of_order", label=label, expected=expected), "spec",
                                phase=label)  # fmt: skip
        label = expected  # the table's interned string: compared and looked up by identity
        if state.winning_factions is not None:
            raise RuleViolation(msg("game.over"), "spec", phase=label)
        actions = list(actions)
        votes = list(votes)
        if not checked:
            if actions:
                self.validate_actions(state, label, actions)
            if votes:
                self.check_votes(state, label, votes)
        elif votes:
            self.check_votes(state, label, votes)
        if corrections:
            state.corrections = self.check_corrections(state, label, corrections)
        if wills:
            self.take_wills(state, label, wills)
        state.phase_index += 1
        if state.statuses:
            state.expire()
        outcome = PhaseOutcome(label)
        if label[0] == "N":
            self.resolve_night(state, outcome, actions)
        else:
            self.resolve_day(state, outcome, actions, votes)
        if state.marked or state.corrections:
            self.at_step(state, outcome, "")  # the last step's deaths
            if state.corrections:
                self.gm_kills(state, outcome, None)  # then the GM's at the end of the phase
                state.corrections = ()
        state.step = ""
        if self.has_after_phase:
            self.after_phase(state, outcome)
        if outcome.deaths:  # only a death or a departure can change who has won
            self.check_win(state, outcome)
        return outcome

    # -- deaths and the GM's corrections ------------------------------------------

    def steps(self, label: str) -> tuple[str, ...]:
        """The named steps of phase ``label``, where a GM correction may act."""
        return self.night_order if label[0] == "N" else self.day_steps

    def step_message(self, step: str) -> Message:
        """A step's name for a person: the setup declares ``<prefix>step.<step>`` (the
        generic ``step.<step>`` for the day's vote)."""
        for key in (f"{self.prefix}step.{step}", f"step.{step}"):
            if key in CATALOGUE:
                return msg(key)
        return msg("step.other", step=step)

    def check_corrections(
        self, state: GameState, label: str, corrections: Iterable[Correction]
    ) -> tuple[Correction, ...]:
        checked = tuple(corrections)
        for correction in checked:
            self.player(state, correction.player, label)
            if correction.kind not in CORRECTION_KINDS:
                raise RuleViolation(msg("correction.unknown", kind=repr(correction.kind)), "spec",
                                    phase=label)  # fmt: skip
            if correction.step is not None and correction.step not in self.steps(label):
                steps = ", ".join(self.steps(label))
                said = msg(
                    "correction.no_step", label=label, step=repr(correction.step), steps=steps
                )
                raise RuleViolation(said, "spec", phase=label)
        return checked

    def kill(self, state: GameState, outcome: PhaseOutcome, player: Player, cause: str) -> bool:
        """A death, with what the ruleset attaches to any death (:meth:`died`); False when
        there is none (already out of the game, or spared by the GM)."""
        if not state.kill(outcome, player, cause):
            return False
        if self.has_died:
            self.died(state, outcome, player, cause)
        return True

    def died(self, state: GameState, outcome: PhaseOutcome, player: Player, cause: str) -> None:
        """What follows any death at once, whatever its cause."""

    def mark(self, state: GameState, outcome: PhaseOutcome, player: Player, cause: str) -> bool:
        """Mark a death, applied at the end of the step now running (every check inside a
        step sees the state at its start); False when the GM spares him here."""
        if state.corrections and state.spares(outcome, player):
            return False
        state.marked.append((player, cause))
        return True

    def at_step(self, state: GameState, outcome: PhaseOutcome, step: str) -> None:
        """Called as each named step begins: the previous step's marked deaths apply, then
        the GM's kills at that step."""
        if state.marked:
            marked = state.marked
            state.marked = []  # (a death's consequences may mark more: for the next step)
            for player, cause in marked:
                self.kill(state, outcome, player, cause)
        if state.corrections and state.step:
            self.gm_kills(state, outcome, state.step)
        state.step = step

    def run_night_table(self, state: GameState, outcome: PhaseOutcome, night: Any) -> None:
        """Run the night's steps in the table's order; each step's marked deaths apply as
        the next begins (and the GM's corrections act at the step they name)."""
        if state.corrections:
            for key, step in self.night_table:
                self.at_step(state, outcome, key)
                step(night)
            return
        for key, step in self.night_table:
            if state.marked:
                self.at_step(state, outcome, key)
            step(night)

    def gm_kills(self, state: GameState, outcome: PhaseOutcome, step: str | None) -> None:
        """The GM's added deaths at the end of ``step``."""
        for correction in state.corrections:
            if correction.kind == CorrectionKind.KILL and correction.step == step:
                player = state.by_name[correction.player]
                if player.alive:
                    outcome.why(msg("trace.gm_kill", player=player.name, reason=correction.reason))
                    self.kill(state, outcome, player, "gm")

    @property
    def has_secret_vote(self) -> bool:
        """Whether a role of this setup casts a secret vote (the GM's form offers it)."""
        return bool(self.vote_rules.get("secret_role"))

    def will_word_limit(self, state: GameState) -> int | None:
        """How many words of a will are delivered; None where the setup has no wills (its
        options name no ``will_word_limit``)."""
        return state.options.get(self.prefix + "will_word_limit")

    def can_write_will(self, state: GameState, name: str) -> bool:
        """Whether ``name`` may write a will (everybody, where the setup has wills, unless
        the ruleset says otherwise)."""
        return self.will_word_limit(state) is not None

    def will_deadline(self, state: GameState, name: str) -> tuple[str, str] | None:
        """(phase, HH:MM) by which the dead ``name`` must hand in his will; None when no
        deadline applies (the living, a setup without wills)."""
        return None

    def take_wills(self, state: GameState, label: str, wills: Mapping[str, str]) -> None:
        for author, text in wills.items():
            self.player(state, author, label)
            state.wills[author] = str(text)

    def after_phase(self, state: GameState, outcome: PhaseOutcome) -> None:
        """Status changes that follow any phase."""

    # -- resolution and wins (per ruleset) -----------------------------------------

    @abstractmethod
    def resolve_night(self, state: GameState, outcome: PhaseOutcome, actions: list[Action]) -> None:
        """Resolve a night in the setup's action order."""

    def run_vote(
        self,
        state: GameState,
        outcome: PhaseOutcome,
        votes: list[Vote],
        *,
        weight: Callable[[str, str, bool], int] | None = None,
        weighted: Collection[str] = (),
        decisive_rule: str = "latest",
    ) -> Player | None:
        """Close the day vote (WWW §9, INQ §9): count it, kill the executed player, return
        him (None when nobody is executed). Vote changes may be switched off (WWW-D4,
        INQ-D5)."""
        if not state.options[self.vote_change_option]:
            self.check_no_change(state, outcome.phase, votes)
        execution = count_votes(votes, weight, decisive_rule, weighted, state.by_name)
        outcome.execution = execution
        outcome.public_votes = votes
        if execution.executed is None:
            outcome.why(msg("trace.no_execution", self.vote_rules["target"]))
            return None
        executed = state.by_name[execution.executed]
        said = self.executed_rules
        if not said:
            rules = self.vote_rules  # (a class attribute: read once, then kept)
            said = self.executed_rules = f"{rules['tie']}, {rules['when']}"
        outcome.why(msg("trace.executed", said, player=executed.name,
                        votes=execution.totals[executed.name]))  # fmt: skip
        state.step = "vote"  # the step ends when the ruleset has applied its consequences
        if not self.kill(state, outcome, executed, "executed"):
            execution.executed = None  # spared by the GM: nobody was executed
            return None
        return executed

    def check_no_change(self, state: GameState, label: str, votes: list[Vote]) -> None:
        """With vote changes off (WWW-D4, INQ-D5), a public vote, once cast, stands: a vote
        for another target or a withdrawal is refused. Re-posting the vote one has is not a
        change, and a withdrawal with no standing vote withdraws nothing (WWW-D31,
        INQ-D26). A secret vote is the Boia's, which he may change freely (INQ-R48): the
        option does not reach it (its withdrawal has an option of its own, INQ-D7)."""
        standing: dict[str, str | None] = {}
        for vote in votes:
            if vote.secret:
                continue
            had = standing.get(vote.voter)
            if had is None or had == vote.target:
                if vote.target is not None:
                    standing[vote.voter] = vote.target
                continue
            raise self.violation(label, state.by_name[vote.voter], msg("vote.no_change"),
                                 self.vote_rules["target"])  # fmt: skip

    @abstractmethod
    def resolve_day(
        self, state: GameState, outcome: PhaseOutcome, actions: list[Action], votes: list[Vote]
    ) -> None:
        """Close the day vote and apply the execution's consequences."""

    @abstractmethod
    def channels(self, state: GameState) -> list[Channel]:
        """The private discussion areas open now, with their members."""

    @abstractmethod
    def winning_factions(self, state: GameState) -> list[str] | None:
        """The factions that have won now, or None while the game goes on."""

    def faction_winners(self, state: GameState, factions: list[str]) -> set[str]:
        """Members of the winning factions (WWW-D3 / INQ-D3)."""
        share = self.opt(state, "dead_members_share_win")
        return {
            p.name for p in state.players
            if p.faction in factions and (share or p.alive)
        }  # fmt: skip

    def check_win(self, state: GameState, outcome: PhaseOutcome) -> None:
        factions = self.winning_factions(state)
        if factions is None:
            return
        names = self.faction_winners(state, factions) | state.goal_met
        state.winning_factions = factions
        state.winners = [p.name for p in state.players if p.name in names]
        # a side by its name, a word each setup's catalogue translates (never its key)
        sides = [Word(self.setup.faction(f, "en"), FACTION) for f in factions]
        said = sides[0] if len(sides) == 1 else ", ".join(map(str, sides))
        outcome.why(msg("trace.win", factions=said, winners=", ".join(state.winners)))
