"""What a desk's pages put in their forms, for tests that post as a browser would."""

from __future__ import annotations

import re
from typing import Any

from django.http import HttpResponse
from django.test import Client

from desks.services import last_event_mark
from games.models import Game

# What each desk's new-game page posts, filled in (its one-time token added by ``deal``).
DESK_GAMES = {
    "desks:ribelle_new": {"name": "Saloon", "players": "Sam\nVic\nOlga\nOtto\nRina\nReb",
                          "seed": "7", "language": "it", "event_deck": "none"},
    "desks:adt_new": {"name": "Treno", "bandits": "Ada: Django\nBea: belle\nCid: Tuco",
                      "rounds": "3", "language": "it"},
}  # fmt: skip


def seen(game: Game, **data: Any) -> dict[str, Any]:
    """A desk form as the page shows it now: its fields and the last event it saw."""
    return {**data, "seen": last_event_mark(game)}


def creation_token(client: Client, url: str) -> str:
    """The one-time token a new-game page gives its form."""
    page = client.get(url).content.decode()
    return re.search(r'name="creation_token" value="([^"]+)"', page)[1]


def new_game(client: Client, url: str, **data: Any) -> dict[str, Any]:
    """A new-game form, filled in, with the token of a page just opened."""
    return {**data, "creation_token": creation_token(client, url)}


def deal(client: Client, url: str, data: dict[str, Any]) -> HttpResponse:
    """Send a new-game form as a browser does (with the token of a page just opened) and
    follow the deal's redirect to the page that shows the private links once; a refused
    form is its own answer."""
    sent = client.post(url, {**data, "creation_token": creation_token(client, url)})
    return client.get(sent["Location"]) if sent.status_code == 302 else sent
