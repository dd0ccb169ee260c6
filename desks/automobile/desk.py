"""Colt Express con l'Automobile del Tempo on the referee desk: create the game, rebuild the
train from the log through the pure referee (roles/automobile_del_tempo), and log an entry
only when the referee accepts it. Bandits are stored as seats so a substitution renames
them. The hiding Bandit's choice is sealed: stored (a TableEvent that cannot be undone) and
audited without the spot, which nobody sees (the GM included) until the reveal."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import translation

from desks.models import TableEvent
from desks.services import desk_game_create, table_event_append, table_events, table_events_seal
from games.models import Game, Player
from games.registry import register_desk
from games.services.game import audit
from roles.automobile_del_tempo.answers import Answer, TimeCarViolation, no
from roles.automobile_del_tempo.checker import Action, ActionError, check
from roles.automobile_del_tempo.messages import render
from roles.automobile_del_tempo.state import SETUP_KEY, SetupError
from roles.automobile_del_tempo.table import ACTION_FIELDS, OVER, STEALIN, Table, setup, step

SETUP_NAME = "Colt Express con l'Automobile del Tempo"
register_desk(SETUP_KEY, "desks.automobile.views", SETUP_NAME)  # desks/services.py's registry
SEATED = ("actor", "target")  # the fields of an action that name a Bandit


def _lang() -> str:
    return (translation.get_language() or "it")[:2]


def answer_text(answer: Answer, figure: str = "") -> str:
    """An answer in the reader's language, citing its rule."""
    text = render(answer.message, answer.params, _lang())
    who = f"{figure}: " if figure else ""
    return f"{who}{text}" + (f" [{answer.rule}]" if answer.rule else "")


def violation_text(exc: TimeCarViolation) -> str:
    return answer_text(exc.answer, exc.player)


def adt_game_create(
    *,
    gm: AbstractBaseUser,
    name: str,
    bandits: Mapping[str, str],
    config: Mapping[str, Any],
    language: str = "it",
) -> Game:
    """A new game: ``bandits`` maps each player, in seating order, to his character;
    ``config`` is the train (cars, horses_and_stagecoach, stagecoach, rounds) and the
    DECISIONS' ``options``. Refused with the rule when the setup is not legal."""
    try:
        setup(config, bandits)
    except TimeCarViolation as exc:
        raise ValidationError(violation_text(exc)) from exc
    except SetupError as exc:
        raise ValidationError(str(exc)) from exc
    return desk_game_create(
        gm=gm, name=name, setup_key=SETUP_KEY, roles=bandits, seed=0, options=dict(config),
        language=language,
    )  # fmt: skip


@dataclass
class Logged:
    """One stored entry with the names restored and what the referee answered."""

    row: TableEvent
    data: dict[str, Any]
    result: Any


def _names(data: Mapping[str, Any], names: Mapping[int, str]) -> dict[str, Any]:
    out = dict(data)
    for key in SEATED:
        if out.get(key) is not None:
            out[key] = names.get(int(out[key]), f"#{out[key]}")
    return out


def _seats(game: Game, data: Mapping[str, Any]) -> dict[str, Any]:
    seats = dict(game.players.values_list("name", "seat"))
    out = dict(data)
    for key in SEATED:
        if out.get(key) is not None:
            out[key] = seats[out[key]]
    return out


def table_state(game: Game) -> tuple[Table, list[Logged]]:
    """The train rebuilt from the whole log, and each entry's answer."""
    players = list(game.players.order_by("seat"))
    names = {p.seat: p.name for p in players}
    table = Table(setup(game.options, {p.name: p.role for p in players}))
    log = []
    for row in table_events(game):
        data = _names(row.data, names)
        log.append(Logged(row, data, step(table, row.kind, data)))
    return table, log


def adt_check(game: Game, data: Mapping[str, Any]) -> Answer:
    """The GM asks "can X do this?": the answer, nothing stored."""
    table, _ = table_state(game)
    if table.stage != STEALIN:
        return no("adt.table.not_now", "ADT-R16")
    try:
        return check(table.game, Action(**{f: data.get(f) for f in ACTION_FIELDS}))
    except ActionError as exc:
        raise ValidationError(str(exc)) from exc


def _append_sealed(game: Game, data: Mapping[str, Any], player: Player) -> TableEvent:
    """The hiding: stored, never undone, audited without the spot (ADT-R14, R15)."""
    last = game.table_events.aggregate(last=Max("seq"))["last"] or 0
    row = TableEvent.objects.create(
        game=game, seq=last + 1, kind="hide", data=dict(data), player=player, sealed=True
    )
    audit(game, "adt_hide", player=player, seq=row.seq)
    return row


@transaction.atomic
def adt_log(
    *,
    game: Game,
    kind: str,
    data: Mapping[str, Any],
    user: AbstractBaseUser | None = None,
    player: Player | None = None,
) -> Logged:
    """Log one entry if the referee accepts it (else ValidationError citing the rule). At
    the end of the game the game is finished and the log sealed."""
    Game.objects.select_for_update().filter(pk=game.pk).first()
    table, _ = table_state(game)
    if kind == "hide" and (player is None or table.awaiting != player.name):
        raise ValidationError(answer_text(no("adt.hide.not_alone", "ADT-R13")))
    try:
        result = step(table, kind, data)
    except TimeCarViolation as exc:
        raise ValidationError(violation_text(exc)) from exc
    except (ActionError, ValueError) as exc:
        raise ValidationError(str(exc)) from exc
    if kind == "hide":
        row = _append_sealed(game, data, player)
    else:
        stored = _seats(game, data)
        row = table_event_append(game=game, kind=kind, data=stored, user=user, player=player)
    if kind == "stealin" and result is not None:
        audit(game, "adt_reveal", user=user, bandit=result.figure, at=result.to, seq=row.seq)
    if table.stage == OVER:
        game.status = Game.Status.FINISHED
        game.save(update_fields=["status"])
        table_events_seal(game=game)
    return Logged(row, dict(data), result)
