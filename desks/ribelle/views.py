"""BANG! con Il Ribelle! on the site: the GM's new game, the desk (roles and private links,
the turn log, eliminations and returns with the referee's rulings, the Revolution checklist,
the posts) and the player's page (role card, goal, the Rebel!'s reveal)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from desks.ribelle.desk import (
    SETUP_NAME,
    Logged,
    replay_file,
    ribelle_game_create,
    ribelle_log,
    table_state,
    violation_text,
)  # fmt: skip
from desks.ribelle.text import (
    CARD_NAMES,
    GOALS,
    ROLE_CARDS,
    VIA_NAMES,
    checklist,
    elimination_post,
    final_post,
    message,
    reveal_post,
    revolution_post,
    role_name,
    ruling_line,
)  # fmt: skip
from desks.services import event_mark
from desks.views import desk_undo, seen_of
from games.forms.game import CreationTokenForm
from games.forms.signup import parse_player_names
from games.models import Game, Player
from games.selectors.pages import game_for_gm
from games.views.creation import already_dealt, creation_data, creation_initial, dealt, sent_token
from games.views.player import session_player
from roles.ribelle.replay import run_ribelle
from roles.ribelle.state import TableState
from roles.ribelle.table import (
    EVENT_DECKS,
    OPTIONS,
    REBEL,
    SETUP_KEY,
    RibelleViolation,
    check_player_count,
)  # fmt: skip

MARKUPS = (("bbcode", "BBCode"), ("markdown", "Markdown"))
REVEAL_REFRESH_SECONDS = 20  # the waiting Rebel!'s page reloads itself (meta refresh, no JS)
LANGUAGES = (("it", "Italiano"), ("en", "English"))


class RibelleCreateForm(CreationTokenForm):
    name = forms.CharField(label=gettext_lazy("Nome della partita"), max_length=120)
    players = forms.CharField(
        label=gettext_lazy("Giocatori"),
        widget=forms.Textarea(attrs={"rows": 10}),
        help_text=gettext_lazy("Un nome per riga, nell'ordine in cui siedono: 4, 6, 8, 9 o 10."),
    )
    seed = forms.IntegerField(label=gettext_lazy("Seme (facoltativo)"), required=False,
                              min_value=0, max_value=2**48 - 1)  # fmt: skip
    language = forms.ChoiceField(label=gettext_lazy("Lingua degli annunci"), choices=LANGUAGES)
    event_deck = forms.ChoiceField(
        label=gettext_lazy("Mazzo eventi (RIB-R13)"), initial="none",
        choices=[("none", gettext_lazy("nessuno")),
                 ("high_noon", gettext_lazy("Mezzogiorno di Fuoco")),
                 ("fistful_of_cards", gettext_lazy("Per un Pugno di Carte"))],
    )  # fmt: skip
    requires_rebel_source = forms.BooleanField(
        label=gettext_lazy("La Rivoluzione richiede che sia il Ribelle! a eliminare lo "
                           "Sceriffo (RIB-D2)"), required=False,
    )  # fmt: skip
    skips_pre_phase_checks = forms.BooleanField(
        label=gettext_lazy("Il nuovo turno dopo la Rivoluzione salta i controlli prima "
                           "della fase 1 (RIB-D9)"), required=False, initial=True,
    )  # fmt: skip

    def clean_players(self) -> list[str]:
        text = self.cleaned_data["players"]
        count = len([line for line in text.splitlines() if line.strip()])
        names = parse_player_names(text, expected=count)
        try:
            check_player_count(len(names))
        except RibelleViolation as exc:
            raise ValidationError(violation_text(exc)) from exc
        return names

    def options(self) -> dict[str, Any]:
        data = self.cleaned_data
        chosen = {
            "rib.event_deck": data["event_deck"] if data["event_deck"] in EVENT_DECKS else "none",
            "rib.revolution_requires_rebel_source": data["requires_rebel_source"],
            "rib.new_turn_skips_pre_phase_checks": data["skips_pre_phase_checks"],
        }
        return {k: v for k, v in chosen.items() if v != OPTIONS[k]}


@login_required
def ribelle_new(request: HttpRequest) -> HttpResponse:
    """A new BANG! con Il Ribelle! game: deal once (the form's one-time token), then the
    private links once, on the page the deal redirects to."""
    if request.method != "POST":
        form = RibelleCreateForm(initial=creation_initial())
    elif (answer := already_dealt(request)) is not None:
        return answer
    else:
        form = RibelleCreateForm(creation_data(request))
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            game = ribelle_game_create(
                gm=request.user, name=data["name"], player_names=data["players"],
                seed=data["seed"], options=form.options(), language=data["language"],
                creation_token=sent_token(request),
            )  # fmt: skip
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            return dealt(request, game, _("Ruoli distribuiti. Copia ora i link privati."))
    return render(request, "games/ribelle/new.html", {"form": form, "setup_name": SETUP_NAME})


def _posts(state: TableState, log: list[Logged], players: list[dict[str, Any]]) -> list[dict]:
    """Every post to paste on the forum, in BBCode and Markdown, Italian and English."""
    posts = []

    def variants(make: Any) -> list[dict[str, str]]:
        return [{"label": f"{lang_label} · {markup_label}", "text": make(markup, lang)}
                for lang, lang_label in LANGUAGES for markup, markup_label in MARKUPS]  # fmt: skip

    for item in log:
        if item.event.kind == "eliminated":
            who, rulings = item.event.players, [r.as_dict() for r in item.outcome.rulings]
            posts.append({"title": _("Eliminazione"), "seq": item.row.seq,
                          "variants": variants(lambda m, lang, w=who, r=rulings:
                                               elimination_post(w, r, m, lang))})  # fmt: skip
        if item.event.kind == "reveal":
            who, sheriff = item.event.players[0], item.snapshot["sheriff"]
            posts.append({"title": _("Il Ribelle! si scopre"), "seq": item.row.seq,
                          "variants": variants(lambda m, lang, w=who, s=sheriff:
                                               reveal_post(w, s, m, lang))})  # fmt: skip
        if item.outcome.revolution:
            revolution, ends = item.outcome.revolution, item.snapshot["over"]
            posts.append({"title": _("Rivoluzione"), "seq": item.row.seq,
                          "variants": variants(lambda m, lang, r=revolution, e=ends:
                                               revolution_post(r, m, lang, e))})  # fmt: skip
    if state.over:
        side = state.side
        posts.append({"title": _("Fine della partita"), "seq": None, "variants": variants(
            lambda m, lang: final_post(side, players, m, lang))})  # fmt: skip
    return posts


def gm_page(request: HttpRequest, game: Game, tokens: dict[int, str] | None = None) -> HttpResponse:
    """The desk of a BANG! game (games:detail dispatches here)."""
    state, log = table_state(game)
    players = state.players_report()
    by_name = {p.name: p for p in game.players.order_by("seat")}
    fresh = {str(pk): token for pk, token in (tokens or {}).items()}  # just issued (issue 9, #4)
    rows = []
    for report, seat in zip(players, state.seats, strict=True):
        player = by_name[report["name"]]
        token = fresh.get(str(player.pk))
        rows.append({
            **report, "player": player, "role_name": role_name(report["role"]),
            "plays_as_name": role_name(report["plays_as"]), "face_up": seat.face_up,
            "ghost": seat.ghost,
            "link": request.build_absolute_uri(reverse("player_enter", args=[token]))
            if token else None,
        })  # fmt: skip
    entries = [{
        "seq": item.row.seq, "kind": item.event.kind, "event": item.event,
        "phase": item.event.phase, "row": item.row,
        "rulings": [ruling_line(r.as_dict()) for r in item.outcome.rulings],
        "penalty": ruling_line({"msg": item.outcome.penalty["msg"], "rule":
                                item.outcome.penalty["rule"], "params": item.outcome.penalty})
        if item.outcome.penalty else None,
        "checklist": checklist(item.outcome.revolution, item.snapshot["over"])
        if item.outcome.revolution else None,
    } for item in log]  # fmt: skip
    context = {
        "game": game, "state": state, "snapshot": state.snapshot(), "rows": rows,
        "entries": entries, "posts": _posts(state, log, players), "setup_name": SETUP_NAME,
        "in_play": [s.name for s in state.seats if s.in_play],
        "out_of_play": [s.name for s in state.seats if not s.in_play],
        "cards": [(k, str(v)) for k, v in CARD_NAMES.items()],
        "vias": [(k, str(v)) for k, v in VIA_NAMES.items()],
        "winners": state.winners, "side": state.side, "penalty_now": penalty_now(state),
        "next_turn": next_turn(state), "seen": event_mark(log[-1].row if log else None),
        "last_seq": log[-1].row.seq if log else 0,
        "rebel_deciding": state.turn if state.turn and can_reveal(state, state.turn) else None,
    }  # fmt: skip
    return render(request, "games/ribelle/desk.html", context)


def next_turn(state: TableState) -> tuple[str | None, int]:
    """What the turn form offers first: the next phase, or the next player in play."""
    if state.turn is None:
        return state.sheriff.name if state.sheriff else None, 1
    if state.phase < 3 and state.by_name[state.turn].in_play:
        return state.turn, state.phase + 1
    seat = next(i for i, s in enumerate(state.seats) if s.name == state.turn)
    ring = state.seats[seat + 1 :] + state.seats[: seat + 1]
    return next((s.name for s in ring if s.in_play), None), 1


def penalty_now(state: TableState) -> str | None:
    """RIB-R10, RIB-R12, RIB-D5: what the Sheriff would pay now for eliminating a Deputy."""
    sheriff = state.sheriff
    if state.over or sheriff is None or not sheriff.in_play:
        return None
    if state.rebel_face_up_in_play():
        rule = "RIB-D5" if state.revolutions else "RIB-R10"
        msg = "rib.penalty_suspended"
    else:
        rule = "RIB-R12" if sheriff.sheriff_by_revolution else "RIB-R10"
        msg = "rib.penalty_applies"
    return ruling_line({"msg": msg, "params": {"sheriff": sheriff.name}, "rule": rule})


@login_required
@require_POST
def ribelle_event(request: HttpRequest, pk: int) -> HttpResponse:
    """The GM logs a turn, an elimination or a return; the referee rules or refuses."""
    game = game_for_gm(user=request.user, pk=pk, setup=SETUP_KEY)
    post = request.POST
    kind = post.get("kind", "")
    fields: dict[str, Any] = {}
    if kind == "turn":
        players = [post.get("player", "")]
        phase = post.get("phase", "1")  # "²" is a digit to isdigit(), not to int()
        fields["phase"] = int(phase) if phase.isascii() and phase.isdecimal() else 0
    elif kind == "eliminated":
        players = post.getlist("players")
        card = post.get("card")
        fields |= {"by": post.get("by") or None, "during": post.get("during") or None,
                   "card": card if card in CARD_NAMES else "altro"}  # fmt: skip
    elif kind == "returns":
        players = [post.get("player", "")]
        fields["via"] = post.get("via") if post.get("via") in VIA_NAMES else "dead_man"
    else:
        messages.error(request, _("Evento sconosciuto."))
        return redirect(game)
    if not [p for p in players if p]:
        messages.error(request, _("Scegli almeno un giocatore."))
        return redirect(game)
    try:
        logged = ribelle_log(game=game, kind=kind, players=players, user=request.user,
                             seen=seen_of(request), **fields)  # fmt: skip
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect(f"{game.get_absolute_url()}#log")
    if logged.repeated:
        messages.info(request, _("Evento n. %(seq)s già registrato: il modulo era stato inviato "
                                 "due volte.") % {"seq": logged.row.seq})  # fmt: skip
        return redirect(f"{game.get_absolute_url()}#event-{logged.row.seq}")
    for ruling in logged.outcome.rulings:
        messages.info(request, ruling_line(ruling.as_dict()))
    return redirect(f"{game.get_absolute_url()}#event-{logged.row.seq}")


@login_required
@require_POST
def ribelle_undo(request: HttpRequest, pk: int) -> HttpResponse:
    nothing = _("Non c'è niente da annullare.")
    return desk_undo(request, pk, setup=SETUP_KEY, nothing=nothing)


def can_reveal(state: TableState, name: str) -> bool:
    """RIB-R9: the Rebel!, in play and hidden, at the end of phase 1 of his own turn."""
    seat = state.by_name[name]
    return (seat.role == REBEL and seat.in_play and not seat.face_up and not state.over
            and state.turn == name and state.phase == 1)  # fmt: skip


def waits_to_reveal(state: TableState, name: str) -> bool:
    """RIB-R9: the hidden Rebel!, in play, before the end of phase 1 of his own turn: his
    page refreshes itself so that the reveal button shows when that moment comes."""
    seat = state.by_name[name]
    return (seat.role == REBEL and seat.in_play and not seat.face_up and not state.over
            and not can_reveal(state, name))  # fmt: skip


def player_page(request: HttpRequest, player: Player) -> HttpResponse:
    """The player's page of a BANG! game (player_home dispatches here)."""
    state, log = table_state(player.game)
    seat = state.by_name[player.name]
    snapshot = state.snapshot()
    reveal = next((item for item in log if item.event.kind == "reveal"
                   and item.event.players[0] == player.name), None)  # fmt: skip
    context = {
        "player": player, "game": player.game, "seat": seat, "snapshot": snapshot,
        "setup_name": SETUP_NAME, "card_text": ROLE_CARDS[player.role],
        "card_name": role_name(player.role),
        "plays_as_name": role_name(seat.role), "goal": GOALS[seat.role],
        "can_reveal": can_reveal(state, player.name), "state": state,
        "waits_to_reveal": waits_to_reveal(state, player.name),
        "refresh_seconds": REVEAL_REFRESH_SECONDS,
        "reveal_post": reveal_post(player.name, reveal.snapshot["sheriff"], "bbcode",
                                   player.game.language) if reveal else None,
        "won": player.name in (state.winners or ()), "is_rebel": seat.role == REBEL,
        "public_roles": [(s.name, role_name(s.role)) for s in state.seats
                         if s.face_up and s.name != player.name],
        "seen": event_mark(log[-1].row if log else None),
    }  # fmt: skip
    return render(request, "games/ribelle/player.html", context)


@never_cache
@require_POST
def player_reveal(request: HttpRequest) -> HttpResponse:
    """RIB-R9: the Rebel! shows his role card from his own page."""
    player = session_player(request, setup=SETUP_KEY)
    if request.POST.get("confirm") != "1":  # irreversible: asked twice
        messages.error(request, _("Per scoprirti spunta «Sì, mi scopro: non si torna indietro»."))
        return redirect("player_home")
    try:
        logged = ribelle_log(game=player.game, kind="reveal", players=[player.name],
                             player=player, seen=seen_of(request))  # fmt: skip
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        if logged.repeated:
            return redirect("player_home")
        messages.success(request, message("rib.reveal", {"player": player.name}))
        messages.info(request, _("Evento n. %(seq)s registrato.") % {"seq": logged.row.seq})
    return redirect("player_home")


def spoiler(request: HttpRequest, game: Game) -> HttpResponse:
    """After the game (games:spoiler dispatches here): the log as a replay file and the
    referee's report, as JSON; the page is the desk itself."""
    if request.GET.get("format") != "json":
        return redirect(game)
    data = replay_file(game)
    response = JsonResponse({"replay": data, "report": run_ribelle(data)},
                            json_dumps_params={"ensure_ascii": False, "indent": 2})  # fmt: skip
    response["Content-Disposition"] = f'attachment; filename="tabula-{game.pk}-bang.json"'
    return response
