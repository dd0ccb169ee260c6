"""The followed thread on the GM's phase page (issue 32, "Segui il topic"): follow or
pause, the panel (polled by htmx; a plain page without JavaScript), and the GM's
decisions on the doubtful posts."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.forms.input import form_error
from games.forum import PARSERS
from games.selectors.pages import game_for_gm
from games.services.follow import follow_pause, follow_settle, follow_start
from games.services.follow_desk import panel_context
from games.services.follow_http import FORMS
from games.services.phases import current_phase
from games.views.topic import TopicImportForm


class FollowForm(forms.Form):
    url = forms.URLField(required=False, max_length=500, assume_scheme="https")
    form = forms.ChoiceField(choices=[(f, f) for f in FORMS], required=False)
    fmt = forms.ChoiceField(choices=[("", ""), *((k, k) for k in PARSERS)], required=False)
    auto_commit = forms.BooleanField(required=False)
    action = forms.ChoiceField(choices=[("start", ""), ("pause", "")])


@login_required
@require_POST
def follow_save(request: HttpRequest, pk: int) -> HttpResponse:
    """Follow the thread at the given address from now on, or pause."""
    game = game_for_gm(user=request.user, pk=pk, werewolf=True)
    form = FollowForm(request.POST)
    if not form.is_valid():
        messages.error(request, form_error(form))
        return redirect("games:phase", pk=pk)
    data = form.cleaned_data
    if data["action"] == "pause":
        follow_pause(game=game, user=request.user)
        messages.success(request, _("Lettura del topic in pausa."))
        return redirect("games:phase", pk=pk)
    if not data["url"]:
        messages.error(request, _("Scrivi l'indirizzo del topic."))
        return redirect("games:phase", pk=pk)
    try:
        follow_start(game=game, user=request.user, url=data["url"], form=data["form"] or "page",
                     fmt=data["fmt"], auto_commit=data["auto_commit"])  # fmt: skip
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect("games:phase", pk=pk)
    messages.success(request, _("Il sito segue il topic: la prima lettura entro un minuto."))
    return redirect("games:phase", pk=pk)


@login_required
def follow_panel(request: HttpRequest, pk: int) -> HttpResponse:
    """The panel (a partial for htmx's polling; a page of its own without JavaScript)."""
    game = game_for_gm(user=request.user, pk=pk, werewolf=True)
    phase = current_phase(game)
    context = panel_context(game, phase)
    template = "games/_follow_live.html" if request.htmx else "games/follow.html"
    return render(request, template, context)


@login_required
@require_POST
def follow_decide(request: HttpRequest, pk: int) -> HttpResponse:
    """Store the GM's decisions on the followed thread's doubtful posts (and resolve)."""
    game = game_for_gm(user=request.user, pk=pk, werewolf=True)
    phase = current_phase(game)
    form = TopicImportForm(request.POST)
    if phase is None or phase.is_night:
        messages.error(request, _("Nessun giorno da contare."))
        return redirect("games:phase", pk=pk)
    if not form.is_valid():
        messages.error(request, form_error(form))
        return redirect("games:phase", pk=pk)
    resolve = form.cleaned_data["action"] == "resolve"
    try:
        saved = follow_settle(phase=phase, decisions=form.cleaned_data["decisions"],
                              user=request.user, resolve=resolve)  # fmt: skip
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect("games:phase", pk=pk)
    messages.success(request, _("Dal topic: %(n)d voti salvati.") % {"n": len(saved.to_store)})
    return redirect("games:phase", pk=pk)
