"""BANG! con Il Ribelle! on the site: the GM's new game, the desk, the player's page."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from desks.models import TableEvent
from desks.ribelle.desk import ribelle_game_create, ribelle_log, table_state
from desks.ribelle.text import MESSAGES
from games.models import Game
from games.services.game import player_link_issue
from roles.ribelle.replay import run_ribelle
from tests.conftest import ROOT
from tests.desks.forms import new_game, seen

pytestmark = pytest.mark.django_db
NAMES = ["Sam", "Vic", "Olga", "Otto", "Rina", "Reb"]


@pytest.fixture
def game(gm_user):
    game = ribelle_game_create(gm=gm_user, name="Saloon", player_names=NAMES, seed=1)
    roles = dict(zip(NAMES, ["sceriffo", "vice", "fuorilegge", "fuorilegge", "rinnegato",
                             "ribelle"], strict=True))  # fmt: skip
    for player in game.players.all():  # a known table for the assertions
        player.role = roles[player.name]
        player.save(update_fields=["role"])
    return game


def text(response) -> str:
    """The page with its whitespace folded and rule tags unlinked (``[RIB-R9]`` reads as such)."""
    page = re.sub(r'<a href="[^"]*" class="rule">([^<]*)</a>', r"\1", response.content.decode())
    return re.sub(r"\s+", " ", page)


def plain(response) -> str:
    """The page's words, without tags (rule tags are links to the Regolamento)."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", response.content.decode()))


def test_new_game_deals_and_shows_the_links(gm):
    """RIB-R1, RIB-R2: the form deals the table's roles (seeded) and shows every link once."""
    url = reverse("desks:ribelle_new")
    response = gm.post(url, new_game(gm, url,
        name="Saloon", players="\n".join(NAMES), seed="7", language="it",
        event_deck="none", skips_pre_phase_checks="on",
    ), follow=True)  # fmt: skip
    game = Game.objects.get(name="Saloon")
    assert game.setup == "ribelle"
    assert sorted(game.players.values_list("role", flat=True)) == sorted(
        ["sceriffo", "vice", "fuorilegge", "fuorilegge", "rinnegato", "ribelle"]
    )
    page = text(response)
    assert page.count("/p/") >= 6
    assert "Sceriffo" in page


def test_other_counts_are_refused_with_a_clear_message(gm):
    """RIB-D1: 5 or 7 players are refused, naming the counts that work."""
    url = reverse("desks:ribelle_new")
    response = gm.post(url, new_game(gm, url, name="Saloon", players="\n".join(NAMES[:5]),
                                     language="it", event_deck="none"))  # fmt: skip
    assert "Il Ribelle! si gioca in 4, 6, 8, 9, 10 giocatori, non in 5. [RIB-D1]" in plain(response)
    assert not Game.objects.exists()


def test_a_refused_event_is_not_logged_and_says_the_rule(gm, game):
    """RIB-R9 from the GM's desk: a player who is not the Rebel! cannot reveal."""
    gm.post(reverse("desks:ribelle_event", args=[game.pk]), seen(game, kind="turn", player="Sam"))
    response = gm.post(reverse("desks:ribelle_event", args=[game.pk]),
                       seen(game, kind="eliminated", players=["Olga"], by="Sam",
                            during="Vic"), follow=True)  # fmt: skip
    assert "Il registro dice che è il turno di Sam, non di Vic. [RIB-D2]" in plain(response)
    assert TableEvent.objects.filter(game=game).count() == 1


def test_revolution_checklist_and_posts(gm, game):
    """RIB-R11..R15 on the desk: the rulings, the four steps and the post."""
    url = reverse("desks:ribelle_event", args=[game.pk])
    gm.post(url, seen(game, kind="turn", player="Reb", phase="2"))
    response = gm.post(url, seen(game, kind="eliminated", players=["Sam"], by="Reb",
                                 card="bang"), follow=True)  # fmt: skip
    page = plain(response)
    assert ("Rivoluzione! Reb ha eliminato lo Sceriffo Sam durante il suo turno e diventa il "
            "nuovo Sceriffo. [RIB-R11]") in page  # fmt: skip
    assert "1. Reb mostra la carta ruolo" in page
    assert "[RIB-R14]" in page
    assert "[b]Rivoluzione! Reb è il nuovo Sceriffo[/b]" in page
    assert "**Revolution! Reb is the new Sheriff**" in page
    linked = response.content.decode()  # every rule tag leads to its paragraph of the Regolamento
    assert '<a href="/regolamento/ribelle/#it-RIB-R11" class="rule">RIB-R11</a>' in linked
    assert gm.get("/regolamento/ribelle/").status_code == 200


def test_english_desk(gm, game):
    """Every ruling in the GM's language (English when he picks it)."""
    gm.post("/i18n/setlang/", {"language": "en", "next": "/"})
    ribelle_log(game=game, kind="turn", players=["Sam"])
    ribelle_log(game=game, kind="eliminated", players=["Vic"], by="Sam", card="bang")
    page = plain(gm.get(game.get_absolute_url()))
    assert ("Sheriff Sam eliminated the Deputy Vic: he discards every card in his hand and in "
            "play. [RIB-R10]") in page  # fmt: skip


def test_the_rebel_reveals_from_his_page_only_at_the_end_of_phase_1(client, game):
    """RIB-R9: the button shows only in phase 1 of his own turn; the post follows."""
    rebel = game.players.get(name="Reb")
    client.get(reverse("player_enter", args=[player_link_issue(player=rebel)]))
    page = text(client.get(reverse("player_home")))
    assert "Il tuo ruolo: Ribelle!" in page
    assert "in prima persona" in page  # the Italian card text
    assert 'id="reveal-form"' not in page
    ribelle_log(game=game, kind="turn", players=["Reb"], phase=2)
    assert 'id="reveal-form"' not in text(client.get(reverse("player_home")))
    ribelle_log(game=game, kind="turn", players=["Olga"])
    assert 'id="reveal-form"' not in text(client.get(reverse("player_home")))
    refused = client.post(reverse("desks:player_reveal"), seen(game, confirm="1"), follow=True)
    assert "[RIB-R9]" in plain(refused)
    ribelle_log(game=game, kind="turn", players=["Reb"])
    assert 'id="reveal-form"' in text(client.get(reverse("player_home")))
    page = text(client.post(reverse("desks:player_reveal"), seen(game, confirm="1"), follow=True))
    assert "[b]Reb scopre la sua carta: è il Ribelle![/b]" in page
    state, _ = table_state(game)
    assert state.by_name["Reb"].face_up


def test_other_players_see_their_card_and_goal(client, game):
    outlaw = game.players.get(name="Olga")
    client.get(reverse("player_enter", args=[player_link_issue(player=outlaw)]))
    page = text(client.get(reverse("player_home")))
    assert "Fuorilegge. Vince se lo Sceriffo viene eliminato." in page
    assert "Elimina lo Sceriffo." in page
    assert 'id="reveal-form"' not in page
    ribelle_log(game=game, kind="turn", players=["Sam"])
    ribelle_log(game=game, kind="eliminated", players=["Vic"], by="Sam", card="bang")
    assert "Ruoli scoperti: Sam (Sceriffo), Vic (Vice)" in text(client.get(reverse("player_home")))


def test_final_post_and_the_game_finishes(gm, game):
    """RIB-R8, RIB-D7: the Law wins; the final post in BBCode and Markdown, it and en."""
    ribelle_log(game=game, kind="turn", players=["Sam"])
    ribelle_log(game=game, kind="eliminated", players=["Olga", "Otto", "Rina"], by="Sam",
                card="gatling")  # fmt: skip
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    page = text(gm.get(game.get_absolute_url()))
    assert "[b]Fine della partita: vince la Legge[/b]" in page
    assert "**Game over: the Law wins**" in page
    assert "Sam: Sceriffo — [b]vince[/b]" in page
    assert "Reb: Rebel! — loses" in page


def test_undo_the_last_event(gm, game):
    ribelle_log(game=game, kind="turn", players=["Sam"])
    ribelle_log(game=game, kind="turn", players=["Vic"])
    gm.post(reverse("desks:ribelle_undo", args=[game.pk]), seen(game))
    state, log = table_state(game)
    assert state.turn == "Sam"
    assert len(log) == 1


def test_every_referee_message_has_words():
    """Every message id the referee can say has its text in the catalogue."""
    source = "".join(p.read_text() for p in (ROOT / "roles" / "ribelle").glob("*.py"))
    ids = set(re.findall(r'"(rib\.[a-z_]+(?:\.[a-z_0-9]+)*)"', source))
    ids -= {
        "rib.allowed_player_counts",
        "rib.revolution_requires_rebel_source",
        "rib.new_turn_skips_pre_phase_checks",
        "rib.event_deck",
    }  # option keys
    assert ids - set(MESSAGES) == set()


def test_dashboard_audit_and_substitution(gm, game):
    """The shared pieces work for a desk game: the dashboard lists it, the audit shows the
    log, a substitute takes the seat and the log follows him (names kept as seats)."""
    ribelle_log(game=game, kind="turn", players=["Olga"])
    assert "Saloon" in text(gm.get(reverse("dashboard")))
    assert "Evento n. 1: Turno di Olga, fase 1." in text(
        gm.get(reverse("games:audit", args=[game.pk]))
    )
    olga = game.players.get(name="Olga")
    gm.post(reverse("games:substitute", args=[game.pk, olga.pk]), {"name": "Ofelia"})
    state, _ = table_state(game)
    assert state.turn == "Ofelia"
    assert "Turno di Ofelia, fase 1" in text(gm.get(game.get_absolute_url()))


def test_the_phase_page_of_a_desk_game_is_its_desk(gm, game):
    response = gm.get(reverse("games:phase", args=[game.pk]))
    assert response.status_code == 302
    assert response["Location"] == game.get_absolute_url()


def test_the_desk_says_what_the_deputy_penalty_is_now(gm, game):
    """RIB-R10, RIB-R12, RIB-D5 told before it matters: discards, suspended, the new Sheriff."""
    page = plain(gm.get(game.get_absolute_url()))
    assert "Se lo Sceriffo Sam elimina un Vice, scarta tutte le sue carte. [RIB-R10]" in page
    ribelle_log(game=game, kind="turn", players=["Reb"])
    ribelle_log(game=game, kind="reveal", players=["Reb"])
    page = plain(gm.get(game.get_absolute_url()))
    assert "lo Sceriffo Sam non perde le carte se elimina un Vice. [RIB-R10]" in page
    ribelle_log(game=game, kind="eliminated", players=["Sam"], by="Reb")
    page = plain(gm.get(game.get_absolute_url()))
    assert "Se lo Sceriffo Reb elimina un Vice, scarta tutte le sue carte. [RIB-R12]" in page


def test_the_turn_form_offers_what_comes_next(game):
    """BANG-B1 on the desk: the next phase of the turn, then the next player in play."""
    from desks.ribelle.views import next_turn

    state, _ = table_state(game)
    assert next_turn(state) == ("Sam", 1)
    ribelle_log(game=game, kind="turn", players=["Sam"], phase=2)
    assert next_turn(table_state(game)[0]) == ("Sam", 3)
    ribelle_log(game=game, kind="eliminated", players=["Vic"], by="Sam")
    ribelle_log(game=game, kind="turn", players=["Sam"], phase=3)
    assert next_turn(table_state(game)[0]) == ("Olga", 1)  # Vic is out of play
    ribelle_log(game=game, kind="turn", players=["Reb"], phase=3)
    assert next_turn(table_state(game)[0]) == ("Sam", 1)  # round the table


def test_spoiler_is_the_replay_file_and_its_report(gm, game):
    """After the game the export is a `manage.py replay` file (docs/replay-ribelle.md)
    that gives the same winners."""
    ribelle_log(game=game, kind="turn", players=["Reb"], phase=2)
    ribelle_log(game=game, kind="eliminated", players=["Sam"], by="Reb", card="bang")
    ribelle_log(game=game, kind="eliminated", players=["Olga", "Otto", "Rina"], by="Reb",
                card="gatling")  # fmt: skip
    data = gm.get(reverse("games:spoiler", args=[game.pk]) + "?format=json").json()
    assert data["replay"]["events"][1] == {
        "eliminated": ["Sam"], "by": "Reb", "during": None, "card": "bang",
    }  # fmt: skip
    assert data["report"]["winners"] == ["Vic", "Reb"]
    assert run_ribelle(data["replay"])["winners"] == ["Vic", "Reb"]
