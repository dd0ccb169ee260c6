"""Issue 12 §5: every private link in one text, "Nome: link" a line, with a copy button,
after the deal and after a rotation; shown once (issue 9, #4: a link exists in clear only
in the response that shows it, never cached)."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from tests.desks.forms import deal
from tests.factories import WWW_NAMES, new_game_data

pytestmark = pytest.mark.django_db


def links_text(page: str) -> str:
    match = re.search(r'<textarea id="all-links"[^>]*>(.*?)</textarea>', page, re.S)
    return html.unescape(match.group(1)) if match else ""


def test_the_deal_gives_every_link_in_one_text_once(client, gm_user):
    client.force_login(gm_user)
    response = deal(client, reverse("games:new"), new_game_data())
    assert "no-store" in response["Cache-Control"]
    page = response.content.decode()
    lines = links_text(page).splitlines()
    game = gm_user.games.get()
    by_seat = list(game.players.order_by("seat"))
    assert [line.split(": ", 1)[0] for line in lines] == [p.name for p in by_seat] == WWW_NAMES
    for line in lines:
        _name, url = line.split(": ", 1)
        assert re.fullmatch(r"http://testserver/p/[A-Za-z0-9_\-]{40,}/", url)
        assert f'value="{url}"' in page  # the same link as in its player's row
    assert 'data-copy-from="all-links"' in page
    again = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert links_text(again) == ""
    assert 'id="all-links"' not in again


def test_a_rotation_gives_its_one_link_as_a_line(client, gm_user):
    client.force_login(gm_user)
    deal(client, reverse("games:new"), new_game_data())
    game = gm_user.games.get()
    player = game.players.order_by("seat")[3]
    response = client.post(reverse("games:rotate", args=[game.pk, player.pk]), {"confirm": "1"})
    assert "no-store" in response["Cache-Control"]
    (line,) = links_text(response.content.decode()).splitlines()
    assert line.startswith(f"{player.name}: http://testserver/p/")
