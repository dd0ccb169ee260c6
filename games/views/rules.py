"""The "Regolamento" page of each setup: the project's own rules reference, public like
the rules posted on the forum."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation

from games.engine import load_setup
from games.models import Game
from games.registry import desk_setups
from games.selectors.pages import game_for_gm
from games.text.names import setup_title
from games.text.rulebook import for_game, original_first, rulebook
from games.views.player import SESSION_PLAYER, SESSION_TOKEN


def rulebook_page(request: HttpRequest, setup: str) -> HttpResponse:
    """The rulebook; read by a player of a game of this setup (his session), with the
    values that game set for its options."""
    return _page(request, setup, _players_game(request, setup))


@login_required
def game_rulebook(request: HttpRequest, pk: int) -> HttpResponse:
    """The rulebook as the GM's game plays it."""
    game = game_for_gm(user=request.user, pk=pk)
    return _page(request, game.setup, game)


def _page(request: HttpRequest, setup: str, game: Game | None) -> HttpResponse:
    book = rulebook(setup)
    if book is None:
        raise Http404
    html = book.html
    if game is not None and game.setup not in desk_setups():  # a desk's game has no options
        html = for_game(book, game.options, load_setup(setup).options)
    original, spec = original_first(html)
    title = setup_title(setup, default=book.title)
    context = {"book": book, "original": original, "spec": spec, "game": game, "title": title,
               "italian_first": translation.get_language() == "it"}  # fmt: skip
    return render(request, "games/rulebook.html", context)


def _players_game(request: HttpRequest, setup: str) -> Game | None:
    pk = request.session.get(SESSION_PLAYER)
    if pk is None:
        return None
    return Game.objects.filter(
        setup=setup, players__pk=pk, players__token_hash=request.session.get(SESSION_TOKEN)
    ).first()
