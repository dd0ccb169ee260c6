"""The referee desks' writes: games kept as an event log (TableEvent) instead of Werewolf phases.

A desk setup (BANG! con Il Ribelle!, ...) has a pure referee in ``roles/`` that rebuilds the
state from the whole log. This module is what those games share: creating the game with its
dealt roles, appending an event (numbered under a lock, so two GMs' clicks never share a
number), taking back the last one, and what every desk form carries: the mark of the last
event its page showed (``seen``), so a stale tab's submit is refused instead of recorded
against a table that has moved on, and the same form sent twice records once. Nothing here
names a desk."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext_lazy

from desks.models import TableEvent
from games.models import Game, Player
from games.services.creation import game_create_once
from games.services.game import audit

STALE = gettext_lazy("La partita è cambiata: ricarica la pagina.")
ALREADY_UNDONE = gettext_lazy("Questo evento è già stato annullato.")
SECRET = gettext_lazy("Il nascondiglio scelto da un Bandito non si annulla.")
END_UNCONFIRMED = gettext_lazy(
    "Questo evento ha chiuso la partita: per annullarlo spunta «Sì, annulla la fine della partita»."
)


@transaction.atomic
def desk_game_create(
    *,
    gm: AbstractBaseUser,
    name: str,
    setup_key: str,
    roles: Mapping[str, str],
    seed: int,
    options: Mapping[str, Any] | None = None,
    language: str = "it",
    creation_token: str | None = None,
) -> Game:
    """A desk game with its players, seated in the given order with the roles dealt. With a
    ``creation_token`` (the new-game form's), the same form sent twice deals once:
    :func:`games.services.creation.game_create_once` returns the game already dealt."""

    def create() -> Game:
        game = Game.objects.create(
            gm=gm, name=name, setup=setup_key, seed=seed, options=dict(options or {}),
            language=language,
        )  # fmt: skip
        Player.objects.bulk_create(
            Player(game=game, name=player, seat=seat, role=role)
            for seat, (player, role) in enumerate(roles.items(), start=1)
        )
        audit(game, "game_created", user=gm, setup=setup_key, seed=seed, players=list(roles))
        return game

    if creation_token is None:
        return create()
    return game_create_once(gm=gm, name=name, token=creation_token, create=create).game


EPOCH = dt.datetime(2000, 1, 1, tzinfo=dt.UTC)
NOTHING_SEEN = "0"  # the mark of an empty log


def event_mark(event: TableEvent | None) -> str:
    """What a desk form carries as ``seen``: the event's number and the microsecond it was
    logged. The number alone comes back after an undo; the pair does not, and it stays
    the same in a backup imported elsewhere (unlike the row's id)."""
    if event is None:
        return NOTHING_SEEN
    return f"{event.seq}.{(event.at - EPOCH) // dt.timedelta(microseconds=1)}"


def last_event_mark(game: Game) -> str:
    """The mark of the log's last event (``NOTHING_SEEN`` before the first)."""
    return event_mark(game.table_events.order_by("-seq").first())


def table_seen_check(
    *,
    game: Game,
    seen: str | None,
    kind: str,
    data: Mapping[str, Any],
    user: AbstractBaseUser | None = None,
    player: Player | None = None,
) -> TableEvent | None:
    """Under the game's lock, before a form's event is judged: None when the form saw the
    table as it is; the event already recorded when this is the same form sent again (a
    double click: it recorded once); else ValidationError ``STALE``: the table moved on
    since the page was shown, nothing is recorded. ``seen=None`` (the site's own calls)
    checks nothing."""
    if seen is None:
        return None
    last_two = list(game.table_events.order_by("-seq")[:2])
    if seen == event_mark(last_two[0] if last_two else None):
        return None
    if last_two:
        last = last_two[0]
        before = event_mark(last_two[1] if len(last_two) > 1 else None)
        same_author = (last.by_id, last.player_id) == (
            user.pk if user is not None else None, player.pk if player is not None else None
        )  # fmt: skip
        if before == seen and same_author and last.kind == kind and last.data == dict(data):
            return last
    raise ValidationError(STALE, code="stale")


@transaction.atomic
def table_event_append(
    *,
    game: Game,
    kind: str,
    data: Mapping[str, Any],
    user: AbstractBaseUser | None = None,
    player: Player | None = None,
) -> TableEvent:
    """Append one event to the log (its number taken under a lock on the game row)."""
    Game.objects.select_for_update().filter(pk=game.pk).first()
    last = game.table_events.aggregate(last=Max("seq"))["last"] or 0
    event = TableEvent.objects.create(
        game=game, seq=last + 1, kind=kind, data=dict(data), by=user, player=player
    )
    audit(game, f"table_{kind}", user=user, player=player, seq=event.seq, data=dict(data))
    return event


@transaction.atomic
def table_event_undo(
    *, game: Game, user: AbstractBaseUser, seen: str | None = None, end_confirmed: bool = False
) -> TableEvent | None:
    """Take back the last event; returns what was removed (None: the log is empty).

    ``seen`` is the event the GM's undo button named: if it is gone, ValidationError
    ``ALREADY_UNDONE`` (the same button pressed twice); if a newer event exists, ``STALE``.
    A sealed event (a Bandit's secret hiding) is never taken back. The event that ended
    the game (always the last: nothing is logged after the end) is taken back only with
    ``end_confirmed``; the game then runs again and its end post goes with it (the posts
    are rebuilt from the log)."""
    Game.objects.select_for_update().filter(pk=game.pk).first()
    game.refresh_from_db(fields=["status"])
    last = game.table_events.order_by("-seq").first()
    if seen is not None and seen != event_mark(last):
        number = seen.partition(".")[0]
        known = number.isdigit() and len(number) < 10  # a number the log could hold
        named = game.table_events.filter(seq=int(number)).first() if known else None
        if seen != NOTHING_SEEN and event_mark(named) != seen:
            raise ValidationError(ALREADY_UNDONE, code="gone")
        raise ValidationError(STALE, code="stale")
    if last is None:
        return None
    if last.sealed:
        raise ValidationError(SECRET, code="secret")
    reopened = game.status == Game.Status.FINISHED
    if reopened and not end_confirmed:
        raise ValidationError(END_UNCONFIRMED, code="end")
    audit(game, "table_undo", user=user, seq=last.seq, event=last.kind, data=last.data,
          reopened=reopened)  # fmt: skip
    last.delete()
    if reopened:
        game.status = Game.Status.RUNNING
        game.save(update_fields=["status"])
    return last


def table_events(game: Game) -> list[TableEvent]:
    return list(game.table_events.select_related("by", "player").order_by("seq"))
