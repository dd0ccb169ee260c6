"""The referee desks' writes: games kept as an event log (TableEvent) instead of Werewolf phases.

A desk setup (BANG! con Il Ribelle!, ...) has a pure referee in ``roles/`` that rebuilds the
state from the whole log. This module is what those games share: creating the game with its
dealt roles, appending an event (numbered under a lock, so two GMs' clicks never share a
number), taking back the last one, sealing the log when the game ends, and where a desk
game's pages live: a registry that each desk fills as it is imported (a module
``games/<name>_desk.py`` calls :func:`register_desk` with its setup key and the module of
its pages: ``gm_page(request, game)``, ``player_page(request, player)`` and optionally
``spoiler(request, game)``). Nothing here names a desk."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Max

from desks.models import TableEvent
from games.models import Game, Player
from games.services.game import audit


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
) -> Game:
    """A desk game with its players, seated in the given order with the roles dealt."""
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
def table_event_undo(*, game: Game, user: AbstractBaseUser) -> TableEvent | None:
    """Take back the last event, unless it is sealed; returns what was removed (or None)."""
    Game.objects.select_for_update().filter(pk=game.pk).first()
    last = game.table_events.order_by("-seq").first()
    if last is None or last.sealed:
        return None
    audit(game, "table_undo", user=user, seq=last.seq, event=last.kind, data=last.data)
    last.delete()
    return last


def table_events_seal(*, game: Game) -> int:
    """Seal the whole log (the game is over): nothing can be undone any more."""
    return game.table_events.filter(sealed=False).update(sealed=True)


def table_events(game: Game) -> list[TableEvent]:
    return list(game.table_events.select_related("by", "player").order_by("seq"))
