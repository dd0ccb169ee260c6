"""Issue 12 §4: after the end, a player sees that the game is over and who won; no forms."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Game
from games.services.phases import current_phase, override_add, phase_commit
from tests.factories import login_as, make_game

pytestmark = pytest.mark.django_db


def test_after_the_end_players_see_who_won_and_no_forms(client, gm_user):
    game = make_game(gm_user)
    phase_commit(phase=current_phase(game), user=gm_user)  # N0
    day = current_phase(game)
    for indian in game.players.filter(role__in=["capo_indiano", "sciamano", "indiano"]):
        override_add(phase=day, user=gm_user, kind="kill", player=indian, reason="fine")
    phase_commit(phase=day, user=gm_user)
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    sheriff = game.players.get(role="sceriffo")
    login_as(client, sheriff)
    html = client.get(reverse("player_home")).content.decode()
    over = html.split('id="game-over"')[1].split("</section>")[0]
    assert "La partita è finita" in over
    assert "Hai vinto!" in over
    assert sheriff.name in over
    assert "<form" not in html.split('id="forms"')[1].split("Quello che sai")[0]
    indian = game.players.get(role="capo_indiano")
    login_as(client, indian)
    html = client.get(reverse("player_home")).content.decode()
    assert "Non hai vinto." in html
    assert "<form" not in html.split('id="forms"')[1].split("Quello che sai")[0]
