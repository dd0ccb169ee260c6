"""Colt Express con l'Automobile del Tempo on the site: the GM's new game, the desk (the
train's positions, the Time Car checker, the round's stages, the posts) and the player's
page (his Bandit, and the secret hiding when he is alone in the Time Car)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from desks.automobile.desk import (
    SETUP_NAME,
    Logged,
    adt_check,
    adt_game_create,
    adt_log,
    answer_text,
    drawn_hide,
    hide_deadline,
    hiding_deadline_enforce,
    hiding_spots,
    table_state,
)  # fmt: skip
from desks.automobile.text import ACTION_NAMES, EVENT_NAMES, FORM_ACTIONS, log_entry, table_lang
from desks.services import event_mark
from desks.views import desk_undo, seen_of
from games.forms.game import CreationTokenForm
from games.forms.validators import validate_name
from games.models import Game, Player
from games.selectors.pages import game_for_gm
from games.views.creation import already_dealt, creation_data, creation_initial, dealt, sent_token
from games.views.player import session_player
from roles.automobile_del_tempo.messages import loot_name, place_name, unit_name
from roles.automobile_del_tempo.messages import render as say
from roles.automobile_del_tempo.posts import FORMATS
from roles.automobile_del_tempo.rounds import EVENTS
from roles.automobile_del_tempo.state import CHARACTERS, LOOT_VALUES, SETUP_KEY
from roles.automobile_del_tempo.table import HIDING, OVER, SCHEMIN, STEALIN, Table

LANGUAGES = (("it", "Italiano"), ("en", "English"))
MARKUP_NAMES = {"bbcode": "BBCode", "markdown": "Markdown"}
HID_KEY = "adt_hid"  # the session that chose a hiding spot: [player pk, its entry's number]
NAME_MAX = 80  # a player's name, as the Player row keeps it
CHARACTER_NAMES = {c: c.capitalize() for c in CHARACTERS}


class AdtCreateForm(CreationTokenForm):
    name = forms.CharField(label=gettext_lazy("Nome della partita"), max_length=120)
    bandits = forms.CharField(
        label=gettext_lazy("Banditi"), widget=forms.Textarea(attrs={"rows": 6}),
        help_text=gettext_lazy("Una riga per giocatore, in ordine: «Nome: personaggio» "
                               "(Belle, Cheyenne, Django, Doc, Ghost, Tuco)."),
    )  # fmt: skip
    cars = forms.IntegerField(label=gettext_lazy("Vagoni dietro la Locomotiva"), min_value=2,
                              max_value=6, required=False,
                              help_text=gettext_lazy("Vuoto: uno per Bandito."))  # fmt: skip
    rounds = forms.IntegerField(label=gettext_lazy("Round"), min_value=1, max_value=10, initial=5)
    horses_and_stagecoach = forms.BooleanField(
        label=gettext_lazy("Con Cavalli e Diligenza (ADT-R1)"), required=False
    )
    roof_step = forms.BooleanField(
        label=gettext_lazy("L'Automobile del Tempo è un passo in più sul tetto (ADT-D1)"),
        required=False, initial=True)  # fmt: skip
    stagecoach_los = forms.BooleanField(
        label=gettext_lazy("Diligenza–Automobile: serve la Linea Visiva (ADT-D3)"), required=False
    )
    language = forms.ChoiceField(label=gettext_lazy("Lingua degli annunci"), choices=LANGUAGES)

    def clean_bandits(self) -> dict[str, str]:
        bandits: dict[str, str] = {}
        for line in self.cleaned_data["bandits"].splitlines():
            if not line.strip():
                continue
            name, _sep, character = line.partition(":")
            name, character = name.strip().lstrip("@"), character.strip().lower()
            if len(name) > NAME_MAX:  # as a Werewolf player's name (issue 27 §5)
                message = _("Nome troppo lungo (massimo %(max)s caratteri): «%(name)s…».")
                raise ValidationError(message % {"max": NAME_MAX, "name": name[:20]})
            if name:
                validate_name(name)
            if not name or character not in CHARACTERS:
                raise ValidationError(_("Riga non valida: «%(line)s» (scrivi «Nome: personaggio»).")
                                      % {"line": line.strip()})  # fmt: skip
            if name.lower() in {n.lower() for n in bandits}:
                raise ValidationError(_("%(name)s compare due volte.") % {"name": name})
            bandits[name] = character
        if not 2 <= len(bandits) <= 6:
            raise ValidationError(_("Da 2 a 6 Banditi."))
        return bandits

    def config(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "cars": data["cars"] or max(2, len(data["bandits"])), "rounds": data["rounds"],
            "horses_and_stagecoach": data["horses_and_stagecoach"],
            "options": {"adt.time_car_counts_as_roof_step": data["roof_step"],
                        "adt.stagecoach_fire_needs_los": data["stagecoach_los"]},
        }  # fmt: skip


@login_required
def adt_new(request: HttpRequest) -> HttpResponse:
    """A new Time Car game: the Bandits and the train, created once (the form's one-time
    token), then the private links once, on the page the creation redirects to."""
    if request.method != "POST":
        form = AdtCreateForm(initial=creation_initial())
    elif (answer := already_dealt(request)) is not None:
        return answer
    else:
        form = AdtCreateForm(creation_data(request))
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            game = adt_game_create(gm=request.user, name=data["name"], bandits=data["bandits"],
                                   config=form.config(), language=data["language"],
                                   creation_token=sent_token(request))  # fmt: skip
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            return dealt(request, game, _("Partita creata. Copia ora i link privati."))
    return render(request, "games/adt/new.html", {"form": form, "setup_name": SETUP_NAME})


def _places(table: Table, lang: str) -> list[tuple[str, str]]:
    train = table.game.train
    units = [*train.units(), *(["stagecoach"] if train.horses_and_stagecoach else [])]
    places = ["time_car", *(f"{u}:{f}" for u in units for f in ("roof", "interior"))]
    return [(p, place_name(p, lang)) for p in places]


def _marshal_places(table: Table, lang: str) -> list[tuple[str, str]]:
    """Where the Marshal may go: the interiors of the Locomotive and the cars, never the
    Time Car (ADT-R18), so the form offers no place that is always refused."""
    return [(f"{u}:interior", place_name(f"{u}:interior", lang)) for u in table.game.train.units()]


def _spots(table: Table, lang: str) -> list[tuple[str, str]]:
    return [(u, unit_name(u, lang)) for u in hiding_spots(table)]


def _posts(table: Table) -> list[dict[str, Any]]:
    """Every public post so far, in BBCode and Markdown, Italian and English."""
    return [
        {"heading": say(post.title, {}, table_lang()),
         "variants": [{"label": f"{lang_label} · {MARKUP_NAMES[fmt]}",
                       "text": post.render(fmt, lang)}
                      for lang, lang_label in LANGUAGES for fmt in FORMATS]}
        for post in table.posts
    ]  # fmt: skip


def gm_page(request: HttpRequest, game: Game, tokens: dict[int, str] | None = None) -> HttpResponse:
    """The desk of a Time Car game (games:detail dispatches here)."""
    hiding_deadline_enforce(game=game)
    table, log = table_state(game)
    lang = table_lang()
    fresh = {str(pk): token for pk, token in (tokens or {}).items()}  # just issued (issue 9, #4)
    rows = []
    for player in game.players.order_by("seat"):
        token = fresh.get(str(player.pk))
        place = table.game.public_positions().get(player.name)
        rows.append({
            "player": player, "character": CHARACTER_NAMES.get(player.role, player.role),
            "place": place_name(place, lang) if place else _("nascosto"),
            "hidden": place is None,
            "link": request.build_absolute_uri(reverse("player_enter", args=[token]))
            if token else None,
        })  # fmt: skip
    context = {
        "game": game, "table": table, "rows": rows, "setup_name": SETUP_NAME,
        "entries": [log_entry(item) for item in log],
        "posts": _posts(table), "places": _places(table, lang),
        "bandits": [p.name for p in game.players.order_by("seat")],
        "actions": [(k, ACTION_NAMES[k]) for k in FORM_ACTIONS],
        "events": list(EVENT_NAMES.items()),
        "loot": [(token, loot_name(token, lang)) for token in LOOT_VALUES],
        "marshal_place": place_name(str(table.game.marshal), lang),
        "marshal_places": _marshal_places(table, lang), "marshal_at": str(table.game.marshal),
        "time_car": table.game.in_time_car(),
        "time_car_loot": [loot_name(token, lang) for token in table.game.time_car_loot],
        "stage": table.stage, "SCHEMIN": SCHEMIN, "STEALIN": STEALIN, "HIDING": HIDING,
        "OVER": OVER, "hide_by": hide_deadline(log), "round": table.game.round,
        "next_round": table.next_round, "end": table.end,
        "ask": (ask := request.session.pop(f"adt_answer_{game.pk}", None)),
        "asked": (ask or {}).get("values") or _chosen(request, game) or _next_action(game, log),
        "card_choices": _card_choices(game, log),
        "seen": event_mark(log[-1].row if log else None), "last_seq": log[-1].row.seq if log else 0,
        "now": timezone.localtime().strftime("%Y-%m-%dT%H:%M"),
    }  # fmt: skip
    return render(request, "games/adt/desk.html", context)


def _next_action(game: Game, log: list[Logged]) -> dict[str, Any]:
    """What the action form offers after an action applied: the next Bandit in seating
    order (the next player's card); nothing before the round's first action."""
    last = log[-1] if log else None
    if last is None or last.row.kind != "action" or not last.data.get("actor"):
        return {}
    names = [p.name for p in game.players.order_by("seat")]
    if last.data["actor"] not in names:
        return {}
    return {"actor": names[(names.index(last.data["actor"]) + 1) % len(names)]}


def _card_choices(game: Game, log: list[Logged]) -> list[str]:
    """Whose card comes next, one click each: the next player's (the usual turn) and the
    same Bandit's again (his next card, as when a round plays two in a row)."""
    last = log[-1] if log else None
    if last is None or last.row.kind != "action" or not last.data.get("actor"):
        return []
    following = _next_action(game, log).get("actor")
    return [name for name in (following, last.data["actor"]) if name]


def _chosen(request: HttpRequest, game: Game) -> dict[str, Any]:
    """The Bandit the GM picked with one of those links (``?bandito=``), if he is one."""
    name = request.GET.get("bandito", "")
    return {"actor": name} if game.players.filter(name=name).exists() else {}


def _action_data(post: Any) -> dict[str, Any]:
    return {
        "kind": post.get("action", ""), "actor": post.get("actor") or None,
        "to": post.get("to") or None, "target": post.get("target") or None,
        "loot": post.get("loot") or None,
    }  # fmt: skip


def _deadline(text: str) -> str | None:
    """The hiding deadline typed by the GM, in the site's time zone (adt_log refuses a
    deadline gone by, or not a date and time); a year no game is played in (year 1, 9999
    with an offset) would break every page that shows it (issue 27 §5)."""
    if not text:
        return None
    try:
        moment = dt.datetime.fromisoformat(text)
    except ValueError as exc:
        raise ValidationError(_("Scadenza non valida: scrivi giorno e ora.")) from exc
    if not 2000 <= moment.year <= 2999:  # before any time-zone arithmetic
        raise ValidationError(_("Data e ora non valide: scegli una data tra il 2000 e il 2999."))
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment)
    return moment.isoformat()


@login_required
@require_POST
def adt_event(request: HttpRequest, pk: int) -> HttpResponse:
    """The GM checks or applies an action, opens the Stealin' phase, ends the round."""
    game = game_for_gm(user=request.user, pk=pk, setup=SETUP_KEY)
    post = request.POST
    kind = post.get("kind", "")
    seen = seen_of(request)
    logged = None
    try:
        if kind == "check":
            answer = adt_check(game, _action_data(post))
            if answer.rule is None:  # the base game's: the site does not judge it
                verdict = _("Non giudicata")
            else:
                verdict = _("Sì") if answer.allowed else _("No")
            text = f"{verdict} — {answer_text(answer, post.get('actor', ''))}"
            # the answer, and the form as it was asked: «Applica» applies the same values
            request.session[f"adt_answer_{game.pk}"] = {
                "allowed": answer.allowed, "text": text, "values": _action_data(post),
            }  # fmt: skip
            return redirect(f"{game.get_absolute_url()}#checker")
        if kind == "action":
            logged = adt_log(game=game, kind="action", data=_action_data(post), user=request.user,
                             seen=seen)  # fmt: skip
            if not logged.repeated:
                messages.success(request, answer_text(logged.result, post.get("actor", "")))
        elif kind == "stealin":
            logged = adt_log(game=game, kind="stealin", data={}, user=request.user, seen=seen)
        elif kind == "round_end":
            event = post.get("event") if post.get("event") in EVENTS else None
            data = {"event": event, "hide_by": _deadline(post.get("hide_by", ""))}
            logged = adt_log(game=game, kind="round_end", data=data, user=request.user,
                             seen=seen)  # fmt: skip
        else:
            messages.error(request, _("Evento sconosciuto."))
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        if kind == "action" and post.get("action") != "marshal":  # the form stays as sent
            request.session[f"adt_answer_{game.pk}"] = {"values": _action_data(post)}
    if logged is not None and logged.repeated:
        messages.info(request, _("Evento n. %(seq)s già registrato: il modulo era stato inviato "
                                 "due volte.") % {"seq": logged.row.seq})  # fmt: skip
    return redirect(f"{game.get_absolute_url()}#train")


@login_required
@require_POST
def adt_undo(request: HttpRequest, pk: int) -> HttpResponse:
    nothing = _("Non c'è niente da annullare.")
    return desk_undo(request, pk, setup=SETUP_KEY, nothing=nothing)


def _last_hide(log: list[Logged]) -> int | None:
    return next((e.row.seq for e in reversed(log) if e.row.kind == "hide"), None)


def player_page(request: HttpRequest, player: Player) -> HttpResponse:
    """The player's page of a Time Car game (player_home dispatches here)."""
    hiding_deadline_enforce(game=player.game)
    table, log = table_state(player.game)
    lang = table_lang()
    bandit = table.game.bandits[player.name]
    hidden = bool(bandit.hidden_under)
    # ADT-R15: the spot shows only in the browser that chose it, never to a rotated link's
    # holder (the GM who rotated it included: issue 27 §2)
    chose_here = hidden and request.session.get(HID_KEY) == [player.pk, _last_hide(log)]
    context = {
        "player": player, "game": player.game, "setup_name": SETUP_NAME,
        "character": CHARACTER_NAMES.get(player.role, player.role),
        "place": place_name(str(bandit.place), lang) if bandit.place else None,
        "hidden_under": unit_name(bandit.hidden_under, lang) if chose_here else None,
        "hidden": hidden,
        "must_hide": table.stage == HIDING and table.awaiting == player.name,
        "spots": _spots(table, lang), "hide_by": hide_deadline(log), "round": table.game.round,
        "over": table.stage == OVER,
        "end": table.end, "seen": event_mark(log[-1].row if log else None),
        "drawn": bool((drawn := drawn_hide(log)) and drawn.row.player_id == player.pk),
    }  # fmt: skip
    return render(request, "games/adt/player.html", context)


@never_cache
@require_POST
def player_hide(request: HttpRequest) -> HttpResponse:
    """ADT-R14: the Bandit alone in the Time Car chooses, from his own page, where he hides;
    the choice is sealed until the reveal (ADT-R15, R16)."""
    player = session_player(request, setup=SETUP_KEY)
    try:
        logged = adt_log(game=player.game, kind="hide", player=player, seen=seen_of(request),
                         data={"under": request.POST.get("under", "")})  # fmt: skip
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        request.session[HID_KEY] = [player.pk, logged.row.seq]
        if logged.repeated:
            return redirect("player_home")
        messages.success(request, _("Ti sei nascosto. Nessuno sa dove fino alla fase di Furto."))
    return redirect("player_home")
