"""The deal every ruleset shares: seat the players with their cards, check the deal, give
what each knows at start, and draw what the setup draws in secret (seeded, so a preview,
the commit and a replay draw the same).
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Mapping
from typing import Any, ClassVar, Final, TypeVar

from roles.engine.errors import RuleViolation
from roles.engine.legality import Legality
from roles.engine.messages import msg
from roles.engine.model import GameState, PhaseOutcome, Player, Result
from roles.engine.setups import Setup, SetupError, load_setup

T = TypeVar("T")

# sys.intern as a module constant: compiled, a call through it skips the lookup of the
# attribute ``intern`` on ``sys`` that ``sys.intern(...)`` makes each time (new_game, per seat).
_intern: Final = sys.intern

# How many interned names a ruleset keeps for its deals (Dealing._names): a site's worker
# deals the same games again and again; a bound keeps a long-lived one from growing.
_NAMES_KEPT: Final = 4096

# What a ruleset reads off its setup once for every deal (Dealing._known).
_Known = tuple[Setup, dict[str, tuple[str, str, str, str, int]], dict[str, str], list[int]]


class Dealing(Legality):
    key: ClassVar[str]
    count_rule: ClassVar[str]  # the rule fixing the number of players
    undealt_rule: ClassVar[str] = ""  # the rule keeping a known role out of the deal
    options_rule: ClassVar[str] = ""  # the DECISION refusing a setting ("": the setup's "-D")

    def __init__(self) -> None:
        self.setup: Setup = load_setup(self.key)
        # the setup read once for every deal (_known)
        self._cards: _Known | None = None
        # the players' names already interned, kept (up to _NAMES_KEPT) so that a deal of
        # names seen before (a study's, a rebuilt game's) does not call sys.intern again
        self._names: dict[str, str] = {}

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
        cards, wanted, names = known[1], known[3], self._names
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
            dealt[index] = dealt[index] + 1  # (compiled: no generic in-place add)
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
                rule = self.options_rule or self.prefix.rstrip(".").upper() + "-D"
                raise RuleViolation(exc.said or str(exc), rule, phase="setup") from exc
        state = GameState(self.key, seed, merged, seated, by_name)
        outcome = PhaseOutcome("setup")
        outcome.results = told
        self.start(state, outcome, dict(draws or {}))
        return state, outcome

    def seen_as(self, role: str) -> str:
        """How the card ``role`` is seen by an investigation (the setup's ``seen_as``)."""
        return self._known()[2][role]

    def _known(self) -> _Known:
        """The setup read once for every deal (again when a study puts another setup in
        place): by role, what a player dealt the card starts with (its key, the setup's
        interned string; faction; count; the role he is told) and the card's number; how
        each card is seen; and how many of each card, by number, a legal deal deals."""
        setup = self.setup
        known = self._cards
        if known is None or known[0] is not setup:
            cards = {
                role: (card.key, card.faction, card.counts_as, card.told_as, index)
                for index, (role, card) in enumerate(setup.cards.items())
            }
            seen = {role: card.seen_as for role, card in setup.cards.items()}
            wanted = [setup.cards[role].count for role in cards]
            known = self._cards = (setup, cards, seen, wanted)
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

    def start(self, state: GameState, outcome: PhaseOutcome, draws: dict[str, Any]) -> None:
        """Setup-specific knowledge and secret draws."""

    def draw(self, state: GameState, purpose: str, items: list[T]) -> T:
        """One item drawn uniformly, fixed by the game's seed and the draw's purpose, so the
        GM's preview and the commit (and every replay) draw the same."""
        digest = hashlib.blake2b(f"{state.seed}:{purpose}".encode(), digest_size=8).digest()
        return items[int.from_bytes(digest, "big") % len(items)]
