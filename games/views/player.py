"""The players' side: a private link, exchanged for a session, and the player's page
with the forms for what the rules let him do now."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST
from django_htmx.http import reswap, retarget

from games.forms.input import PlayerActionForm, PlayerVoteForm, WillForm, form_error
from games.forms.player import vote_forms
from games.models import Phase, Player
from games.registry import desk_module, desk_setups
from games.selectors.pages import player_page
from games.selectors.window import votes_from_topic
from games.services.game import player_for_token
from games.services.submissions import Cast, action_submit, open_phases, vote_record, will_save
from games.views.net import client_ip
from games.views.throttle import over_limit

SESSION_PLAYER = "player_id"
SESSION_TOKEN = "player_token_hash"
GUESS_RATE = "20/10m"  # wrong links per client address


def _client_key(_group: str, request: HttpRequest) -> str:
    return client_ip(request)


def _player_key(_group: str, request: HttpRequest) -> str:
    return str(request.session.get(SESSION_PLAYER))


@never_cache
def player_enter(request: HttpRequest, token: str) -> HttpResponse:
    """Exchange the link's token for a session and redirect to a URL without it, so the
    token never lands in Referer headers or logs. A valid link always opens (issue 9, #2);
    wrong links are a plain 404, counted per client address (behind the trusted proxies),
    and past the limit that address gets 429 for its wrong links only."""
    player = player_for_token(token)
    if player is None:
        limited = over_limit(request, group="player_enter", key=_client_key, rate=GUESS_RATE,
                             increment=True)  # fmt: skip
        if limited:
            return HttpResponse(_("Troppi link sbagliati: riprova tra qualche minuto."),
                                status=429, content_type="text/plain; charset=utf-8")  # fmt: skip
        raise Http404
    request.session.cycle_key()
    request.session[SESSION_PLAYER] = player.pk
    request.session[SESSION_TOKEN] = player.token_hash
    response = redirect("player_home")
    response["Referrer-Policy"] = "no-referrer"
    return response


def session_player(
    request: HttpRequest, *, setup: str | None = None, werewolf: bool = False
) -> Player:
    """The player of this session, while his link is still the current one; a 404 when
    the endpoint is for another kind of game (``setup``: a desk's; ``werewolf``: not a
    desk's), so a player never reaches a form his game does not have (issue 27 §5)."""
    pk = request.session.get(SESSION_PLAYER)
    player = Player.objects.select_related("game").filter(pk=pk).first() if pk else None
    if player is None or player.token_hash != request.session.get(SESSION_TOKEN):
        raise Http404
    if (setup is not None and player.game.setup != setup) or (
        werewolf and player.game.setup in desk_setups()
    ):
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
        context = {"page": player_page(player, forms_only=True), "saved": saved, "error": error}
        response = render(request, "games/player.html#forms", context)
        # a vote form swaps itself: the whole forms replace the whole forms
        return reswap(retarget(response, "#forms"), "outerHTML")
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


def _phase(player: Player, pk: int) -> Phase:
    """The phase a form was for: one of this game's phases taking submissions."""
    phase = next((p for p in open_phases(player.game) if p.pk == pk), None)
    if phase is None:
        raise ValidationError(_("Questa fase è chiusa: non si accettano più invii."))
    return phase


def _flooding(request: HttpRequest) -> str:
    """The message for a player past his submission rate (issue 9, #9), else ''."""
    limited = over_limit(request, group="player_submit", key=_player_key,
                         rate=settings.TABULA_SUBMIT_RATE, increment=True)  # fmt: skip
    if limited:
        return _("Troppi invii in poco tempo: aspetta un minuto e riprova. "
                 "La tua ultima scelta salvata resta valida.")  # fmt: skip
    return ""


@require_POST
def player_action(request: HttpRequest) -> HttpResponse:
    player = session_player(request, werewolf=True)
    form = PlayerActionForm(request.POST)
    saved, error = "", _flooding(request) or ("" if form.is_valid() else form_error(form))
    if error:
        return _after_post(request, player, saved, error)
    data = form.cleaned_data
    try:
        action_submit(
            phase=_phase(player, data["phase"]), player=player,
            target=_target(player, data["target"]), during=data["during"],
            fake_role=data["fake_role"], vision=data["slot"] == "vision",
            received_at=getattr(request, "received_at", None),
        )  # fmt: skip
        saved = _("Scelta salvata. Puoi cambiarla fino alla scadenza.")
    except ValidationError as exc:
        error = " ".join(exc.messages)
    return _after_post(request, player, saved, error)


@require_POST
def player_vote(request: HttpRequest) -> HttpResponse:
    """A player's vote (``vote_record`` judges it on the phase, locked); the page's htmx
    answer is the vote form alone, with the standing vote and the confirmation."""
    player = session_player(request, werewolf=True)
    form = PlayerVoteForm(request.POST)
    error = _flooding(request) or ("" if form.is_valid() else form_error(form))
    if error:
        return _after_post(request, player, "", error)
    data = form.cleaned_data
    secret = data["secret"]
    try:
        if not secret and votes_from_topic(player.game_id):
            raise ValidationError(_("In questa partita si vota nel topic del forum."))
        target = _target(player, data["target"])
        cast = vote_record(
            phase=Phase(pk=data["phase"], game_id=player.game_id),  # vote_record checks it
            player=player, target=target, secret=secret,
            abstain=secret and target is None and data["abstain"],
            received_at=getattr(request, "received_at", None),
        )  # fmt: skip
    except ValidationError as exc:
        return _after_post(request, player, "", " ".join(exc.messages))
    saved = _("Voto registrato.") if target else _("Voto ritirato.")
    if request.htmx:
        return _vote_form(request, player, cast, saved)
    messages.success(request, saved)
    return redirect("player_home")


def _vote_form(request: HttpRequest, player: Player, cast: Cast, saved: str) -> HttpResponse:
    """htmx, after a vote: its form again with the standing vote and the confirmation (the
    rest of the page is unchanged by a vote), from the state the vote was judged on."""
    latest = {cast.submission.kind: cast.submission}
    secret = cast.submission.kind == cast.submission.Kind.SECRET_VOTE
    form = next((f for f in vote_forms(cast.opening, cast.phase, player.name, latest)
                 if f.secret == secret), None)  # fmt: skip
    if form is None:  # cannot happen after an accepted vote; the whole forms then
        return _after_post(request, player, saved, "")
    return render(request, "games/player.html#vote", {"form": form, "vote_saved": saved})


@require_POST
def player_will(request: HttpRequest) -> HttpResponse:
    player = session_player(request, werewolf=True)
    form = WillForm(request.POST)
    saved, error = "", _flooding(request) or ("" if form.is_valid() else form_error(form))
    if error:
        return _after_post(request, player, saved, error)
    hand_in = request.POST.get("hand_in") == "1"  # a dead player's draft stays a draft
    try:
        will = will_save(player=player, text=form.cleaned_data["text"], hand_in=hand_in)
        saved = _("Testamento consegnato.") if will.handed_in_at else _("Testamento salvato.")
    except ValidationError as exc:
        error = " ".join(exc.messages)
    return _after_post(request, player, saved, error)
