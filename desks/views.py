"""What the referee desks' views share (BANG! con Il Ribelle!, the Time Car)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from desks.services import table_event_undo
from games.selectors.pages import game_for_gm


def desk_undo(request: HttpRequest, pk: int, *, setup: str, nothing: str) -> HttpResponse:
    """Take back the desk's last event that may be taken back; ``nothing`` says why there
    is none (the setup's own reasons)."""
    game = game_for_gm(user=request.user, pk=pk, setup=setup)
    removed = table_event_undo(game=game, user=request.user)
    if removed is None:
        messages.error(request, nothing)
    else:
        messages.success(request, _("Evento n. %(seq)s annullato.") % {"seq": removed.seq})
    return redirect(f"{game.get_absolute_url()}#log")
