"""Colt Express con l'Automobile del Tempo on the referee desk: create the game, rebuild the
train from the log through the pure referee (roles/automobile_del_tempo), and log an entry
only when the referee accepts it. Bandits are stored as seats so a substitution renames
them. The hiding Bandit's choice is sealed: stored (a TableEvent that cannot be undone) and
audited without the spot, which nobody sees (the GM included) until the reveal. Past the
hiding deadline the site hides him under a spot drawn at random, sealed the same way
(ADT-D10): whoever looks at the table next (a page, an action) finds it done."""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from desks.models import TableEvent
from desks.services import desk_game_create, table_event_append, table_events, table_seen_check
from games.models import Game, Player
from games.registry import register_desk, register_replay, register_sealed
from games.services.game import audit
from roles.automobile_del_tempo.answers import Answer, TimeCarViolation, no
from roles.automobile_del_tempo.checker import Action, ActionError, check
from roles.automobile_del_tempo.messages import render
from roles.automobile_del_tempo.state import SETUP_KEY, SetupError
from roles.automobile_del_tempo.table import (
    ACTION_FIELDS,
    HIDING,
    OVER,
    STEALIN,
    Table,
    setup,
    step,
)  # fmt: skip

SETUP_NAME = gettext_lazy("Colt Express con l'Automobile del Tempo")
register_desk(SETUP_KEY, "desks.automobile.views", SETUP_NAME)  # desks/services.py's registry
SEATED = ("actor", "target")  # the fields of an action that name a Bandit
ALREADY_HID = gettext_lazy(
    "Ti sei già nascosto: la scelta è sigillata e non si cambia fino alla rivelazione. [ADT-R15]"
)


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
    creation_token: str | None = None,
) -> Game:
    """A new game (once per ``creation_token``: desks.services.desk_game_create):
    ``bandits`` maps each player, in seating order, to his character;
    ``config`` is the train (cars, horses_and_stagecoach, stagecoach, rounds) and the
    DECISIONS' ``options``. Refused with the rule when the setup is not legal."""
    try:
        setup(config, bandits)
    except TimeCarViolation as exc:
        raise ValidationError(violation_text(exc)) from exc
    except SetupError as exc:
        raise ValidationError(exc.text(_lang())) from exc
    return desk_game_create(
        gm=gm, name=name, setup_key=SETUP_KEY, roles=bandits, seed=0, options=dict(config),
        language=language, creation_token=creation_token,
    )  # fmt: skip


@dataclass
class Logged:
    """One stored entry with the names restored and what the referee answered."""

    row: TableEvent
    data: dict[str, Any]
    result: Any
    repeated: bool = False  # the same form sent twice: this is what it recorded the first time


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
            out[key] = seats.get(out[key], -1)  # unknown: the referee refuses it
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


register_replay(SETUP_KEY, table_state)  # a backup's log is replayed before it is kept


def adt_check(game: Game, data: Mapping[str, Any]) -> Answer:
    """The GM asks "can X do this?": the answer, nothing stored."""
    table, _ = table_state(game)
    if table.stage != STEALIN:
        return no("adt.table.not_now", "ADT-R16")
    try:
        return check(table.game, Action(**{f: data.get(f) for f in ACTION_FIELDS}))
    except ActionError as exc:
        raise ValidationError(action_error_text(exc, data)) from exc


def action_error_text(exc: ActionError, data: Mapping[str, Any]) -> str:
    """A form not well filled, in the reader's language, naming who acts when it names him."""
    names_him = exc.message not in ("adt.error.no_bandit", "adt.error.unknown_bandit")
    figure = data.get("actor") if names_him else None
    return f"{figure}: {exc.text(_lang())}" if figure else exc.text(_lang())


def unrevealed_hiding(game: Game) -> dict[str, set[int]]:
    """The hiding not yet revealed (a ``hide`` with no Stealin' phase opened after it):
    ADT-R15, nobody sees it, so no backup carries it (issue 27 §2)."""
    last = game.table_events.filter(kind__in=("hide", "stealin")).order_by("-seq").first()
    if last is None or last.kind != "hide":
        return {}
    return {TableEvent._meta.label_lower: {last.pk}}


register_sealed(SETUP_KEY, unrevealed_hiding)


def _append_sealed(game: Game, data: Mapping[str, Any], player: Player) -> TableEvent:
    """The hiding: stored, never undone, audited without the spot (ADT-R14, R15)."""
    last = game.table_events.aggregate(last=Max("seq"))["last"] or 0
    row = TableEvent.objects.create(
        game=game, seq=last + 1, kind="hide", data=dict(data), player=player, sealed=True
    )
    audit(game, "adt_hide", player=player, seq=row.seq)
    return row


def _hid_already(log: list[Logged], player: Player) -> bool:
    """The player's own hiding is the last one and not yet revealed (a second tab)."""
    last = next((e for e in reversed(log) if e.row.kind in ("hide", "stealin")), None)
    return last is not None and last.row.kind == "hide" and last.row.player_id == player.pk


def hide_deadline(log: list[Logged]) -> dt.datetime | None:
    """The deadline the GM gave the hiding Bandit (the last round's end carries it)."""
    text = next((e.data.get("hide_by") for e in reversed(log) if e.row.kind == "round_end"), None)
    return dt.datetime.fromisoformat(text) if text else None


def hiding_spots(table: Table) -> list[str]:
    """Where the Bandit alone in the Time Car may hide (ADT-R14): the Locomotive, each car,
    the Stagecoach when it is in play."""
    train = table.game.train
    return [*train.units(), *(["stagecoach"] if train.horses_and_stagecoach else [])]


def deadline_text(moment: dt.datetime) -> str:
    return date_format(timezone.localtime(moment), "DATETIME_FORMAT")


def drawn_hide(log: list[Logged]) -> Logged | None:
    """The last entry, when it is the site's own hiding at the deadline (ADT-D10)."""
    last = log[-1] if log else None
    return last if last and last.row.kind == "hide" and last.data.get("drawn") else None


@transaction.atomic
def hiding_deadline_enforce(*, game: Game, now: dt.datetime | None = None) -> TableEvent | None:
    """ADT-D10: past the deadline, a Bandit alone in the Time Car who has not chosen is
    hidden by the site under a spot drawn at random among the legal ones (ADT-R14), stored
    as his own choice is: the same sealed event, which nobody sees before the reveal
    (ADT-R15). The draw is secret (the system's randomness, not the game's seed, which
    the GM could replay); the log keeps it, so a replay of the log is the same game."""
    Game.objects.select_for_update().filter(pk=game.pk).first()
    table, log = table_state(game)
    deadline = hide_deadline(log)
    if table.stage != HIDING or deadline is None or (now or timezone.now()) < deadline:
        return None
    under = secrets.choice(hiding_spots(table))
    bandit = game.players.get(name=table.awaiting)
    return _append_sealed(game, {"under": under, "drawn": True}, bandit)


def _round_end_deadline(data: Mapping[str, Any]) -> None:
    """A hiding deadline must lie ahead (ADT-D10)."""
    text = data.get("hide_by")
    if not text:
        return
    try:
        moment = dt.datetime.fromisoformat(str(text))
    except ValueError as exc:
        raise ValidationError(_("Scadenza non valida: scrivi giorno e ora.")) from exc
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment)
    if moment <= timezone.now():
        raise ValidationError(
            _("La scadenza per il nascondiglio (%(when)s) è già passata: scegline una futura.")
            % {"when": deadline_text(moment)}
        )  # fmt: skip


@transaction.atomic
def adt_log(
    *,
    game: Game,
    kind: str,
    data: Mapping[str, Any],
    user: AbstractBaseUser | None = None,
    player: Player | None = None,
    seen: str | None = None,
) -> Logged:
    """Log one entry if the referee accepts it (else ValidationError citing the rule). At
    the end of the game the game is finished (an undo reopens it). ``seen``: the last
    event the form's page showed (desks.services.table_seen_check): a stale form is
    refused, the same form sent twice returns what it recorded the first time. A hiding
    deadline gone by is applied first (ADT-D10): past it the Bandit can no longer hide."""
    Game.objects.select_for_update().filter(pk=game.pk).first()
    hiding_deadline_enforce(game=game)
    table, log = table_state(game)
    drawn = drawn_hide(log)
    if kind == "hide" and drawn and player is not None and drawn.row.player_id == player.pk:
        raise ValidationError(
            _("Il tempo per nasconderti è scaduto: il sito ti ha nascosto in un punto estratto "
              "a caso. [ADT-D10]")
        )  # fmt: skip
    stored = dict(data) if kind == "hide" else _seats(game, data)
    try:
        repeated = table_seen_check(game=game, seen=seen, kind=kind, data=stored, user=user,
                                    player=player)  # fmt: skip
    except ValidationError:
        if kind == "hide" and player is not None and _hid_already(log, player):
            raise ValidationError(ALREADY_HID) from None  # the reason, not "reload"
        raise
    if repeated is not None:
        return Logged(log[-1].row, log[-1].data, log[-1].result, repeated=True)
    if kind == "hide" and (player is None or table.awaiting != player.name):
        raise ValidationError(answer_text(no("adt.hide.not_alone", "ADT-R13")))
    if kind == "round_end":
        _round_end_deadline(data)
    try:
        result = step(table, kind, data)
    except TimeCarViolation as exc:
        raise ValidationError(violation_text(exc)) from exc
    except ActionError as exc:
        raise ValidationError(action_error_text(exc, data)) from exc
    except ValueError as exc:  # a log entry the site's forms never send (its own words)
        raise ValidationError(str(exc)) from exc
    if kind == "hide":
        row = _append_sealed(game, data, player)
    else:
        row = table_event_append(game=game, kind=kind, data=stored, user=user, player=player)
    if kind == "stealin" and result is not None:
        audit(game, "adt_reveal", user=user, bandit=result.figure, at=result.to, seq=row.seq)
    if table.stage == OVER:
        game.status = Game.Status.FINISHED
        game.save(update_fields=["status"])
    return Logged(row, dict(data), result)
