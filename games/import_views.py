"""The GM's thread tools on the phase page (issue 12): "Importa dal topic" (paste,
preview, settle the doubtful lines, save), the thread settings, and "Conta adesso"."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from games.board import phase_board
from games.counts import count_now
from games.phases import current_phase
from games.selectors import game_for_gm
from games.topic_votes import (
    ALREADY,
    ASK,
    CHANGED,
    NEW,
    NOTHING,
    OUTSIDE,
    REFUSED,
    SAME,
    WITHDRAWN,
    topic_import_preview,
    topic_import_save,
    topic_settings_update,
)

STATUS = {
    NEW: gettext_lazy("nuovo voto"), CHANGED: gettext_lazy("cambio di voto"),
    WITHDRAWN: gettext_lazy("ritiro"), SAME: gettext_lazy("uguale al voto in corso"),
    NOTHING: gettext_lazy("nessun voto da ritirare"), ALREADY: gettext_lazy("già importato"),
    OUTSIDE: gettext_lazy("fuori dalla fase"), REFUSED: gettext_lazy("rifiutato dalle regole"),
    ASK: gettext_lazy("da confermare"),
}  # fmt: skip
TEXT_LIMIT = 2_000_000  # a 40-page thread copied as text is about 1 MB


def _paste(request: HttpRequest) -> tuple[str, str, dict[str, str]]:
    """The pasted text, or the saved page (.html) when one is uploaded."""
    page = request.FILES.get("page")
    if page is not None:
        text = page.read(TEXT_LIMIT).decode("utf-8", errors="replace")
    else:
        text = request.POST.get("text", "")[:TEXT_LIMIT]
    decisions = {k: v for k, v in request.POST.items() if k[:1] in ("v", "t") and len(k) == 13}
    return text, request.POST.get("fmt", ""), decisions


@login_required
@require_POST
def topic_import(request: HttpRequest, pk: int) -> HttpResponse:
    """Preview a pasted page of the thread (``action=preview``) or save it."""
    game = game_for_gm(user=request.user, pk=pk)
    phase = current_phase(game)
    if phase is None or phase.is_night:
        messages.error(request, _("Si importano i voti solo durante un giorno."))
        return redirect("games:phase", pk=pk)
    text, fmt, decisions = _paste(request)
    if request.POST.get("action") == "save":
        try:
            saved = topic_import_save(phase=phase, text=text, fmt=fmt, decisions=decisions,
                                      user=request.user)  # fmt: skip
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
            return redirect("games:phase", pk=pk)
        stored = len(saved.to_store)
        messages.success(request, _("Dal topic: %(n)d voti salvati.") % {"n": stored})
        return redirect("games:phase", pk=pk)
    preview = topic_import_preview(phase=phase, text=text, fmt=fmt, decisions=decisions,
                                   gm_username=request.user.get_username())  # fmt: skip
    for row in preview.rows:
        row.label = STATUS[row.status]
    context = {"game": game, "phase": phase, "preview": preview, "text": text, "fmt": fmt}
    return render(request, "games/topic_import.html", context)


@login_required
@require_POST
def topic_settings_save(request: HttpRequest, pk: int) -> HttpResponse:
    game = game_for_gm(user=request.user, pk=pk)
    try:
        topic_settings_update(
            game=game, user=request.user,
            votes_from_topic=request.POST.get("votes_from_topic") == "1",
            vote_lines=request.POST.get("vote_lines", "").splitlines(),
            withdraw_lines=request.POST.get("withdraw_lines", "").splitlines(),
            aliases=request.POST.get("aliases", ""),
            gm_names=request.POST.get("gm_names", "").split(","),
        )  # fmt: skip
        messages.success(request, _("Impostazioni del topic salvate."))
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    return redirect("games:phase", pk=pk)


@login_required
def vote_count_now(request: HttpRequest, pk: int) -> HttpResponse:
    """The day's count at this moment, ready to paste (a partial for htmx)."""
    game = game_for_gm(user=request.user, pk=pk)
    phase = current_phase(game)
    texts = None
    if phase is not None and not phase.is_night:
        texts = count_now(game, phase_board(game, phase), timezone.now())
    template = "games/count_now.html#count" if request.htmx else "games/count_now.html"
    return render(request, template, {"game": game, "phase": phase, "texts": texts})
