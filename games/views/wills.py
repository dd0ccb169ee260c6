"""The GM reads every will, at any time (WWW-R41..R48)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.engine import rebuild
from games.selectors.pages import game_for_gm
from games.selectors.wills import wills_for_gm


@login_required
def game_wills(request: HttpRequest, pk: int) -> HttpResponse:
    """Every will of the game: its text whole, where the cut falls, its state, and to whom
    the Notaio delivered it."""
    game = game_for_gm(user=request.user, pk=pk, werewolf=True)
    built = rebuild(game)
    context = {
        "game": game,
        "wills": wills_for_gm(game, built.rules, built.state),
        "limit": built.rules.will_word_limit(built.state),
        "rules": built.rules.will_rules,
    }
    return render(request, "games/wills.html", context)
