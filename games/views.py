"""The GM's game pages."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.selectors import game_for_gm


@login_required
def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The role sheet of one game."""
    game = game_for_gm(user=request.user, pk=pk)
    return render(request, "games/detail.html", {"game": game, "players": game.players.all()})
