"""Replay every stored game on today's rules and compare with what was stored: a rules
change that would move a running game shows before deploy (`manage.py verify_games`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from games.engine import (
    PhaseOutcome,
    Rebuilt,
    RuleViolation,
    SetupError,
    announce,
    replay,
    rules_for,
    start_state,
    stored_value,
)
from games.models import AuditEvent, Game, Phase, Result


@dataclass
class Verdict:
    game: Game
    differences: list[str] = field(default_factory=list)
    skipped: str = ""  # why the game was not replayed (a referee desk's game)

    @property
    def version_changed(self) -> bool:
        return (
            not self.skipped
            and bool(self.game.rules_version)
            and self.game.rules_version != rules_for(self.game).version
        )


def _results(game: Game, label: str, outcome: PhaseOutcome, built: Rebuilt) -> list[tuple]:
    by_name = {p.name: p for p in built.players}
    return [
        (by_name[r.to].pk, r.kind, by_name[r.about].pk if r.about else None,
         stored_value(built.rules, r.kind, r.value, by_name))
        for r in outcome.results
    ]  # fmt: skip


def _stored_results(game: Game, label: str) -> list[tuple]:
    rows = Result.objects.filter(game=game, phase=label).order_by("order")
    return [(r.to_id, r.kind, r.about_id, r.value) for r in rows]


def _compare(diffs: list[str], where: str, what: str, stored: Any, now: Any) -> None:
    if stored != now:
        diffs.append(f"{where} {what}: stored {stored!r}, now {now!r}")


def _renamer(game: Game, players: list) -> Callable[[Any], Any]:
    """What was stored under a name a player no longer has (a rename or a substitution,
    issue 12 §3), read with the name he has now: the replay names the players as they are
    today, and a rename is not a rules change."""
    current = {p.name for p in players}
    old_to_new: dict[str, str] = {}
    for player in players:
        for old in player.previous_names:
            old_to_new.setdefault(old, player.name)
    events = AuditEvent.objects.filter(game=game, kind="rename", player__isnull=False)
    for event in events.select_related("player"):
        old = event.detail.get("old")
        if isinstance(old, str):
            old_to_new.setdefault(old, event.player.name)
    old_to_new = {old: new for old, new in old_to_new.items() if old not in current}
    if not old_to_new:
        return lambda value: value
    names = sorted(old_to_new, key=len, reverse=True)  # "Sam" never eats "Samuele"
    pattern = re.compile(r"(?<!\w)(" + "|".join(map(re.escape, names)) + r")(?!\w)")

    def renamed(value: Any) -> Any:
        if isinstance(value, str):
            return pattern.sub(lambda m: old_to_new[m.group(1)], value)
        if isinstance(value, list | tuple):
            return type(value)(renamed(item) for item in value)
        if isinstance(value, dict):
            return {renamed(k): renamed(v) for k, v in value.items()}
        return value

    return renamed


def verify_game(game: Game) -> Verdict:
    """Every committed phase of ``game`` replayed from its stored inputs and corrections,
    compared with its stored deaths, execution, winners, announcement and private results."""
    verdict = Verdict(game)
    diffs = verdict.differences
    try:
        rules_for(game)
    except SetupError:
        verdict.skipped = "a referee desk's game: its event log is its record"
        return verdict
    players = list(game.players.all())
    try:
        state, start = start_state(game, players)
    except RuleViolation as exc:
        diffs.append(f"setup: the deal is refused now: {exc}")
        return verdict
    built = Rebuilt(game, rules_for(game), state, players, {p.seat: p for p in players})
    renamed = _renamer(game, players)
    _compare(diffs, "setup", "results", renamed(_stored_results(game, "setup")),
             _results(game, "setup", start, built))  # fmt: skip
    phases = game.phases.filter(status=Phase.Status.COMMITTED).order_by("index")
    for phase in phases:
        where = f"{phase.label}"
        try:
            outcome = replay(built, phase.label, phase.inputs, phase.overrides)
        except RuleViolation as exc:
            diffs.append(f"{where}: its stored inputs are refused now: {exc}")
            break
        stored = renamed(phase.outcome)
        _compare(diffs, where, "deaths", stored.get("deaths"),
                 [d.as_dict() for d in outcome.deaths])  # fmt: skip
        execution = outcome.execution.as_dict() if outcome.execution else None
        _compare(diffs, where, "execution", stored.get("execution"), execution)
        _compare(diffs, where, "winners", stored.get("winners"), built.state.winners)
        _compare(diffs, where, "winning factions", stored.get("winning_factions"),
                 built.state.winning_factions)  # fmt: skip
        _compare(diffs, where, "post", stored.get("announcement"),
                 announce(built.state, outcome, lang=game.language))  # fmt: skip
        _compare(diffs, where, "results", renamed(_stored_results(game, phase.label)),
                 _results(game, phase.label, outcome, built))  # fmt: skip
    return verdict


def verify_games(games: Iterable[Game]) -> list[Verdict]:
    return [verify_game(game) for game in games]
