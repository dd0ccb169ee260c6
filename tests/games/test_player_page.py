"""The players' private links and pages (no account; phone first)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.services.game import TOKEN_BYTES, player_link_issue
from games.views.player import GUESS_RATE
from tests.factories import make_game

pytestmark = pytest.mark.django_db


def enter(client, player):
    token = player_link_issue(player=player)
    return token, client.get(reverse("player_enter", args=[token]))


def test_link_is_exchanged_for_a_session_and_a_clean_url(client, gm_user):
    game = make_game(gm_user)
    player = game.players.get(role="maresciallo")
    token, response = enter(client, player)
    assert len(token) >= 43  # 256 bits, base64url
    assert TOKEN_BYTES * 8 >= 256
    assert response.status_code == 302
    assert response.url == reverse("player_home")
    assert token not in response.url
    assert response["Referrer-Policy"] == "no-referrer"
    page = client.get(response.url)
    html = page.content.decode()
    assert "Sei: Maresciallo" in html
    assert "scopri se è Americano oppure Indiano" in html  # the card's Italian text
    assert token not in html
    player.refresh_from_db()
    assert player.token_hash != token  # only the hash is stored


def test_the_deputy_reads_the_cowboy_card(client, gm_user):
    """WWW-R49, WWW-R52: he is told he is a Cowboy."""
    game = make_game(gm_user)
    _, response = enter(client, game.players.get(role="vicesceriffo"))
    html = client.get(response.url).content.decode()
    assert "Sei: Cowboy" in html
    assert "Vicesceriffo" not in html


def test_start_knowledge_and_private_groups_are_shown(client, gm_user):
    """WWW-R76: an Indian knows the others and has the Indians' chat."""
    game = make_game(gm_user)
    indian = game.players.get(role="indiano")
    others = game.players.filter(role__in=["capo_indiano", "sciamano"]).order_by("seat")
    _, response = enter(client, indian)
    html = client.get(response.url).content.decode()
    assert "Conosci: " + ", ".join(o.name for o in others) + "." in html
    assert "Indiani" in html


def test_switched_decisions_reach_the_players_page(client, gm_user):
    """WWW-D19, WWW-D21 switched by the GM: the Indians read each other's cards, the
    hunter reads his bounty's card."""
    options = {"www.indians_know_roles": True, "www.hunter_told_target_role": True}
    game = make_game(gm_user, options=options)
    chief = game.players.get(role="capo_indiano")
    shaman = game.players.get(role="sciamano")
    _, response = enter(client, chief)
    assert f"{shaman.name} è Sciamano." in client.get(response.url).content.decode()
    hunter = game.players.get(role="cacciatore_di_taglie")
    bounty = game.players.get(seat=game.draws["bounty_target"]["seat"])
    _, response = enter(client, hunter)
    html = client.get(response.url).content.decode()
    assert f"La tua taglia, {bounty.name}, è " in html


def test_wrong_or_foreign_links_are_a_plain_404(client, gm_user):
    make_game(gm_user)
    assert client.get(reverse("player_enter", args=["x" * 43])).status_code == 404
    assert client.get(reverse("player_home")).status_code == 404


def test_repeated_guessing_is_rate_limited(client, gm_user):
    allowed = int(GUESS_RATE.split("/")[0])
    codes = [client.get(reverse("player_enter", args=[f"guess{i}"])).status_code
             for i in range(allowed + 2)]  # fmt: skip
    assert codes[:allowed] == [404] * allowed
    assert codes[-1] == 429
    game = make_game(gm_user)
    token = player_link_issue(player=game.players.first())
    # only wrong links are refused: a valid one still opens (issue 9, #2)
    assert client.get(reverse("player_enter", args=[token])).status_code == 302


def test_player_page_query_count_does_not_grow_with_players(client, gm_user):
    counts = []
    for setup in ("wild-west-wolf", "inquisizione", "classic-village"):  # 16, 19, 8 players
        game = make_game(gm_user, setup=setup)
        _, response = enter(client, game.players.first())
        with CaptureQueriesContext(connection) as queries:
            assert client.get(response.url).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1] == counts[2]


def test_role_sheet_query_count_does_not_grow_with_players(client, gm_user):
    client.force_login(gm_user)
    counts = []
    for setup in ("wild-west-wolf", "inquisizione", "classic-village"):
        game = make_game(gm_user, setup=setup)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(game.get_absolute_url()).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1] == counts[2]
