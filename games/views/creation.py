"""What every new-game page does with its one-time token (games/services/creation.py):
issue it with the form, find the game a form already dealt, and answer a deal with a
redirect (POST/redirect/GET) to the page that shows the private links once."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from games.models import Game
from games.services.creation import creation_token_new, game_already_created

FIRST_LINKS = "link=nuovi"  # the query of the page that shows the links of a new game


def creation_initial() -> dict[str, str]:
    """The initial data of a new-game form: a fresh token."""
    return {"creation_token": creation_token_new()}


def creation_data(request: HttpRequest) -> QueryDict:
    """The form as sent; without a token (a page from before tokens, a script) it gets a
    fresh one, so the form shown again with the refusal can be sent as it is."""
    data = request.POST.copy()
    if not data.get("creation_token"):
        data["creation_token"] = creation_token_new()
    return data


def sent_token(request: HttpRequest) -> str:
    return request.POST.get("creation_token", "")


def already_dealt(request: HttpRequest) -> HttpResponse | None:
    """The game this very form dealt already (a reload, Back and submit, a double click):
    a redirect to it, with no second deal; None for a form not sent before."""
    game = game_already_created(gm=request.user, token=sent_token(request))
    if game is None:
        return None
    messages.info(request, _("Questa partita è già stata creata con questo modulo: eccola. "
                             "Non è stata distribuita una seconda volta."))  # fmt: skip
    return redirect(game)


def dealt(request: HttpRequest, game: Game, message: str) -> HttpResponse:
    """The answer to a deal: a redirect to the game's page that shows the links, once."""
    messages.success(request, message)
    return redirect(f"{game.get_absolute_url()}?{FIRST_LINKS}")
