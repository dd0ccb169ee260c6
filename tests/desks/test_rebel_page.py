"""Issue 30 minors, the Rebel!'s reveal (RIB-R9): his button is the first thing on his
page, the page refreshes itself while he waits for the end of his phase 1, the
irreversible reveal asks for a confirmation, and the GM is told to wait for him before
logging phase 2."""

from __future__ import annotations

import pytest
from django.urls import reverse

from desks.ribelle.desk import ribelle_game_create, ribelle_log, table_state
from games.services.game import player_link_issue
from tests.desks.forms import seen

pytestmark = pytest.mark.django_db
NAMES = ["Sam", "Vic", "Olga", "Otto", "Rina", "Reb"]
ROLES = ["sceriffo", "vice", "fuorilegge", "fuorilegge", "rinnegato", "ribelle"]
REFRESH = '<meta http-equiv="refresh"'


@pytest.fixture
def saloon(gm_user):
    game = ribelle_game_create(gm=gm_user, name="Saloon", player_names=NAMES, seed=1)
    roles = dict(zip(NAMES, ROLES, strict=True))
    for player in game.players.all():
        player.role = roles[player.name]
        player.save(update_fields=["role"])
    return game


@pytest.fixture
def rebel(client, saloon):
    player = saloon.players.get(name="Reb")
    client.get(reverse("player_enter", args=[player_link_issue(player=player)]))
    return client


def page(client) -> str:
    return client.get(reverse("player_home")).content.decode()


def test_the_waiting_rebel_page_refreshes_itself_and_stops_at_the_button(rebel, saloon):
    """No JavaScript needed: a meta refresh while he waits; none once the button shows
    (a reload would untick his confirmation), nor for anyone else."""
    waiting = page(rebel)
    assert REFRESH in waiting
    assert 'id="reveal-wait"' in waiting
    ribelle_log(game=saloon, kind="turn", players=["Reb"], phase=1)
    shown = page(rebel)
    assert REFRESH not in shown
    assert 'id="reveal-form"' in shown


def test_the_reveal_button_comes_first(rebel, saloon):
    """On a 390 px phone the button was below the fold: it now precedes the role card."""
    ribelle_log(game=saloon, kind="turn", players=["Reb"], phase=1)
    shown = page(rebel)
    assert shown.index('id="reveal-form"') < shown.index('class="card role-card"')


def test_the_reveal_asks_for_a_confirmation(rebel, saloon):
    """An irreversible reveal: without the tick nothing is recorded."""
    ribelle_log(game=saloon, kind="turn", players=["Reb"], phase=1)
    form = page(rebel)
    assert 'name="confirm" value="1" required' in form
    refused = rebel.post(reverse("desks:player_reveal"), seen(saloon), follow=True)
    assert (
        "Per scoprirti spunta «Sì, mi scopro: non si torna indietro»." in refused.content.decode()
    )
    assert not table_state(saloon)[0].by_name["Reb"].face_up
    rebel.post(reverse("desks:player_reveal"), seen(saloon, confirm="1"))
    assert table_state(saloon)[0].by_name["Reb"].face_up
    assert REFRESH not in page(rebel)  # nothing more to wait for


def test_other_players_pages_do_not_refresh(client, saloon):
    player = saloon.players.get(name="Olga")
    client.get(reverse("player_enter", args=[player_link_issue(player=player)]))
    assert REFRESH not in page(client)


def test_the_gm_is_told_to_wait_for_the_rebel_before_phase_2(client, gm_user, saloon):
    client.force_login(gm_user)
    desk = client.get(saloon.get_absolute_url()).content.decode()
    assert 'id="rebel-deciding"' not in desk
    ribelle_log(game=saloon, kind="turn", players=["Reb"], phase=1)
    desk = client.get(saloon.get_absolute_url()).content.decode()
    assert "Reb è il Ribelle! ed è alla fine della fase 1: prima di registrare la fase 2" in desk
