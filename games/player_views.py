"""The players' side: a private link, exchanged for a session, and the player's page."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django_ratelimit.core import is_ratelimited

from games.models import Player
from games.selectors import player_page
from games.services import player_for_token

SESSION_PLAYER = "player_id"
SESSION_TOKEN = "player_token_hash"
GUESS_RATE = "20/10m"  # wrong links per IP


@never_cache
def player_enter(request: HttpRequest, token: str) -> HttpResponse:
    """Exchange the link's token for a session and redirect to a URL without it, so the
    token never lands in Referer headers or logs. Wrong links are a plain 404; repeated
    guessing from one address is rate limited (429)."""
    if is_ratelimited(request, group="player_enter", key="ip", rate=GUESS_RATE, increment=False):
        return HttpResponse(status=429)
    player = player_for_token(token)
    if player is None:
        is_ratelimited(request, group="player_enter", key="ip", rate=GUESS_RATE, increment=True)
        raise Http404
    request.session.cycle_key()
    request.session[SESSION_PLAYER] = player.pk
    request.session[SESSION_TOKEN] = player.token_hash
    response = redirect("player_home")
    response["Referrer-Policy"] = "no-referrer"
    return response


def session_player(request: HttpRequest) -> Player:
    """The player of this session, while his link is still the current one."""
    pk = request.session.get(SESSION_PLAYER)
    player = Player.objects.select_related("game").filter(pk=pk).first() if pk else None
    if player is None or player.token_hash != request.session.get(SESSION_TOKEN):
        raise Http404
    return player


@never_cache
def player_home(request: HttpRequest) -> HttpResponse:
    """The player's page: role card, what he knows, the results he received."""
    page = player_page(session_player(request))
    return render(request, "games/player.html", {"page": page})
