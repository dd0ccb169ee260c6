"""Issue 27 §6: when the site fails (a database outage), a player reads, in Italian, that
what he sent was not saved: the 500 page says so, and the page's script says so beside a
form sent by htmx (htmx swaps nothing on a server error)."""

from __future__ import annotations

import pytest
from django.db import DatabaseError
from django.test import Client
from django.urls import reverse

from tests.conftest import ROOT


@pytest.mark.django_db
def test_a_server_error_says_not_saved_in_italian(monkeypatch):
    def outage(*args, **kwargs):
        raise DatabaseError("the database is down")

    monkeypatch.setattr("games.views.player.Player.objects.select_related", outage)
    client = Client(raise_request_exception=False)
    session = client.session
    session["player_id"] = 1
    session.save()
    response = client.post(reverse("player_vote"), {"phase": "1", "target": "Ada"})
    assert response.status_code == 500
    page = response.content.decode()
    assert "Non salvato, riprova" in page
    assert "non è stato salvato" in page


def test_the_pages_script_says_an_htmx_failure_was_not_saved():
    script = (ROOT / "static" / "js" / "site.js").read_text(encoding="utf-8")
    assert 'addEventListener("htmx:responseError"' in script
    assert 'addEventListener("htmx:sendError"' in script
    assert "Non salvato, riprova" in script
