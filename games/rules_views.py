"""The "Regolamento" page of each setup: the project's own rules reference, public like
the rules posted on the forum."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from games.models import Game
from games.player_views import SESSION_PLAYER, SESSION_TOKEN
from games.rulebook import for_game, rulebook
from roles.engine.setups import load_setup


def rulebook_page(request: HttpRequest, setup: str) -> HttpResponse:
    """The rulebook; read by a player of a game of this setup (his session) or by its GM
    (``?partita=<id>``), with the values that game set for its options."""
    book = rulebook(setup)
    if book is None:
        raise Http404
    game = _viewers_game(request, setup)
    html = book.html
    if game is not None:
        html = for_game(book, game.options, load_setup(setup).options)
    return render(request, "games/rulebook.html", {"book": book, "html": html, "game": game})


def _viewers_game(request: HttpRequest, setup: str) -> Game | None:
    wanted = request.GET.get("partita", "")
    if wanted.isdigit() and request.user.is_authenticated:
        return Game.objects.filter(pk=int(wanted), gm=request.user, setup=setup).first()
    pk = request.session.get(SESSION_PLAYER)
    if pk is None:
        return None
    return Game.objects.filter(
        setup=setup, players__pk=pk, players__token_hash=request.session.get(SESSION_TOKEN)
    ).first()
