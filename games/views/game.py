"""The GM's game pages."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from games.engine import SetupError, rules_for
from games.forms.game import GameCreateForm
from games.forms.input import SubstituteForm, form_error
from games.models import Game, Player
from games.registry import desk_audit, desk_module
from games.selectors.pages import game_for_gm, role_sheet, spoiler
from games.services.creation import first_links_issue, game_create_once
from games.services.game import game_create, player_link_issue, player_substitute
from games.text.audit import audit_sentence
from games.text.keys import audit_details, audit_kind
from games.text.spoiler_posts import FORMATS as POST_FORMATS
from games.text.spoiler_posts import spoiler_post
from games.views.creation import (
    already_dealt,
    creation_data,
    creation_initial,
    dealt,
    sent_token,
)  # fmt: skip
from games.views.http import links_response


@login_required
def game_new(request: HttpRequest) -> HttpResponse:
    """Create a game from a setup and the pasted sign-up list, and deal: first the GM
    sees the list as read (each name with the line it came from, headers and reserves
    left out) and confirms; then the roles are dealt (issue 12 §3)."""
    setup_key = request.GET.get("setup")
    if request.method == "POST":
        if (answer := already_dealt(request)) is not None:
            return answer
        post = creation_data(request)
        form = GameCreateForm(post)
        confirmed = request.POST.get("confirmed") == "1"
        if form.is_valid() and not confirmed and request.POST.get("edit") != "1":
            skip = {"csrfmiddlewaretoken", "confirmed", "edit", "players"}
            hidden = [(k, v) for k, values in post.lists() for v in values
                      if k not in skip]  # fmt: skip
            return render(request, "games/new_confirm.html", {"form": form, "hidden": hidden})
        if confirmed and form.is_valid():
            data = form.cleaned_data

            def deal() -> Game:
                return game_create(
                    gm=request.user, name=data["name"], setup_key=form.setup_key,
                    player_names=data["players"], seed=data["seed"], options=form.options(),
                    language=data["language"],
                    deadlines={k: data[k] for k in ("vote_close_time", "day_close_time",
                                                    "powers_close_time")},
                )  # fmt: skip

            try:
                game = game_create_once(gm=request.user, name=data["name"],
                                        token=sent_token(request), create=deal).game  # fmt: skip
            except ValidationError as exc:
                form.add_error(None, exc)
            else:
                return dealt(request, game, _("Ruoli distribuiti. Copia ora i link privati."))
    else:
        form = GameCreateForm(
            setup_key=setup_key, initial={"setup": setup_key, **creation_initial()}
        )
    template = "games/new.html#options" if request.htmx else "games/new.html"
    return render(request, template, {"form": form})


@login_required
def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The role sheet: roles, start knowledge, private groups; the private links only in
    the response that issues them (_sheet_with_links)."""
    game = game_for_gm(user=request.user, pk=pk)
    if request.GET.get("link") == "nuovi":  # just dealt (games/views/creation.py)
        tokens = first_links_issue(game=game, user=request.user)
        if tokens:
            return _sheet_with_links(request, game, tokens)
        messages.info(request, _(
            "I link privati di questa partita sono già stati mostrati: per un giocatore che "
            "non ha il suo, usa «Nuovo link»."
        ))  # fmt: skip
    desk = desk_module(game)
    if desk is not None:  # an event-log referee game (BANG! con Il Ribelle!, ...)
        return desk.gm_page(request, game)
    return render(request, "games/detail.html", {"sheet": role_sheet(game), "game": game})


def _sheet_with_links(request: HttpRequest, game: Game, tokens: dict[int, str]) -> HttpResponse:
    """The role sheet with links just issued. A link exists in clear only in this response
    (issue 9, #4): never in the session, the cache, the database or a browser cache; only
    its hash is kept. The GM copies it now or issues a new one."""
    desk = desk_module(game)
    if desk is not None:
        return links_response(desk.gm_page(request, game, tokens=tokens))
    links = {pid: request.build_absolute_uri(reverse("player_enter", args=[token]))
             for pid, token in tokens.items()}  # fmt: skip
    sheet = role_sheet(game)
    # every link in one text, "Nome: link" a line, for the GM's private messages
    links_text = "\n".join(f"{row.player.name}: {links[row.player.pk]}"
                            for row in sheet.rows if row.player.pk in links)  # fmt: skip
    context = {"sheet": sheet, "game": game, "links": links, "links_text": links_text}
    return links_response(render(request, "games/detail.html", context))


@login_required
@require_POST
def player_link_rotate(request: HttpRequest, pk: int, player_pk: int) -> HttpResponse:
    """A new private link for one player; the old one stops working at once."""
    game = game_for_gm(user=request.user, pk=pk)
    player = get_object_or_404(Player, pk=player_pk, game=game)
    if player.token_hash and request.POST.get("confirm") != "1":  # issue 31 minor
        messages.error(request, _("Il link di %(name)s non è cambiato: conferma il nuovo link.")
                       % {"name": player.name})  # fmt: skip
        return redirect(f"{game.get_absolute_url()}#player-{player.pk}")
    token = player_link_issue(player=player, user=request.user)
    messages.success(request, _("Nuovo link per %(name)s: il precedente non funziona più.")
                     % {"name": player.name})  # fmt: skip
    return _sheet_with_links(request, game, {player.pk: token})


@login_required
@require_POST
def player_substitute_view(request: HttpRequest, pk: int, player_pk: int) -> HttpResponse:
    """Replace a player: new forum name, new link; the old link stops at once."""
    game = game_for_gm(user=request.user, pk=pk)
    player = get_object_or_404(Player, pk=player_pk, game=game)
    old = player.name
    form = SubstituteForm(request.POST)
    try:
        if not form.is_valid():
            raise ValidationError(form_error(form))
        token = player_substitute(player=player, new_name=form.cleaned_data["name"],
                                  user=request.user)  # fmt: skip
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect(f"{game.get_absolute_url()}#player-{player.pk}")
    messages.success(request, _("%(new)s sostituisce %(old)s: copia il nuovo link.")
                     % {"new": player.name, "old": old})  # fmt: skip
    return _sheet_with_links(request, game, {player.pk: token})


@login_required
def game_audit(request: HttpRequest, pk: int) -> HttpResponse:
    """Every submission, GM entry, override, commit, undo and substitution: who, when, what."""
    game = game_for_gm(user=request.user, pk=pk)
    events = list(game.audit.select_related("user", "player"))
    try:
        rules = rules_for(game)
    except SetupError:  # a referee desk's game
        rules = None
    sentence = desk_audit(game)  # a desk's events read as sentences (issue 30)
    for event in events:
        event.label = audit_kind(event.kind)
        desk_said = sentence(event.kind, event.detail) if sentence else None
        who = event.player.name if event.player else ""
        event.sentence = desk_said or audit_sentence(event.kind, event.detail, rules, who)
        event.details = [] if event.sentence else audit_details(event.detail, rules)
        if desk_said and event.label == event.kind:  # a desk's own kind of event
            event.label = _("registrato al tavolo")
    fix_kinds = ("submission_corrected", "submission_removed", "override_removed")
    context = {"game": game, "events": events, "fix_kinds": fix_kinds}
    return render(request, "games/audit.html", context)


@never_cache  # the whole truth of the game: no cache keeps a copy
@login_required
def game_spoiler(request: HttpRequest, pk: int) -> HttpResponse:
    """After the game: every role, every phase's story and outcome, as a page, as JSON, or
    as the forum post (``format=bbcode|markdown``, ``lang=it|en``)."""
    game = game_for_gm(user=request.user, pk=pk)
    if game.status != game.Status.FINISHED:
        messages.error(request, _("Lo spoiler si può esportare solo a partita finita."))
        return redirect(game)
    desk = desk_module(game)
    if desk is not None:  # an event-log game: its own export, if it has one, else its desk
        export = getattr(desk, "spoiler", None)
        return export(request, game) if export else redirect(game)
    lang = request.GET.get("lang")
    lang = lang if lang in dict(game.Language.choices) else game.language
    fmt = request.GET.get("format")
    if fmt == "json":
        data = spoiler(game)
        response = JsonResponse(data, json_dumps_params={"ensure_ascii": False, "indent": 2})
        response["Content-Disposition"] = f'attachment; filename="tabula-{game.pk}-spoiler.json"'
        return response
    with translation.override(lang):
        post_data = spoiler(game)
        posts = {f: spoiler_post(post_data, f) for f in POST_FORMATS}
    if fmt in POST_FORMATS:
        return HttpResponse(posts[fmt], content_type="text/plain; charset=utf-8")
    data = post_data if lang == translation.get_language() else spoiler(game)
    context = {"game": game, "data": data, "posts": posts, "lang": lang,
               "languages": game.Language.choices}  # fmt: skip
    return render(request, "games/spoiler.html", context)
