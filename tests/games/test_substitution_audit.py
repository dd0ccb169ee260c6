"""Substitution, the audit log and the spoiler export."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Game, Result
from games.services.game import player_link_issue
from games.services.phases import current_phase, phase_commit
from games.services.submissions import action_submit, vote_cast
from tests.factories import make_game

pytestmark = pytest.mark.django_db


def test_substitution_new_name_new_link_old_link_dead(client, gm_user):
    game = make_game(gm_user)
    marshal = game.players.get(role="maresciallo")
    old_token = player_link_issue(player=marshal)
    client.get(reverse("player_enter", args=[old_token]))
    assert client.get(reverse("player_home")).status_code == 200
    gm = client.__class__()
    gm.force_login(gm_user)
    old_name = marshal.name
    gm.post(reverse("games:substitute", args=[game.pk, marshal.pk]), {"name": "Nuovo"})
    marshal.refresh_from_db()
    assert (marshal.name, marshal.previous_names) == ("Nuovo", [old_name])
    assert client.get(reverse("player_home")).status_code == 404  # the old session
    assert client.get(reverse("player_enter", args=[old_token])).status_code == 404
    sheet = gm.get(game.get_absolute_url()).content.decode()
    assert "Nuovo" in sheet
    assert f"prima: {old_name}" in sheet
    action_submit(
        phase=current_phase(game), player=marshal, target=game.players.get(role="indiano")
    )
    phase_commit(phase=current_phase(game), user=gm_user)  # the engine knows him by his new name
    assert Result.objects.get(phase="N0").to == marshal


def test_substitution_refuses_a_name_already_playing(client, gm_user):
    game = make_game(gm_user)
    first, second = game.players.all()[:2]
    client.force_login(gm_user)
    response = client.post(reverse("games:substitute", args=[game.pk, first.pk]),
                           {"name": second.name.upper()}, follow=True)  # fmt: skip
    assert "è già in questa partita" in response.content.decode()


def test_audit_log_lists_submissions_and_commits(client, gm_user):
    game = make_game(gm_user)
    action_submit(phase=current_phase(game), player=game.players.get(role="maresciallo"),
                  target=game.players.get(role="indiano"))  # fmt: skip
    phase_commit(phase=current_phase(game), user=gm_user)
    client.force_login(gm_user)
    html = client.get(reverse("games:audit", args=[game.pk])).content.decode()
    for kind in ("partita creata", "azione", "fase risolta"):  # the kinds, in words
        assert kind in html
    assert "game_created" not in html


def test_spoiler_only_after_the_end_then_page_and_json(client, gm_user):
    game = make_game(gm_user)
    client.force_login(gm_user)
    assert client.get(reverse("games:spoiler", args=[game.pk])).status_code == 302
    for _ in range(3):  # N0, D1 (nobody), N1 (nobody): then force the end by executions
        phase_commit(phase=current_phase(game), user=gm_user)
    indians = list(game.players.filter(role__in=["indiano", "sciamano", "capo_indiano"]))
    sheriff = game.players.get(role="sceriffo")
    for indian in indians:
        day = current_phase(game)
        vote_cast(phase=day, player=sheriff, target=indian)
        phase_commit(phase=day, user=gm_user)
        if Game.objects.get(pk=game.pk).status == Game.Status.FINISHED:
            break
        phase_commit(phase=current_phase(game), user=gm_user)
    data = client.get(reverse("games:spoiler", args=[game.pk]) + "?format=json").json()
    assert data["winning_factions"] == ["legge"]
    assert {p["role"] for p in data["players"]} >= {"sceriffo", "indiano"}
    page = client.get(reverse("games:spoiler", args=[game.pk])).content.decode()
    assert "Capo indiano" in page
