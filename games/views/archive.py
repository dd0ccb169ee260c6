"""Archive, restore and delete a game (issue 31 major 3), for the GM who owns it (anyone
else gets a 404). Each change is a POST with its CSRF token, after a confirmation page
that works without JavaScript; deleting asks for the game's name typed again."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.selectors.pages import game_for_gm
from games.services.archive import game_archive, game_deletable, game_delete, game_restore


@login_required
def game_archive_view(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: what archiving does, and the button; POST: archive, back to the dashboard."""
    game = game_for_gm(user=request.user, pk=pk)
    if request.method == "POST":
        game_archive(game=game, user=request.user)
        messages.success(
            request,
            _(
                "«%(name)s» è archiviata: la trovi in fondo, tra le "
                "archiviate, e puoi ripristinarla."
            )
            % {"name": game.name},
        )
        return redirect("dashboard")
    return render(request, "games/archive_confirm.html", {"game": game})


@require_POST
@login_required
def game_restore_view(request: HttpRequest, pk: int) -> HttpResponse:
    game = game_for_gm(user=request.user, pk=pk)
    game_restore(game=game, user=request.user)
    messages.success(request, _("«%(name)s» è di nuovo tra le tue partite.") % {"name": game.name})
    return redirect("dashboard")


@login_required
def game_delete_view(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: what deleting means and the name to type; POST: delete when the name matches
    and the game may go (nothing played in it yet, or archived)."""
    game = game_for_gm(user=request.user, pk=pk)
    error = ""
    if request.method == "POST":
        try:
            name = game_delete(game=game, user=request.user,
                               typed_name=request.POST.get("name", "")[:200])  # fmt: skip
        except ValidationError as exc:
            error = " ".join(exc.messages)
        else:
            messages.success(request, _("«%(name)s» è stata eliminata.") % {"name": name})
            return redirect("dashboard")
    context = {"game": game, "deletable": game_deletable(game), "error": error}
    return render(request, "games/delete_confirm.html", context, status=400 if error else 200)
