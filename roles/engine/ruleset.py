"""What every ruleset shares: the deal, phase sequencing, legality helpers, wins.

A ruleset subclass names its setup, its night order and its steps; the checks here
use the state at the *start* of the phase (WWW-D8, INQ §10), which is also what the
player forms offer.
"""

from __future__ import annotations

import hashlib
import inspect
import random
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar, Final, TypeVar

from mypy_extensions import mypyc_attr

from roles.engine.abilities import Ability, available
from roles.engine.channels import Channel
from roles.engine.errors import RuleViolation
from roles.engine.messages import CATALOGUE, RESULTS, Message, ResultKind, msg, verb_to
from roles.engine.messages import verb as bare_verb
from roles.engine.model import (
    CORRECTION_KINDS,
    PHASE_LABELS,
    Action,
    Correction,
    GameState,
    PhaseOutcome,
    Player,
    Result,
    Vote,
    phase_label,
)
from roles.engine.setups import Setup, SetupError, load_setup
from roles.engine.votes import count_votes

T = TypeVar("T")

# sys.intern as a module constant: compiled, a call through it skips the lookup of the
# attribute ``intern`` on ``sys`` that ``sys.intern(...)`` makes each time (new_game, per seat).
_intern: Final = sys.intern

# How many interned names a ruleset keeps for its deals (Ruleset._names): a site's worker
# deals the same games again and again; a bound keeps a long-lived one from growing.
_NAMES_KEPT: Final = 4096

# What a ruleset reads off its setup once for every deal (Ruleset._known).
_Known = tuple[
    Setup,
    list[str],
    dict[str, tuple[str, str, str, str, int]],
    dict[str, str],
    list[int],
]

# Each ruleset class's version (Ruleset.version), digested once per process.
_VERSIONS: dict[type, str] = {}


# A setup's rules subclass this (compiled ones and, for a setup outside roles/native.py's
# list, interpreted ones).
@mypyc_attr(allow_interpreted_subclasses=True)
class Ruleset(ABC):
    key: ClassVar[str]
    prefix: ClassVar[str]  # option prefix, "www." or "inq."
    count_rule: ClassVar[str]  # the rule fixing the number of players
    roles_rule: ClassVar[str]  # the rule fixing the role list
    undealt_rule: ClassVar[str] = ""  # the rule keeping a known role out of the deal
    vote_rules: ClassVar[dict[str, str]]  # which rule forbids what, for votes
    will_rules: ClassVar[dict[str, str]] = {}  # the wills' rules: limit, deadline, refused
    will_delivery_kind: ClassVar[str] = ""  # the result kind handing wills over (its authors)
    dead_actor_rule: ClassVar[str]
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
        self.setup: Setup = load_setup(self.key)
        # Whether the simulator must ask random_fields (most rulesets need no extra field).
        self.has_random_fields = type(self).random_fields is not Ruleset.random_fields
        self.has_after_phase = type(self).after_phase is not Ruleset.after_phase
        self.has_died = type(self).died is not Ruleset.died
        self.executed_rules = ""  # the rules an execution's trace cites (run_vote)
        self.vote_change_option = sys.intern(self.prefix + "allow_vote_change")  # run_vote
        # the setup read once for every deal (deck_and_cards)
        self._cards: _Known | None = None
        # the players' names already interned, kept (up to _NAMES_KEPT) so that a deal of
        # names seen before (a study's, a rebuilt game's) does not call sys.intern again
        self._names: dict[str, str] = {}
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

    def opt(self, state: GameState, name: str) -> Any:
        return state.options[self.prefix + name]

    # -- the deal ------------------------------------------------------------------

    def new_game(
        self,
        players: Mapping[str, str],
        *,
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
        draws: Mapping[str, Any] | None = None,
    ) -> tuple[GameState, PhaseOutcome]:
        """Seat the players with their dealt roles and give the start-of-game knowledge."""
        setup = self.setup
        known = self._known()
        cards, wanted, names = known[2], known[4], self._names
        # Seat the players, counting the cards dealt (by card: a legal deal deals each as
        # many times as the setup has it; anything else, check_deal names the fault).
        dealt = [0] * len(wanted)
        seated = []
        told = []
        by_name = {}
        seat = 0
        for name, role in players.items():
            try:
                card = cards.get(role)
            except TypeError:  # a role that is not a string
                card = None
            if card is None:  # not a card of this setup: check_deal says so
                self.check_deal(players)
                raise RuleViolation(msg("deal.not_dealt", role=repr(role), setup=setup.name),
                                    self.roles_rule, phase="setup", player=str(name))  # fmt: skip
            key, faction, counts_as, told_as, index = card
            dealt[index] += 1
            if type(name) is str:  # the submissions' names (interned) are then these objects
                same = names.get(name)
                if same is None:
                    same = _intern(name)
                    if len(names) < _NAMES_KEPT:
                        names[same] = same
                name = same
            player = Player(name, seat, key, key, faction, counts_as)
            seated.append(player)
            by_name[name] = player
            told.append(Result(name, "role", None, told_as))
            seat += 1
        if dealt != wanted or seat != setup.players:
            self.check_deal(players)
        if not options:
            merged = dict(setup.options)  # the defaults: nothing to check
        else:
            try:
                merged = setup.with_options(options)
            except SetupError as exc:
                rule = self.prefix.rstrip(".").upper() + "-D"
                raise RuleViolation(str(exc), rule, phase="setup") from exc
        state = GameState(self.key, seed, merged, seated, by_name)
        outcome = PhaseOutcome("setup")
        outcome.results = told
        self.start(state, outcome, dict(draws or {}))
        return state, outcome

    @property
    def deck(self) -> list[str]:
        """The setup's dealt cards, sorted: what a legal deal's roles sort to."""
        return self.deck_and_cards()[0]

    def deck_and_cards(self) -> tuple[list[str], dict[str, tuple[str, str, str, str, int]]]:
        """The deck (sorted) and, by role, what a player dealt the card starts with (see
        :meth:`_known`). Read from the setup once (a study may put another setup in place:
        then again)."""
        known = self._known()
        return known[1], known[2]

    def seen_as(self, role: str) -> str:
        """How the card ``role`` is seen by an investigation (the setup's ``seen_as``)."""
        return self._known()[3][role]

    def _known(self) -> _Known:
        """The setup read once for every deal: the deck (sorted); by role, what a player
        dealt the card starts with (its key, the setup's interned string; faction; count;
        the role he is told) and the card's number; how each card is seen; and how many
        of each card, by number, a legal deal deals."""
        setup = self.setup
        known = self._cards
        if known is None or known[0] is not setup:
            cards = {
                role: (card.key, card.faction, card.counts_as, card.told_as, index)
                for index, (role, card) in enumerate(setup.cards.items())
            }
            seen = {role: card.seen_as for role, card in setup.cards.items()}
            wanted = [setup.cards[role].count for role in cards]
            known = self._cards = (setup, sorted(setup.dealt_cards), cards, seen, wanted)
        return known

    def check_deal(self, players: Mapping[str, str]) -> None:
        """Name what is wrong with a deal: the player count, a card not dealt in this
        setup, or a card dealt the wrong number of times."""
        setup = self.setup
        if len(players) != setup.players:
            raise RuleViolation(
                msg("deal.count", setup=setup.name, players=setup.players, got=len(players)),
                self.count_rule, phase="setup",
            )  # fmt: skip
        counts: dict[str, int] = {}
        for name, role in players.items():
            if role not in setup.cards or not setup.cards[role].count:
                rule = self.undealt_rule if role in setup.cards else self.roles_rule
                raise RuleViolation(
                    msg("deal.not_dealt", role=repr(role), setup=setup.name), rule,
                    phase="setup", player=name,
                )  # fmt: skip
            counts[role] = counts.get(role, 0) + 1
        for role, wanted in setup.roles.items():
            if counts.get(role, 0) != wanted:
                raise RuleViolation(
                    msg("deal.role_count", setup=setup.name, wanted=wanted, role=role,
                        got=counts.get(role, 0)),
                    self.roles_rule, phase="setup",
                )  # fmt: skip

    def start(  # noqa: B027 - an optional hook
        self, state: GameState, outcome: PhaseOutcome, draws: dict[str, Any]
    ) -> None:
        """Setup-specific knowledge and secret draws."""

    def draw(self, state: GameState, purpose: str, items: list[T]) -> T:
        """One item drawn uniformly, fixed by the game's seed and the draw's purpose, so the
        GM's preview and the commit (and every replay) draw the same."""
        digest = hashlib.blake2b(f"{state.seed}:{purpose}".encode(), digest_size=8).digest()
        return items[int.from_bytes(digest, "big") % len(items)]

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

    def died(  # noqa: B027 - an optional hook
        self, state: GameState, outcome: PhaseOutcome, player: Player, cause: str
    ) -> None:
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
            marked = list(state.marked)
            state.marked.clear()
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
            if correction.kind == "kill" and correction.step == step:
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

    def after_phase(  # noqa: B027 - an optional hook
        self, state: GameState, outcome: PhaseOutcome
    ) -> None:
        """Status changes that follow any phase."""

    # -- legality ------------------------------------------------------------------

    def validate(
        self, state: GameState, label: str, actions: list[Action], votes: list[Vote]
    ) -> None:
        if actions:
            self.validate_actions(state, label, actions)
        if votes:
            self.check_votes(state, label, votes)

    def validate_actions(self, state: GameState, label: str, actions: list[Action]) -> None:
        """Every action legal, and at most one use of each ability slot per phase."""
        seen: set[str] | None = None  # the slots filled (made at the second: one needs none)
        first: str | None = None
        by_name = state.by_name
        for action in actions:
            actor = by_name.get(action.actor)  # type: ignore[arg-type]
            if actor is None or not actor.alive:
                actor = self.player(state, action.actor, label)
                self.require_in_game(actor, label)
            slot = self.check_use(state, label, action, actor)
            if slot is None:
                continue
            if first is None:
                first = slot
                continue
            if seen is None:
                seen = {first}
            if slot in seen:
                raise self.violation(label, actor, msg("action.slot_used"),
                                     self.ability_rule(actor))  # fmt: skip
            seen.add(slot)

    def check_votes(self, state: GameState, label: str, votes: list[Vote]) -> None:
        """All the day's votes; the common legal case is checked inline (it runs for
        every voter of every day), anything unusual gets the detailed check."""
        if label[0] != "D":
            for vote in votes:
                self.check_vote(state, label, vote)  # refused: no vote at night
            return
        by_name = state.by_name
        secret_role = self.vote_rules.get("secret_role")
        for vote in votes:
            voter = by_name.get(vote.voter)
            if voter is not None and voter.alive:
                target = vote.target
                if target is not None:
                    chosen = by_name.get(target)
                    if chosen is None or not chosen.alive or chosen is voter:
                        self.check_vote(state, label, vote)
                        continue
                if not vote.secret or voter.dealt_role == secret_role:
                    continue
            self.check_vote(state, label, vote)

    @abstractmethod
    def check_action(self, state: GameState, label: str, action: Action) -> str | None:
        """Raise RuleViolation if ``action`` is illegal; return its per-phase slot key
        (None for shared slots such as the pack kill, where the last entry counts)."""

    def check_use(self, state: GameState, label: str, action: Action, actor: Player) -> str | None:
        """:meth:`check_action` with its actor already found (the one in ``state`` named by
        ``action.actor``): a ruleset may check without looking him up again."""
        return self.check_action(state, label, action)

    def ability_rule(self, actor: Player) -> str:
        return self.roles_rule

    def check_target(  # noqa: B027 - an optional hook
        self, state: GameState, label: str, actor: Player, ability: Ability, target: Player
    ) -> None:
        """Setup-specific limits on a target, once the shared ones passed."""

    @abstractmethod
    def ability_key(self, actor: Player, action: Action) -> str:
        """The slot an (already checked) action fills: its ability's key."""

    @abstractmethod
    def card_abilities(self, role: str) -> tuple[Ability, ...]:
        """The abilities the holder of the card ``role`` may submit."""

    def abilities_of(self, player: Player) -> tuple[Ability, ...]:
        """The abilities ``player`` may submit (by his dealt card: a converted player keeps
        his powers)."""
        return self.card_abilities(player.dealt_role)

    def can_use(self, state: GameState, label: str, player: Player, ability: Ability) -> bool:
        """Whether ``player`` may use ``ability`` at all in ``label``, whatever the target:
        the player forms show exactly these (the legality check still judges each use)."""
        return player.alive and available(state, label, player, ability)

    def phase_choices(self, ability: Ability) -> tuple[str, ...]:
        """The night phases an ability's user must pick one of (none for most)."""
        return ()

    def shared_uses(self, state: GameState, label: str, ability: Ability) -> int:
        """How many entries of a shared ability count in ``label`` (two pack kills...)."""
        return 1

    def likely_targets(self, state: GameState, ability: Ability, pool: list[str]) -> list[str]:
        """The simulator's first guess at targets (the legality check still decides), made
        once per game: it reads only what a death does not change (a card, a pack's faction)."""
        return pool

    def random_fields(self, state: GameState, ability: Ability, rng: random.Random) -> dict:
        """Extra fields a random use of ``ability`` needs (the simulator's hook)."""
        return {}

    def legal_targets(
        self,
        state: GameState,
        actor: str,
        *,
        label: str | None = None,
        during: str | None = None,
        vision: bool = False,
    ) -> list[str]:
        """Whom ``actor`` may target in the next phase (the player forms offer exactly
        these, so the forms and the replay never disagree)."""
        label = label or phase_label(state.phase_index + 1)
        player = self.player(state, actor, label)
        names = []
        for candidate in state.players:
            action = Action(actor, candidate.name, during=during, vision=vision)
            try:
                self.require_in_game(player, label)
                self.check_action(state, label, action)
            except RuleViolation:
                continue
            names.append(candidate.name)
        return names

    def check_vote(self, state: GameState, label: str, vote: Vote) -> None:
        rules = self.vote_rules
        voter = self.player(state, vote.voter, label)
        if label[0] != "D":
            raise self.violation(label, voter, msg("vote.at_night"), rules["when"])
        self.require_in_game(voter, label)
        if vote.secret and voter.dealt_role != rules.get("secret_role"):
            raise self.violation(label, voter, msg("vote.no_secret"), rules["secret"])
        if vote.target is None:
            return
        target = self.player(state, vote.target, label)
        if not target.alive:
            raise self.violation(label, voter, msg("vote.target_out", target=target.name),
                                 rules["target"])  # fmt: skip
        if target is voter and not self.opt(state, "allow_self_vote"):
            raise self.violation(label, voter, msg("vote.self"), rules["self"])

    def player(self, state: GameState, name: str | None, label: str) -> Player:
        player = state.by_name.get(name) if name is not None else None
        if player is None:
            raise RuleViolation(msg("player.unknown", name=repr(name)), "spec", phase=label)
        return player

    def require_in_game(self, player: Player, label: str) -> None:
        if player.departed:
            raise self.violation(label, player, msg("player.departed"), self.departed_rule)
        if not player.alive:
            raise self.violation(label, player, msg("player.dead"), self.dead_actor_rule)

    departed_rule: ClassVar[str] = "spec"

    def violation(self, label: str, player: Player, message: Message, rule: str) -> RuleViolation:
        return RuleViolation(message, rule, phase=label, player=player.name, role=player.role)

    def target_of(
        self,
        state: GameState,
        label: str,
        actor: Player,
        action: Action,
        *,
        rule_self: str | None,
        rule_dead: str | None,
        verb: str,
    ) -> Player:
        """The action's target, checked: present, not the actor (when ``rule_self``),
        in the game (when ``rule_dead``)."""
        if action.target is None:
            raise self.violation(label, actor, msg("action.no_target", verb=bare_verb(verb)),
                                 self.ability_rule(actor))  # fmt: skip
        target = self.player(state, action.target, label)
        if rule_self and target is actor:
            raise self.violation(label, actor, msg("action.self", verb=verb_to(verb)), rule_self)
        if target.departed:
            raise self.violation(
                label, actor, msg("action.target_departed", verb=verb_to(verb), target=target.name),
                self.departed_rule,
            )  # fmt: skip
        if rule_dead and not target.alive:
            raise self.violation(
                label, actor, msg("action.target_dead", verb=verb_to(verb), target=target.name),
                rule_dead,
            )  # fmt: skip
        return target

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
        rules = self.vote_rules
        if not state.options[self.vote_change_option]:
            voted: set[tuple[str, bool]] = set()
            for vote in votes:
                if (vote.voter, vote.secret) in voted:
                    raise self.violation(outcome.phase, state.by_name[vote.voter],
                                         msg("vote.no_change"), rules["target"])  # fmt: skip
                voted.add((vote.voter, vote.secret))
        execution = count_votes(votes, weight, decisive_rule, weighted, state.by_name)
        outcome.execution = execution
        outcome.public_votes = votes
        if execution.executed is None:
            outcome.why(msg("trace.no_execution", rules["target"]))
            return None
        executed = state.by_name[execution.executed]
        said = self.executed_rules
        if not said:
            said = self.executed_rules = f"{rules['tie']}, {rules['when']}"
        outcome.why(msg("trace.executed", said, player=executed.name,
                        votes=execution.totals[executed.name]))  # fmt: skip
        state.step = "vote"  # the step ends when the ruleset has applied its consequences
        if not self.kill(state, outcome, executed, "executed"):
            execution.executed = None  # spared by the GM: nobody was executed
            return None
        return executed

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
        outcome.why(
            msg("trace.win", factions=", ".join(factions), winners=", ".join(state.winners))
        )
