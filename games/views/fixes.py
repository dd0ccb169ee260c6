"""The GM's and the player's ways to fix a mistake (issue 12 §3): correct or remove a
submission, remove a correction, confirm an undo after seeing what it affects, rename a
player, withdraw a saved night action. Every page works without JavaScript."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.engine import rebuild
from games.forms.input import (
    MAX_ID,
    OverrideRemoveForm,
    RenameForm,
    SubmissionFixForm,
    UndoForm,
    WithdrawForm,
    form_error,
)
from games.models import Phase, Player, Submission
from games.selectors.pages import game_for_gm
from games.services.corrections import (
    action_withdraw,
    override_remove,
    submission_correct,
    submission_remove,
)
from games.services.game import player_rename
from games.services.kept import check_undo_target, undo_effects
from games.services.submissions import open_phases
from games.text.words import phase_name
from games.views.player import _after_post, _flooding, session_player


def _valid(form: object) -> dict:
    if not form.is_valid():  # type: ignore[attr-defined]
        raise ValidationError(form_error(form))  # type: ignore[arg-type]
    return form.cleaned_data  # type: ignore[attr-defined]


@login_required
def submission_edit(request: HttpRequest, pk: int, sub_pk: int) -> HttpResponse:
    """One submission of a phase still to resolve: correct it or remove it, with a reason
    (the old row stays, struck, in the history and the audit log)."""
    game = game_for_gm(user=request.user, pk=pk, werewolf=True)
    if not 1 <= sub_pk <= MAX_ID:
        return redirect("games:phase", pk=pk)
    sub = get_object_or_404(
        Submission.every.select_related("phase", "player", "target"), pk=sub_pk, phase__game=game
    )
    form = SubmissionFixForm(game=game)
    if request.method == "POST":
        form = SubmissionFixForm(request.POST, game=game)
        try:
            data = _valid(form)
            if data["action"] == "remove":
                submission_remove(submission=sub, user=request.user, reason=data["reason"])
                done = _("Invio di %(name)s rimosso: resta barrato nello storico.")
            else:
                submission_correct(submission=sub, user=request.user, reason=data["reason"],
                                   target=data["target"], at=data["at"], during=data["during"],
                                   fake_role=data["fake_role"])  # fmt: skip
                done = _("Invio di %(name)s corretto: il precedente resta barrato nello storico.")
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
        else:
            messages.success(request, done % {"name": sub.player.name})
            return redirect(reverse("games:phase", args=[pk]) + "#submissions")
    built = rebuild(game)
    living = [p for p in built.players if built.state.by_name[p.name].alive]
    editable = sub.superseded_at is None and sub.phase.status != Phase.Status.COMMITTED
    context = {"game": game, "sub": sub, "form": form, "living": living, "editable": editable}
    return render(request, "games/submission_edit.html", context)


@login_required
@require_POST
def gm_override_remove(request: HttpRequest, pk: int) -> HttpResponse:
    """Take back one of the GM's corrections of the phase, with a reason."""
    game = game_for_gm(user=request.user, pk=pk, werewolf=True)
    try:
        data = _valid(OverrideRemoveForm(request.POST))
        phase = game.phases.filter(pk=data["phase"]).first()
        if phase is None:
            raise ValidationError(_("La pagina era vecchia: ricaricala e riprova."))
        override_remove(phase=phase, user=request.user, index=data["index"], seat=data["seat"],
                        kind=data["kind"], reason=data["reason"])  # fmt: skip
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, _("Correzione tolta: l'anteprima non la applica più."))
    return redirect(reverse("games:phase", args=[pk]) + "#preview")


@login_required
def undo_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    """Before an undo: every later submission it affects, and the button that does it."""
    game = game_for_gm(user=request.user, pk=pk, werewolf=True)
    form = UndoForm(request.GET)
    try:
        data = _valid(form)
        effects = check_undo_target(undo_effects(game), data["phase"])
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect("games:phase", pk=pk)
    context = {"game": game, "effects": effects, "players": data["players"]}
    return render(request, "games/undo_confirm.html", context)


def undo_confirm_url(pk: int, phase_id: str, players: bool) -> str:
    query = urlencode({"phase": phase_id, "players": "1" if players else ""})
    return reverse("games:gm_undo_confirm", args=[pk]) + "?" + query


@login_required
@require_POST
def player_rename_view(request: HttpRequest, pk: int, player_pk: int) -> HttpResponse:
    """Fix a typo in a player's name: same seat, same link (not a substitution)."""
    game = game_for_gm(user=request.user, pk=pk)
    player = get_object_or_404(Player, pk=player_pk, game=game)
    try:
        old = player_rename(player=player, new_name=_valid(RenameForm(request.POST))["name"],
                            user=request.user)  # fmt: skip
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, _("%(old)s ora si chiama %(new)s.")
                         % {"old": old, "new": player.name})  # fmt: skip
    return redirect(f"{game.get_absolute_url()}#player-{player.pk}")


@require_POST
def player_withdraw(request: HttpRequest) -> HttpResponse:
    """The player takes back his saved choice of a power (its form's slot and phase)."""
    player = session_player(request, werewolf=True)
    form = WithdrawForm(request.POST)
    saved, error = "", _flooding(request) or ("" if form.is_valid() else form_error(form))
    if error:
        return _after_post(request, player, saved, error)
    data = form.cleaned_data
    try:
        phase = next((p for p in open_phases(player.game) if p.pk == data["phase"]), None)
        if phase is None:
            raise ValidationError(_("Questa fase è chiusa: non si accettano più invii."))
        action_withdraw(phase=phase, player=player, slot=data["slot"],
                        received_at=getattr(request, "received_at", None))  # fmt: skip
        saved = _("Scelta ritirata per %(phase)s: non userai il potere, se non scegli "
                  "di nuovo.") % {"phase": phase_name(phase.label)}  # fmt: skip
    except ValidationError as exc:
        error = " ".join(exc.messages)
    return _after_post(request, player, saved, error)
