"""Reads of games and players."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Count, QuerySet
from django.shortcuts import get_object_or_404

from games.models import Game


def games_for_gm(*, user: AbstractBaseUser | AnonymousUser) -> QuerySet[Game]:
    """The games ``user`` runs, newest first, with their player counts."""
    return Game.objects.filter(gm=user).annotate(player_count=Count("players"))


def game_for_gm(*, user: AbstractBaseUser | AnonymousUser, pk: int) -> Game:
    """One of ``user``'s games (404 for anyone else's)."""
    return get_object_or_404(Game.objects.prefetch_related("players"), pk=pk, gm=user)


def game_summary(*, game_id: int) -> dict[str, object]:
    """A JSON-friendly description of a game."""
    game = Game.objects.get(pk=game_id)
    return {
        "id": game.pk,
        "name": game.name,
        "setup": game.setup,
        "players": list(game.players.values_list("name", flat=True)),
    }
