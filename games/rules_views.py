"""The "Regolamento" page of each setup: the project's own rules reference, public like
the rules posted on the forum."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from games.rulebook import rulebook


def rulebook_page(request: HttpRequest, setup: str) -> HttpResponse:
    book = rulebook(setup)
    if book is None:
        raise Http404
    return render(request, "games/rulebook.html", {"book": book})
