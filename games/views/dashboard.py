"""The GM's dashboard: the games this GM runs, and those he archived; the notice of a
phase the clock resolved by itself, put away when the GM has seen it."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from games.selectors.notices import clock_notices
from games.selectors.pages import game_for_gm, games_for_gm
from games.services.deadlines import clock_notice_dismiss


@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    """The GM's desk: the games this GM runs, each with the notice of the phase the clock
    resolved, if any (issue 31 major 4); the archived ones below, to restore."""
    games = list(games_for_gm(user=request.user))
    notices = clock_notices(games)
    for game in games:
        game.clock_notice = notices.get(game.pk)
    return render(request, "gm/dashboard.html", {
        "games": games,
        "archived": games_for_gm(user=request.user, archived=True),
    })  # fmt: skip


@require_POST
@login_required
def clock_notice_seen(request: HttpRequest, pk: int) -> HttpResponse:
    """The GM has read the notice: it goes, from the dashboard and the phase page."""
    game = game_for_gm(user=request.user, pk=pk)
    event = request.POST.get("event", "")
    if event.isdigit() and len(event) < 19:
        clock_notice_dismiss(game=game, user=request.user, event_id=int(event))
    if request.POST.get("back") == "phase":
        return redirect("games:phase", pk=game.pk)
    return redirect("dashboard")
