"""What the referee desks' views share (BANG! con Il Ribelle!, the Time Car): every desk
form carries the mark of the last event its page showed (``seen``)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from desks.services import table_event_undo
from games.selectors.pages import game_for_gm

NOT_SEEN = "-"  # a form without ``seen`` saw nothing: it is refused as stale


def seen_of(request: HttpRequest) -> str:
    """The mark of the last event the submitted form's page showed (``seen``, a hidden
    field: desks.services.event_mark)."""
    text = request.POST.get("seen", "")
    return text if 0 < len(text) < 40 else NOT_SEEN


def desk_undo(request: HttpRequest, pk: int, *, setup: str, nothing: str) -> HttpResponse:
    """Take back the event the GM's undo button named, if it is still the last; the one
    that ended the game only with «Sì, annulla la fine della partita» ticked. ``nothing``
    says why there is nothing to undo (the setup's own reasons)."""
    game = game_for_gm(user=request.user, pk=pk, setup=setup)
    was_over = game.status == game.Status.FINISHED
    try:
        removed = table_event_undo(
            game=game, user=request.user, seen=seen_of(request),
            end_confirmed=request.POST.get("end_confirmed") == "1",
        )  # fmt: skip
    except ValidationError as exc:
        if exc.code == "gone":
            messages.info(request, " ".join(exc.messages))
        else:
            messages.error(request, " ".join(exc.messages))
        return redirect(f"{game.get_absolute_url()}#log")
    if removed is None:
        messages.error(request, nothing)
    elif was_over:
        messages.success(request, _(
            "Evento n. %(seq)s annullato: la partita riprende. Se avevi già pubblicato "
            "l'annuncio di fine partita, ritiralo dal topic."
        ) % {"seq": removed.seq})  # fmt: skip
    else:
        messages.success(request, _("Evento n. %(seq)s annullato.") % {"seq": removed.seq})
    return redirect(f"{game.get_absolute_url()}#log")
