"""The players' side: a private link, exchanged for a session, and the player's page
with the forms for what the rules let him do now."""

from __future__ import annotations

from collections import OrderedDict

from django.conf import settings
from django.contrib import messages
from django.contrib.sessions.backends.base import SessionBase
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import CSRF_TOKEN_LENGTH, get_token
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST
from django_htmx.http import reswap, retarget

from games.desk import desk_module
from games.forms_input import PlayerActionForm, PlayerVoteForm, WillForm, form_error
from games.forms_player import vote_forms
from games.models import Phase, Player
from games.selectors import player_page
from games.services import player_for_token
from games.submitting import Cast, action_submit, open_phases, vote_record, will_save
from games.vote_fast import Voter, vote_fast, voter_read
from games.vote_form import vote_form_html
from gm.net import client_ip
from gm.throttle import over_limit

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
    player = session_player(request)
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
    """A player's vote: three queries in all on PostgreSQL (the session; the player with
    his game, the target and the form's phase with its snapshot; the vote with its audit
    event, stored only if the phase, locked, still takes it: games/vote_fast.py), and the
    page's htmx answer is the vote form alone, drawn from the state it was judged on
    (games/vote_form.py). Anything out of the ordinary takes the locked path
    (``vote_record``), which judges again and says why it refuses."""
    form = PlayerVoteForm(request.POST)
    valid = form.is_valid()
    data = form.cleaned_data if valid else {}
    voter = _session_voter(request, data.get("target", ""), data.get("phase"))
    player, target = voter.player, voter.target
    error = _flooding(request) or ("" if valid else form_error(form))
    if error:
        return _after_post(request, player, "", error)
    secret = data["secret"]
    received_at = getattr(request, "received_at", None)
    try:
        if not secret and player.votes_in_topic:
            raise ValidationError(_("In questa partita si vota nel topic del forum."))
        if data["target"] and target is None:  # a forged name, or one from another game
            raise ValidationError(_("Giocatore sconosciuto."))
        abstain = secret and target is None and data["abstain"]
        cast = vote_fast(voter, secret=secret, abstain=abstain, received_at=received_at)
        if cast is None:  # the phase is the form's, if it is this game's and open
            cast = vote_record(
                phase=Phase.from_db(None, ["id", "game_id"], [data["phase"], player.game_id]),
                player=player, target=target, secret=secret, abstain=abstain,
                received_at=received_at,
            )  # fmt: skip
    except ValidationError as exc:
        return _after_post(request, player, "", " ".join(exc.messages))
    saved = _("Voto registrato.") if target else _("Voto ritirato.")
    if request.htmx:
        return _vote_form(request, player, cast, saved)
    messages.success(request, saved)
    return redirect("player_home")


def _session_voter(request: HttpRequest, target: str, phase: int | None) -> Voter:
    """The player of this session, while his link is still the current one, with what the
    vote needs (games/vote_fast.py): one query after the session's, or a single one with
    the session's row when this process has seen the session's player already (the
    session is then checked as always; another player in it takes a query of his own)."""
    session = request.session
    guess = _SESSION_PLAYERS.get(session.session_key) if not _loaded(session) else None
    voter = None
    if guess is not None:
        voter = voter_read(guess, target, phase, session_key=session.session_key)
        if voter is not None:
            session.prefetch(voter.session)
    pk = session.get(SESSION_PLAYER)
    if not isinstance(pk, int):
        raise Http404
    if voter is None or voter.player.pk != pk:
        voter = voter_read(pk, target, phase)
    if voter is None or voter.player.token_hash != session.get(SESSION_TOKEN):
        raise Http404
    _SESSION_PLAYERS[session.session_key] = pk
    _SESSION_PLAYERS.move_to_end(session.session_key)
    if len(_SESSION_PLAYERS) > SESSION_PLAYERS_SIZE:
        _SESSION_PLAYERS.popitem(last=False)
    return voter


# The player of each session key a vote of this process checked (a guess for the next
# vote's single statement, never trusted: the session read with it says whose it is).
_SESSION_PLAYERS: OrderedDict[str, int] = OrderedDict()
SESSION_PLAYERS_SIZE = 4096


def _loaded(session: SessionBase) -> bool:
    """Whether the session was read already (then reading it again proves nothing)."""
    return hasattr(session, "_session_cache") or not hasattr(session, "prefetch")


def _vote_form(request: HttpRequest, player: Player, cast: Cast, saved: str) -> HttpResponse:
    """htmx, after a vote: its form again with the standing vote and the confirmation (the
    rest of the page is unchanged by a vote), from the state the vote was judged on."""
    latest = {cast.submission.kind: cast.submission}
    secret = cast.submission.kind == cast.submission.Kind.SECRET_VOTE
    form = next((f for f in vote_forms(cast.opening, cast.phase, player.name, latest)
                 if f.secret == secret), None)  # fmt: skip
    if form is None:  # cannot happen after an accepted vote; the whole forms then
        return _after_post(request, player, saved, "")
    return HttpResponse(vote_form_html(form, _checked_token(request), saved))


def _checked_token(request: HttpRequest) -> str:
    """The CSRF token for the answer's form: the one this request carried, which Django's
    CSRF check has just accepted (the field, else the header: the page's htmx sends the
    page's own token on every request), else a new one (``get_token``). Masking a fresh
    token costs a vote more than its store; the answer reflects nothing a third party
    sends, and is not compressed, so reusing the page's token reveals nothing new."""
    token = request.POST.get("csrfmiddlewaretoken", "") or request.META.get(
        settings.CSRF_HEADER_NAME, ""
    )
    checked = request.META.get("CSRF_COOKIE") and not getattr(
        request, "_dont_enforce_csrf_checks", False
    )  # not checked when a test client turns the check off
    if checked and len(token) == CSRF_TOKEN_LENGTH and token.isascii() and token.isalnum():
        return token
    return get_token(request)


@require_POST
def player_will(request: HttpRequest) -> HttpResponse:
    player = session_player(request)
    form = WillForm(request.POST)
    saved, error = "", _flooding(request) or ("" if form.is_valid() else form_error(form))
    if error:
        return _after_post(request, player, saved, error)
    try:
        will_save(player=player, text=form.cleaned_data["text"])
        saved = _("Testamento salvato.")
    except ValidationError as exc:
        error = " ".join(exc.messages)
    return _after_post(request, player, saved, error)
