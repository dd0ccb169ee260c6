"""The GM logs in and sees his own games only."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from games.models import Game
from games.services.game import game_create

pytestmark = pytest.mark.django_db


def test_dashboard_requires_login(client):
    response = client.get("/")
    assert response.status_code == 302
    assert response.url == "/accedi/?next=/"


def test_dashboard_lists_only_my_games(client, gm_user, django_user_model):
    other = django_user_model.objects.create_user(username="altro", password="pw-altro-1")
    names = [f"P{i}" for i in range(16)]
    mine = game_create(gm=gm_user, name="Mia", setup_key="wild-west-wolf", player_names=names)
    theirs = game_create(gm=other, name="Altrui", setup_key="wild-west-wolf", player_names=names)
    client.force_login(gm_user)
    page = client.get("/").content.decode()
    assert "Mia" in page
    assert "16 giocatori" in page
    assert "Altrui" not in page
    assert client.get(mine.get_absolute_url()).status_code == 200
    assert client.get(theirs.get_absolute_url()).status_code == 404


def test_demo_game_is_loaded_once_with_a_dealt_wild_west_wolf_table(monkeypatch):
    monkeypatch.setenv("TABULA_GM_PASSWORD", "pw-demo-123")
    call_command("ensure_gm")
    call_command("load_demo")
    call_command("load_demo")
    game = Game.objects.get()
    assert game.setup == "wild-west-wolf"
    roles = sorted(game.players.values_list("role", flat=True))
    assert len(roles) == 16
    assert roles.count("cowboy") == 3


def test_english_is_available(client, gm_user):
    client.force_login(gm_user)
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert client.get("/").headers["Content-Language"] == "en"
