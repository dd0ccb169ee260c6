"""The GM's dashboard: the games this GM runs, and those he archived."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.selectors.pages import games_for_gm


@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    """The GM's desk: the games this GM runs; the archived ones below, to restore."""
    return render(request, "gm/dashboard.html", {
        "games": games_for_gm(user=request.user),
        "archived": games_for_gm(user=request.user, archived=True),
    })  # fmt: skip
