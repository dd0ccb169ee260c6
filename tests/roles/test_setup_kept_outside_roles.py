"""The classic village (tests/setups/classic_village/, a setup package kept outside roles/)
played through the site from the new-game form to the spoiler export: the site knows no
setup by name and asks the ruleset for everything."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Game
from games.services.game import player_link_issue
from games.services.phases import current_phase, phase_commit
from games.services.submissions import action_submit, vote_cast
from tests.desks.forms import deal
from tests.factories import make_game

pytestmark = pytest.mark.django_db
NAMES = ["Ada", "Bea", "Cid", "Dan", "Eva", "Fil", "Gio", "Ivo"]


def test_a_whole_game_of_the_classic_village(client, gm_user):
    """CV-R1..R7 through the site: deal, forms, commits, posts, spoiler."""
    client.force_login(gm_user)
    assert "Villaggio classico" in client.get(reverse("games:new")).content.decode()
    response = deal(client, reverse("games:new"), {
        "name": "Villaggio", "setup": "classic-village", "players": "\n".join(NAMES),
        "seed": 3, "language": "it", "vote_close_time": "22:00", "day_close_time": "22:15",
        "powers_close_time": "22:30", "confirmed": "1",
    })  # fmt: skip
    assert response.status_code == 200  # the role sheet with the links, shown once (issue 9)
    assert response.content.decode().count('value="http://testserver/p/') == len(NAMES)
    game = Game.objects.get(name="Villaggio")
    assert sorted(game.players.values_list("role", flat=True)) == sorted(
        ["lupo", "lupo", "veggente", "guardia", "villico", "villico", "villico", "villico"]
    )
    wolf, other_wolf = game.players.filter(role="lupo").order_by("seat")
    seer, guard = game.players.get(role="veggente"), game.players.get(role="guardia")
    villager = game.players.filter(role="villico").first()

    player = client_for(client, seer)
    assert "Scopri se è un lupo" in player  # her form, from the ruleset's abilities
    night = current_phase(game)
    action_submit(phase=night, player=seer, target=wolf)
    assert phase_commit(phase=night, user=gm_user)
    assert "lupo" in client_for(client, seer)  # her answer on her page

    day = current_phase(game)
    for voter in game.players.exclude(pk=wolf.pk):
        vote_cast(phase=day, player=voter, target=wolf)
    assert phase_commit(phase=day, user=gm_user)
    assert day.__class__.objects.get(pk=day.pk).outcome["execution"]["executed"] == wolf.name

    night = current_phase(game)
    action_submit(phase=night, player=guard, target=seer)
    action_submit(phase=night, player=other_wolf, target=seer)  # protected: nobody dies
    assert phase_commit(phase=night, user=gm_user)
    client.force_login(gm_user)
    page = client.get(reverse("games:phase", args=[game.pk])).content.decode()
    assert "Giorno 2" in page or "D2" in page

    day = current_phase(game)
    vote_cast(phase=day, player=villager, target=other_wolf)
    assert phase_commit(phase=day, user=gm_user)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert "Vince: Villaggio" in client.get(reverse("games:posts", args=[game.pk])).content.decode()
    spoiler = client.get(reverse("games:spoiler", args=[game.pk]) + "?format=json")
    assert spoiler.status_code == 200
    rules = client.get(reverse("rulebook", args=["classic-village"])).content.decode()
    assert 'id="CV-R3"' in rules  # the package's own rules.md is its Regolamento


def client_for(client, player) -> str:
    token = player_link_issue(player=player)
    page = client.get(reverse("player_enter", args=[token]), follow=True)
    assert page.status_code == 200
    return page.content.decode()


def test_the_setup_gives_the_deadlines(client, gm_user):
    """The daily deadlines come from the setup's YAML (stored once), for the service and the
    new-game form alike."""
    assert make_game(gm_user, setup="classic-village").powers_close_time.isoformat() == "23:00:00"
    client.force_login(gm_user)
    page = client.get(reverse("games:new") + "?setup=classic-village").content.decode()
    assert 'value="23:00' in page or 'value="23:00:00"' in page
