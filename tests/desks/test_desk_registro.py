"""Issue 30 minors: a desk game's Registro is written as sentences, never internals
(``table_eliminated · seq 42; data {'players': [4], …}``), and ``/partite/<id>/annunci/``
on a desk game leads to its posts."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from desks.automobile.desk import adt_game_create, adt_log
from desks.ribelle.desk import ribelle_game_create, ribelle_log
from desks.services import table_event_undo

pytestmark = pytest.mark.django_db
NAMES = ["Sam", "Vic", "Olga", "Otto", "Rina", "Reb"]
INTERNALS = ("table_", "seq", "data", "{", "[4]", "'players'", "adt_", "time_car", "car1:")


@pytest.fixture
def gm(client, gm_user):
    client.force_login(gm_user)
    return client


def registro(gm, game) -> str:
    page = gm.get(reverse("games:audit", args=[game.pk])).content.decode()
    page = page[page.index("<tbody>") : page.index("</tbody>")]
    page = re.sub(r"</?a[^>]*>", "", page)  # rule tags are links
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


def test_the_bang_registro_reads_as_sentences(gm, gm_user):
    game = ribelle_game_create(gm=gm_user, name="Saloon", player_names=NAMES, seed=1)
    sheriff = game.players.get(role="sceriffo").name
    victim = game.players.exclude(role="sceriffo").order_by("seat").first().name
    ribelle_log(game=game, kind="turn", players=[sheriff], phase=2, user=gm_user)
    ribelle_log(game=game, kind="eliminated", players=[victim], by=sheriff, card="bang",
                user=gm_user)  # fmt: skip
    table_event_undo(game=game, user=gm_user)
    page = registro(gm, game)
    assert f"Evento n. 1: Turno di {sheriff}, fase 2." in page
    assert f"Evento n. 2: Eliminazione di {victim} da parte di {sheriff} con Bang!." in page
    assert f"Annullato l'evento n. 2: Eliminazione di {victim}" in page
    assert "registrato al tavolo" in page
    assert [w for w in INTERNALS if w in page] == []


def test_the_time_car_registro_reads_as_sentences_and_never_says_where(gm, gm_user, client):
    game = adt_game_create(gm=gm_user, name="Treno", config={"cars": 3, "rounds": 3},
                           bandits={"Ada": "django", "Bea": "belle"})  # fmt: skip
    adt_log(game=game, kind="stealin", data={}, user=gm_user)
    for data in ({"kind": "place", "actor": "Bea", "to": "locomotive:interior"},
                 {"kind": "move", "actor": "Bea", "to": "time_car"},
                 {"kind": "place", "actor": "Ada", "to": "locomotive:interior"},
                 {"kind": "fire", "actor": "Ada", "target": "Bea"}):  # fmt: skip
        adt_log(game=game, kind="action", data=data, user=gm_user)
    adt_log(game=game, kind="round_end", data={"event": "braking"}, user=gm_user)
    bea = game.players.get(name="Bea")
    adt_log(game=game, kind="hide", data={"under": "car1"}, player=bea)
    adt_log(game=game, kind="stealin", data={}, user=gm_user)
    page = registro(gm, game)
    assert "Evento n. 3: Movimento · Bea → l'Automobile del Tempo." in page
    assert "Evento n. 5: Fuoco · Ada → Bea." in page
    assert "Evento n. 6: Fine del round — Frenata." in page
    assert "Evento n. 7: Un Bandito si nasconde (dove, nessuno lo vede" in page
    assert "Evento n. 8: Bea riappare: l'interno del Vagone 1. [ADT-R16]" in page
    assert [w for w in INTERNALS if w in page] == []


def test_the_posts_address_of_a_desk_game_leads_to_its_posts(gm, gm_user):
    game = ribelle_game_create(gm=gm_user, name="Saloon", player_names=NAMES, seed=1)
    response = gm.get(reverse("games:posts", args=[game.pk]))
    assert response.status_code == 302
    assert response["Location"] == f"{game.get_absolute_url()}#posts"
    assert gm.post(reverse("games:posts", args=[game.pk])).status_code == 404
