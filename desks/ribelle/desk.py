"""BANG! con Il Ribelle! on the referee desk: create and deal, rebuild the table from the
log through the pure referee (roles/ribelle), and log an event only when the referee
accepts it. Names are stored as seats so a substitution renames them."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext_lazy

from desks.models import TableEvent
from desks.ribelle.text import message
from desks.services import desk_game_create, table_event_append, table_events, table_seen_check
from games.models import Game, Player
from games.registry import register_desk, register_replay
from roles.ribelle.events import Event, Outcome
from roles.ribelle.referee import apply
from roles.ribelle.state import TableState
from roles.ribelle.table import SETUP_KEY, RibelleViolation, deal, game_options

SETUP_NAME = gettext_lazy("BANG! con Il Ribelle!")
register_desk(SETUP_KEY, "desks.ribelle.views", SETUP_NAME)  # desks/services.py's registry


def violation_text(exc: RibelleViolation) -> str:
    """A refusal in the reader's language, citing its rule."""
    return f"{message(exc.msg, exc.params)} [{exc.rule}]"


def ribelle_game_create(
    *,
    gm: AbstractBaseUser,
    name: str,
    player_names: Sequence[str],
    seed: int | None = None,
    options: Mapping[str, Any] | None = None,
    language: str = "it",
    creation_token: str | None = None,
) -> Game:
    """RIB-R1, RIB-R2, RIB-D1: deal the table's roles (seeded) to 4, 6, 8, 9 or 10 players
    (once per ``creation_token``: desks.services.desk_game_create)."""
    if seed is None:
        seed = secrets.randbits(48)
    try:
        roles = deal(list(player_names), seed=seed, options=game_options(options))
    except RibelleViolation as exc:
        raise ValidationError(violation_text(exc)) from exc
    return desk_game_create(
        gm=gm, name=name, setup_key=SETUP_KEY, roles=roles, seed=seed, options=options,
        language=language, creation_token=creation_token,
    )  # fmt: skip


@dataclass
class Logged:
    """One stored event with what the referee said about it."""

    row: TableEvent
    event: Event
    outcome: Outcome
    snapshot: dict[str, Any]
    repeated: bool = False  # the same form sent twice: this is what it recorded the first time


def _event(kind: str, data: Mapping[str, Any], names: Mapping[int, str]) -> Event:
    def name(seat: Any) -> str | None:
        return None if seat is None else names.get(int(seat), f"#{seat}")

    return Event(
        kind, tuple(name(s) for s in data.get("players", [])), phase=int(data.get("phase", 1)),
        by=name(data.get("by")), during=name(data.get("during")),
        card=data.get("card", "altro"), via=data.get("via"),
    )  # fmt: skip


def table_state(game: Game) -> tuple[TableState, list[Logged]]:
    """The table rebuilt from the whole log, and each event's rulings."""
    players = list(game.players.order_by("seat"))
    names = {p.seat: p.name for p in players}
    state = TableState.new({p.name: p.role for p in players}, game_options(game.options))
    log = []
    for row in table_events(game):
        event = _event(row.kind, row.data, names)
        outcome = apply(state, event, f"#{row.seq}")
        log.append(Logged(row, event, outcome, state.snapshot()))
    return state, log


register_replay(SETUP_KEY, table_state)  # a backup's log is replayed before it is kept


def _seats(game: Game, names: Sequence[str | None]) -> list[int | None]:
    seats = dict(game.players.values_list("name", "seat"))
    return [None if n in (None, "") else seats.get(n, -1) for n in names]


@transaction.atomic
def ribelle_log(
    *,
    game: Game,
    kind: str,
    players: Sequence[str],
    user: AbstractBaseUser | None = None,
    player: Player | None = None,
    phase: int = 1,
    by: str | None = None,
    during: str | None = None,
    card: str = "altro",
    via: str | None = None,
    seen: str | None = None,
) -> Logged:
    """Log one event if the referee accepts it (else ValidationError citing the rule); at
    the end of the game the game is finished (an undo reopens it). ``seen``: the last
    event the form's page showed (desks.services.table_seen_check): a stale form is
    refused, the same form sent twice returns what it recorded the first time."""
    Game.objects.select_for_update().filter(pk=game.pk).first()
    state, log = table_state(game)
    seats = _seats(game, [*players, by or None, during or None])
    data: dict[str, Any] = {"players": seats[: len(players)]}
    if kind == "turn":
        data["phase"] = phase
    if kind == "eliminated":
        data |= {"by": seats[-2], "during": seats[-1], "card": card}
    if kind == "returns":
        data["via"] = via
    repeated = table_seen_check(game=game, seen=seen, kind=kind, data=data, user=user,
                                player=player)  # fmt: skip
    if repeated is not None:
        last = log[-1]
        return Logged(last.row, last.event, last.outcome, last.snapshot, repeated=True)
    event = Event(kind, tuple(players), phase=phase, by=by or None, during=during or None,
                  card=card, via=via)  # fmt: skip
    try:
        outcome = apply(state, event, kind)
    except RibelleViolation as exc:
        raise ValidationError(violation_text(exc)) from exc
    row = table_event_append(game=game, kind=kind, data=data, user=user, player=player)
    if state.over:
        game.status = Game.Status.FINISHED
        game.save(update_fields=["status"])
    return Logged(row, event, outcome, state.snapshot())


def replay_file(game: Game) -> dict[str, Any]:
    """The game as a `manage.py replay` file (docs/replay-ribelle.md): the seated roles,
    the options and every logged event with the players' current names."""
    players = list(game.players.order_by("seat"))
    names = {p.seat: p.name for p in players}
    events = []
    for row in table_events(game):
        event = _event(row.kind, row.data, names)
        entry: dict[str, Any] = {
            row.kind: list(event.players) if row.kind == "eliminated" else event.players[0]
        }
        if row.kind == "turn":
            entry["phase"] = event.phase
        if row.kind == "eliminated":
            entry |= {"by": event.by, "during": event.during, "card": event.card}
        if row.kind == "returns":
            entry["via"] = event.via
        events.append(entry)
    return {
        "setup": SETUP_KEY, "seed": game.seed, "players": {p.name: p.role for p in players},
        "options": dict(game.options), "events": events,
    }  # fmt: skip
