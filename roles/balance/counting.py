"""Counting simulated games into an :class:`~roles.balance.study.Aggregate` (docs/balance.md).

It runs once per game in the study's inner loop: what depends only on the ruleset (the
loners, the investigators, the values that show a suspect, the abilities that kill, each
card's abilities) is computed once per chunk; a game adds to counters keyed by tuples
(the aggregate's ``"cause|day"`` strings are built once per chunk); what every game deals
alike (the cards dealt, the loners' games) is the game count times the deal.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from roles.balance.informed import REVEALING_KINDS, is_hit, profile
from roles.engine.ruleset import Ruleset

if TYPE_CHECKING:
    from roles.balance.study import Aggregate

_MANY = object()  # a card with several abilities: the action's slot tells which


class GameCounter:
    """Counts games of one ruleset; :meth:`aggregate` gives the chunk's counters."""

    def __init__(self, rules: Ruleset, killers: frozenset[str]) -> None:
        self.rules = rules
        cards = rules.setup.cards
        self.dealt: dict[str, int] = dict(rules.setup.roles)  # every deal is the setup's
        self.loners = tuple(k for k in self.dealt if cards[k].faction == "solitario")
        self.revealing = profile(rules).revealing
        self.killers = killers
        # who may be credited with a find: the cards with an ability of their own (a
        # result handed to anyone else, by a go-between, is the investigator's find)
        self.investigators = frozenset(
            k for k in cards if any(not a.shared for a in rules.card_abilities(k))
        )
        self.abilities: dict[str, Any] = {}  # card -> its one ability, None, or _MANY
        for key in cards:
            abilities = rules.card_abilities(key)
            self.abilities[key] = abilities[0] if len(abilities) == 1 else (
                _MANY if abilities else None
            )  # fmt: skip
        self.days_of = {f"{k}{d}": d for d in range(200) for k in "ND"}  # label -> day
        self.games = 0
        # one record per game, per death, per power: counted at C speed per chunk
        self.ends: list[tuple[tuple[str, ...], int]] = []  # (winning factions, length)
        self.loner_wins: Counter = Counter()
        self.deaths: list[tuple[str, int, str]] = []  # (cause, day, card)
        self.powers: list[tuple[str, str]] = []  # (kind, card), once per game

    def count(self, state: Any, log: list) -> None:
        self.games += 1
        self.ends.append((tuple(state.winning_factions or ()), (state.phase_index + 1) // 2))
        if self.loners:
            winners = state.winners or ()
            for card in self.loners:
                for player in state.dealt(card):
                    if player.name in winners:
                        self.loner_wins[card] += 1
        by_name = state.by_name
        days_of, deaths = self.days_of, self.deaths
        revealing, investigators = self.revealing, self.investigators
        killers = self.killers
        happened: set[tuple[str, str]] = set()
        for label, actions, _, outcome in log:
            if outcome.deaths:
                day = days_of.get(label)
                if day is None:
                    day = days_of[label] = int(label[1:])
                for death in outcome.deaths:
                    deaths.append((death.cause, day, by_name[death.player].dealt_role))
            for result in outcome.results:
                if result.kind in REVEALING_KINDS and result.about is not None:
                    card = by_name[result.to].dealt_role
                    if card in investigators and is_hit(revealing, result.value):
                        happened.add(("found", card))
            if killers and actions and label[0] == "N":
                self._saves(state, actions, outcome, happened)
        if happened:
            self.powers.extend(happened)

    def _ability(self, actor: Any, action: Any) -> Any:
        """The ability an action of a card with several used: the one its slot names."""
        key = self.rules.ability_key(actor, action)
        return next((a for a in self.rules.card_abilities(actor.dealt_role) if a.key == key), None)

    def _saves(self, state: Any, actions: list, outcome: Any, happened: set) -> None:
        """A kill's target who survives the night, targeted by another card's ability:
        that card's power saved him (the Guards' protection, a doctor's)."""
        killers, by_name, abilities = self.killers, state.by_name, self.abilities
        others = []
        targets = set()
        for action in actions:
            actor = by_name[action.actor]
            ability = abilities.get(actor.dealt_role)
            if ability is _MANY:
                ability = self._ability(actor, action)
            if ability is None:
                continue
            if ability.key in killers:
                if action.target:
                    targets.add(action.target)
            else:
                others.append((action.target, actor))
        if not targets or not others:
            return
        for death in outcome.deaths:
            targets.discard(death.player)
        for target, actor in others:
            if target in targets:
                happened.add(("saved", actor.dealt_role))

    def aggregate(self) -> Aggregate:
        """The chunk's counters, keyed as the aggregate keys them."""
        from roles.balance.study import Aggregate

        games = self.games
        wins: Counter = Counter()
        days: Counter = Counter()
        for (factions, length), n in Counter(self.ends).items():
            for faction in factions:
                wins[faction] += n
            days[length] += n
        deaths: Counter = Counter()
        role_deaths: Counter = Counter()
        for (cause, day, card), n in Counter(self.deaths).items():
            deaths[f"{cause}|{day}"] += n
            role_deaths[f"{card}|{day}"] += n
        return Aggregate(
            games,
            wins=wins,
            loner_wins=Counter(self.loner_wins),
            loner_games=Counter({card: self.dealt[card] * games for card in self.loners}),
            days=days,
            deaths=deaths,
            dealt=Counter({card: count * games for card, count in self.dealt.items()}),
            role_deaths=role_deaths,
            powers=Counter({f"{k}|{c}": n for (k, c), n in Counter(self.powers).items()}),
        )
