"""A Time Car game kept as a log, as the site keeps it: the setup, then the GM's and the
hiding Bandit's entries in order; ``rebuild`` replays them through the referee.

Entries (kind, data):
- ``stealin`` {}: the GM opens the next round's Stealin' phase (the reveal, ADT-R16);
- ``action`` {kind, actor, to, target, loot}: an action applied (``checker.Action``);
- ``round_end`` {event}: the round's Event, then the end-of-round check (ADT-R13): if one
  Bandit is alone in the Time Car (not on the last round) the table waits for his hiding;
- ``hide`` {under}: the hiding Bandit's sealed choice (ADT-R14, D5).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from roles.automobile_del_tempo.answers import TimeCarViolation, no
from roles.automobile_del_tempo.checker import Action, apply
from roles.automobile_del_tempo.posts import Post, end_post, hid_post, reveal_post
from roles.automobile_del_tempo.rounds import apply_event, end_bonus, end_round, start_round
from roles.automobile_del_tempo.state import TimeCarGame, new_game

SCHEMIN, STEALIN, HIDING, OVER = "schemin", "stealin", "hiding", "over"
ACTION_FIELDS = ("kind", "actor", "to", "target", "loot")


@dataclass
class Table:
    game: TimeCarGame
    stage: str = SCHEMIN  # schemin (before the round's Stealin'), stealin, hiding, over
    awaiting: str | None = None  # the Bandit who must hide now
    posts: list[Post] = field(default_factory=list)  # the public posts so far
    end: dict[str, Any] | None = None

    @property
    def next_round(self) -> int:
        return self.game.round + 1


def setup(config: Mapping[str, Any], characters: Mapping[str, str]) -> TimeCarGame:
    """The game from the site's stored setup (the replay's ``train`` keys, ``options``,
    ``starts``) and the Bandits' characters in player order."""
    starts = config.get("starts") or {}
    return new_game(
        cars=config["cars"], bandits={n: (c, starts.get(n)) for n, c in characters.items()},
        horses_and_stagecoach=bool(config.get("horses_and_stagecoach")),
        total_rounds=config.get("rounds", 5), marshal=config.get("marshal"),
        stagecoach=config.get("stagecoach"), options=config.get("options") or {},
    )  # fmt: skip


def step(table: Table, kind: str, data: Mapping[str, Any]) -> Any:
    """Apply one log entry; returns what the referee answered (or None)."""
    game = table.game
    label = f"Round {table.next_round if table.stage == SCHEMIN else game.round}"
    if table.stage == OVER:
        raise TimeCarViolation(no("adt.table.over", "ADT-R17"), label=label)
    if kind == "stealin":
        if table.stage != SCHEMIN:
            raise TimeCarViolation(no("adt.table.not_now", "ADT-R16"), label=label)
        revealed = start_round(game)
        table.stage = STEALIN
        if revealed is not None:
            table.posts.append(reveal_post(game.round, revealed.figure, revealed.to))
        return revealed
    if kind == "action":
        if table.stage != STEALIN:
            raise TimeCarViolation(no("adt.table.not_now", "ADT-R16"), label=label)
        return apply(game, Action(**{f: data.get(f) for f in ACTION_FIELDS}), label=label)
    if kind == "round_end":
        if table.stage != STEALIN:
            raise TimeCarViolation(no("adt.table.not_now", "ADT-R13"), label=label)
        moved = apply_event(game, data.get("event"))
        alone = game.in_time_car()
        if len(alone) == 1 and not game.last_round:
            table.stage, table.awaiting = HIDING, alone[0]
            return moved
        end_round(game, None, label=label)
        _after_round(table)
        return moved
    if kind == "hide":
        if table.stage != HIDING:
            raise TimeCarViolation(no("adt.hide.not_alone", "ADT-R13"), label=label)
        hiding = end_round(game, data.get("under"), table.awaiting, label=label)
        table.posts.append(hid_post(game.round, hiding.bandit))
        table.awaiting = None
        _after_round(table)
        return hiding
    raise ValueError(f"unknown log entry {kind!r}")


def _after_round(table: Table) -> None:
    if table.game.over:
        table.stage = OVER
        table.end = end_bonus(table.game)
        table.posts.append(end_post(table.end))
    else:
        table.stage = SCHEMIN


def rebuild(game: TimeCarGame, entries: Iterable[tuple[str, Mapping[str, Any]]]) -> Table:
    table = Table(game)
    for kind, data in entries:
        step(table, kind, data)
    return table
