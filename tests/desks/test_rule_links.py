"""Issue 30 minors: rule tags are links everywhere on the desks — the new-game forms'
option labels and refusals (opening the Regolamento in another tab, the form stays), the
base-game rules the BANG! referee assumes ([BANG-B9]), defined on the Regolamento page —
and the players' pages."""

from __future__ import annotations

import pytest
from django.urls import reverse

from desks.automobile.desk import adt_game_create, adt_log
from desks.ribelle.desk import ribelle_game_create, ribelle_log
from games.services.game import player_link_issue
from tests.desks.forms import new_game

pytestmark = pytest.mark.django_db
NAMES = ["Sam", "Vic", "Olga", "Otto", "Rina", "Reb"]


def in_form(slug: str, tag: str) -> str:
    """A rule tag in a form, read in Italian: a rule (R) leads to its place in the Italian
    original, a DECISION to the reference."""
    href = f"/regolamento/{slug}/#{'it-' if '-R' in tag else ''}{tag}"
    return f'<a href="{href}" class="rule" target="_blank" rel="noopener">{tag}</a>'


@pytest.fixture
def gm(client, gm_user):
    client.force_login(gm_user)
    return client


def test_the_new_game_forms_link_their_option_rules(gm):
    bang = gm.get(reverse("desks:ribelle_new")).content.decode()
    assert in_form("ribelle", "RIB-R13") in bang
    assert in_form("ribelle", "RIB-D2") in bang
    train = gm.get(reverse("desks:adt_new")).content.decode()
    assert in_form("automobile-del-tempo", "ADT-D1") in train
    assert in_form("automobile-del-tempo", "ADT-R1") in train


def test_a_creation_refusal_links_its_rule(gm):
    url = reverse("desks:ribelle_new")
    page = gm.post(url, new_game(gm, url, name="Saloon", players="A\nB\nC\nD\nE",
                                 language="it", event_deck="none")).content.decode()  # fmt: skip
    assert in_form("ribelle", "RIB-D1") in page  # five players: no table of roles


def test_a_base_game_rule_is_a_link_to_its_paragraph(gm, gm_user):
    """[BANG-B9]: the base-game rules the referee assumes are defined on the Regolamento."""
    game = ribelle_game_create(gm=gm_user, name="Saloon", player_names=NAMES, seed=1)
    sheriff = game.players.get(role="sceriffo").name
    outlaw = game.players.filter(role="fuorilegge").first().name
    ribelle_log(game=game, kind="turn", players=[sheriff], phase=2)
    ribelle_log(game=game, kind="eliminated", players=[outlaw], by=sheriff, card="bang")
    desk = gm.get(game.get_absolute_url()).content.decode()
    assert '<a href="/regolamento/ribelle/#BANG-B9" class="rule">BANG-B9</a>' in desk
    rulebook = gm.get(reverse("rulebook", args=["ribelle"])).content.decode()
    for number in range(1, 10):
        assert f'id="BANG-B{number}"' in rulebook


def test_the_hiding_form_links_its_rule(client, gm_user):
    game = adt_game_create(gm=gm_user, name="Treno", config={"cars": 3, "rounds": 3},
                           bandits={"Ada": "django", "Bea": "belle"})  # fmt: skip
    adt_log(game=game, kind="stealin", data={}, user=gm_user)
    for data in ({"kind": "place", "actor": "Bea", "to": "locomotive:interior"},
                 {"kind": "move", "actor": "Bea", "to": "time_car"}):  # fmt: skip
        adt_log(game=game, kind="action", data=data, user=gm_user)
    adt_log(game=game, kind="round_end", data={"event": None}, user=gm_user)
    bea = game.players.get(name="Bea")
    client.get(reverse("player_enter", args=[player_link_issue(player=bea)]))
    page = client.get(reverse("player_home")).content.decode()
    assert in_form("automobile-del-tempo", "ADT-R14") in page
