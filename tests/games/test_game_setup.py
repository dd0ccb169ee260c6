"""The GM creates a game: the sign-up list, the deal, the role sheet, the private links."""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from games.forms.signup import parse_player_names
from games.models import AuditEvent, Game, Player, Result
from games.services.game import player_link_issue
from tests.desks.forms import creation_token
from tests.factories import INQ_NAMES, WWW_NAMES, make_game

pytestmark = pytest.mark.django_db


def test_sign_up_list_is_parsed_forum_style():
    text = "1. Ada\n2) @Bea\n\n - Cid \n• Dan\n"
    assert parse_player_names(text, expected=4) == ["Ada", "Bea", "Cid", "Dan"]


def test_duplicates_and_wrong_count_are_explained():
    with pytest.raises(ValidationError) as info:
        parse_player_names("Ada\nbea\nBea\nCid", expected=16)
    messages = info.value.messages
    assert "Nomi ripetuti: Bea." in messages
    assert "Servono esattamente 16 giocatori: ne hai incollati 4." in messages


def test_game_create_deals_and_stores_start_knowledge(gm_user):
    """WWW-R79 (the bounty draw is stored and told), WWW-R49 (the deputy is told cowboy)."""
    game = make_game(gm_user, seed=11)
    again = make_game(gm_user, seed=11)
    roles = list(game.players.values_list("role", flat=True))
    assert roles == list(again.players.values_list("role", flat=True))
    assert sorted(roles).count("cowboy") == 3
    bounty = game.draws["bounty_target"]
    hunter = game.players.get(role="cacciatore_di_taglie")
    target = game.players.get(seat=bounty["seat"])
    assert target.role in {"maresciallo", "pastore", "maestrina", "vicesceriffo", "cowboy"}
    stored = Result.objects.get(game=game, to=hunter, kind="bounty")
    assert stored.value == {"seat": target.seat}
    deputy = game.players.get(role="vicesceriffo")
    assert Result.objects.get(game=game, to=deputy, kind="role").value == "cowboy"
    assert AuditEvent.objects.filter(game=game, kind="game_created").count() == 1


def test_new_game_form_htmx_returns_only_the_options(client, gm_user):
    client.force_login(gm_user)
    page = client.get(reverse("games:new") + "?setup=inquisizione", HTTP_HX_REQUEST="true")
    html = page.content.decode()
    assert html.lstrip().startswith('<div id="options">')
    assert "Il Boia può ritirare il voto segreto" in html
    full = client.get(reverse("games:new")).content.decode()
    assert "<html" in full
    assert 'id="options"' in full


def test_new_game_with_bad_list_stores_nothing(client, gm_user):
    client.force_login(gm_user)
    names = "\n".join([*WWW_NAMES[:15], "sam"])
    response = client.post(reverse("games:new"), {
        "name": "Prova", "setup": "wild-west-wolf", "players": names, "language": "it",
        "vote_close_time": "22:00", "day_close_time": "22:15", "powers_close_time": "22:30",
    })  # fmt: skip
    assert response.status_code == 200
    html = response.content.decode()
    assert "Nomi ripetuti: sam." in html
    assert Game.objects.count() == 0


INQ_FORM = {
        "name": "Inquisizione di prova", "setup": "inquisizione", "players": "\n".join(INQ_NAMES),
        "seed": "5", "language": "it", "vote_close_time": "21:30", "day_close_time": "22:15",
        "powers_close_time": "22:30", "opt_inq__boia_templar_know_each_other": "on",
        "opt_inq__boia_secret_withdrawable": "on", "opt_inq__allow_vote_change": "on",
        "opt_inq__no_votes_no_execution": "on", "opt_inq__dead_members_share_win": "on",
        "opt_inq__postino_on_n0": "on", "opt_inq__postino_message_names_target": "on",
        "opt_inq__record_maul_executor": "on", "opt_inq__grumpy_list_both_guards": "on",
        "opt_inq__templar_designation_persists": "on", "opt_inq__reveal_all_at_end": "on",
        "opt_inq__starts_with": "night", "opt_inq__tie_exact_time_fallback": "storage_order",
        "opt_inq__night_actions_open_at": "day_start", "opt_inq__dawn_time": "manual",
        "opt_inq__public_posting_until": "22:15", "confirmed": "1",
}  # fmt: skip


def test_new_game_deals_shows_sheet_links_and_groups(client, gm_user):
    client.force_login(gm_user)
    token = creation_token(client, reverse("games:new"))
    dealt = client.post(reverse("games:new"), {**INQ_FORM, "creation_token": token})
    game = Game.objects.get()
    assert dealt.status_code == 302  # POST/redirect/GET: a reload re-sends nothing
    assert dealt["Location"] == f"{game.get_absolute_url()}?link=nuovi"
    response = client.get(dealt["Location"])
    assert response.status_code == 200  # the links exist only in this response (issue 9, #4)
    assert "no-store" in response["Cache-Control"]
    assert game.options == {"inq.boia_templar_know_each_other": True}
    assert str(game.vote_close_time) == "21:30:00"
    page = response.content.decode()
    assert page.count('value="http://testserver/p/') == 19  # every link, once
    again = client.get(game.get_absolute_url()).content.decode()
    assert "/p/" not in again  # shown once: the sheet never shows them again
    assert "Guardie Gemelle" in page
    assert "Branco" in page
    assert "Cimitero" in page
    boia = game.players.get(role="boia")
    templare = game.players.get(role="templare")
    assert f"<td>{templare.name}</td>" in page  # the option took effect: whom the Boia knows
    assert Result.objects.filter(to=boia, kind="knows").exists()


def test_links_rotate_and_old_link_stops(client, gm_user):
    game = make_game(gm_user)
    player = game.players.first()
    old = player_link_issue(player=player)
    assert client.get(reverse("player_enter", args=[old])).status_code == 302
    client.force_login(gm_user)
    client.post(reverse("games:rotate", args=[game.pk, player.pk]), {"confirm": "1"})
    player.refresh_from_db()
    assert client.get(reverse("player_home")).status_code == 404  # the old session too
    assert client.get(reverse("player_enter", args=[old])).status_code == 404


def test_rotate_refuses_another_gms_player(client, gm_user, django_user_model):
    other = django_user_model.objects.create_user(username="altro", password="pw-altro-1")
    game = make_game(other)
    player = game.players.first()
    client.force_login(gm_user)
    response = client.post(reverse("games:rotate", args=[game.pk, player.pk]), {"confirm": "1"})
    assert response.status_code == 404
    assert Player.objects.get(pk=player.pk).token_hash is None


def test_the_same_deal_form_sent_again_deals_once(client, gm_user):
    """Issue 30 §3, issue 31 §3: a reload of the answer or Back and submit sends the same
    form (its one-time token) again: no second deal, the GM lands on the game dealt; a
    reload of the links page does not replace the links already shown."""
    client.force_login(gm_user)
    form = {**INQ_FORM, "creation_token": creation_token(client, reverse("games:new"))}
    first = client.post(reverse("games:new"), form)
    game = Game.objects.get()
    roles = list(game.players.values_list("role", flat=True))
    links = client.get(first["Location"]).content.decode()
    assert links.count('value="http://testserver/p/') == 19
    hashes = list(game.players.values_list("token_hash", flat=True))
    again = client.post(reverse("games:new"), {**form, "seed": ""}, follow=True)
    assert Game.objects.count() == 1
    assert list(game.players.values_list("role", flat=True)) == roles
    assert again.redirect_chain[-1][0] == game.get_absolute_url()
    assert "Questa partita è già stata creata con questo modulo" in again.content.decode()
    reload = client.get(first["Location"]).content.decode()
    assert "/p/" not in reload
    assert "già stati mostrati" in reload
    assert list(game.players.values_list("token_hash", flat=True)) == hashes


def test_a_name_already_on_the_dashboard_is_refused(client, gm_user):
    """Issue 30 §3: as the backup import refuses it (ignoring case)."""
    make_game(gm_user, name="Inquisizione di prova")
    client.force_login(gm_user)
    form = {**INQ_FORM, "name": "inquisizione DI PROVA",
            "creation_token": creation_token(client, reverse("games:new"))}  # fmt: skip
    response = client.post(reverse("games:new"), form)
    assert response.status_code == 200
    assert "Hai già una partita che si chiama «inquisizione DI PROVA»" in response.content.decode()
    assert Game.objects.count() == 1


def test_a_form_without_its_token_deals_nothing_and_offers_a_fresh_one(client, gm_user):
    client.force_login(gm_user)
    response = client.post(reverse("games:new"), INQ_FORM)
    page = response.content.decode()
    assert "Questo modulo è scaduto" in page
    assert Game.objects.count() == 0
    token = re.search(r'name="creation_token" value="([^"]+)"', page)[1]
    dealt = client.post(reverse("games:new"), {**INQ_FORM, "creation_token": token})
    assert dealt.status_code == 302
    assert Game.objects.count() == 1
