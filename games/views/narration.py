"""The GM saves his own text around a phase's forum post."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.models import Phase
from games.selectors.pages import game_for_gm
from games.services.narration import NarrationForm, phase_narration_set


@login_required
@require_POST
def phase_narration(request: HttpRequest, pk: int, phase_pk: int) -> HttpResponse:
    game = game_for_gm(user=request.user, pk=pk, werewolf=True)
    phase = get_object_or_404(Phase, game=game, pk=phase_pk, status=Phase.Status.COMMITTED)
    form = NarrationForm(request.POST)
    if form.is_valid():
        phase_narration_set(
            phase=phase, before=form.cleaned_data["post_before"],
            after=form.cleaned_data["post_after"], user=request.user,
        )  # fmt: skip
        messages.success(request, _("Testo salvato con l'annuncio."))
    else:
        messages.error(request, _("Testo troppo lungo: al massimo 20000 caratteri per parte."))
    return redirect(reverse("games:posts", args=[game.pk]) + f"#phase-{phase.pk}")
