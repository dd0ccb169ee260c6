"""The players' side: a private link, exchanged for a session, and the player's page
with the forms for what the rules let him do now."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST
from django_ratelimit.core import is_ratelimited

from games.desk import desk_module
from games.models import Phase, Player
from games.phases import action_submit, open_phases, vote_cast, will_save
from games.selectors import player_page
from games.services import player_for_token
from games.topic_votes import votes_from_topic

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
    """The player's page: role card, what he knows, results, and the open forms."""
    player = session_player(request)
    desk = desk_module(player.game)
    if desk is not None:  # an event-log referee game (BANG! con Il Ribelle!, ...)
        return desk.player_page(request, player)
    page = player_page(player)
    return render(request, "games/player.html", {"page": page})


def _after_post(request: HttpRequest, player: Player, saved: str, error: str) -> HttpResponse:
    """htmx: the refreshed forms with the confirmation or the error; otherwise a redirect."""
    if request.htmx:
        context = {"page": player_page(player), "saved": saved, "error": error}
        return render(request, "games/player.html#forms", context)
    if error:
        messages.error(request, error)
    else:
        messages.success(request, saved)
    return redirect("player_home")


def _target(player: Player, name: str) -> Player | None:
    """A player of the same game (a forged name from another game is unknown)."""
    if not name:
        return None
    target = Player.objects.filter(game_id=player.game_id, name=name).first()
    if target is None:
        raise ValidationError(_("Giocatore sconosciuto."))
    return target


def _phase(player: Player, request: HttpRequest) -> Phase:
    """The phase a form was for: one of this game's phases taking submissions."""
    pk = request.POST.get("phase", "")
    phase = next((p for p in open_phases(player.game) if str(p.pk) == pk), None)
    if phase is None:
        raise ValidationError(_("Questa fase è chiusa: non si accettano più invii."))
    return phase


@require_POST
def player_action(request: HttpRequest) -> HttpResponse:
    player = session_player(request)
    saved = error = ""
    try:
        phase = _phase(player, request)
        action_submit(
            phase=phase, player=player, target=_target(player, request.POST.get("target", "")),
            during=request.POST.get("during", ""), fake_role=request.POST.get("fake_role", ""),
            vision=request.POST.get("slot") == "vision",
            received_at=getattr(request, "received_at", None),
        )  # fmt: skip
        saved = _("Scelta salvata. Puoi cambiarla fino alla scadenza.")
    except ValidationError as exc:
        error = " ".join(exc.messages)
    return _after_post(request, player, saved, error)


@require_POST
def player_vote(request: HttpRequest) -> HttpResponse:
    player = session_player(request)
    saved = error = ""
    secret = request.POST.get("secret") == "1"
    try:
        phase = _phase(player, request)
        if not secret and votes_from_topic(player.game):
            raise ValidationError(_("In questa partita si vota nel topic del forum."))
        target = _target(player, request.POST.get("target", ""))
        abstain = secret and target is None and request.POST.get("abstain") == "1"
        vote_cast(phase=phase, player=player, target=target, secret=secret, abstain=abstain,
                  received_at=getattr(request, "received_at", None))  # fmt: skip
        saved = _("Voto registrato.") if target else _("Voto ritirato.")
    except ValidationError as exc:
        error = " ".join(exc.messages)
    return _after_post(request, player, saved, error)


@require_POST
def player_will(request: HttpRequest) -> HttpResponse:
    player = session_player(request)
    saved = error = ""
    try:
        will_save(player=player, text=request.POST.get("text", "")[:5000])
        saved = _("Testamento salvato.")
    except ValidationError as exc:
        error = " ".join(exc.messages)
    return _after_post(request, player, saved, error)
