"""Issue 30 §5 and its minors on the Time Car desk: every word a GM or a player reads is
in his language (never an English developer message on an Italian page), the Marshal is
the Marshal in English, the forms offer only what can be asked, the answers do not
mislead, and the pages link the Regolamento."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from desks.automobile.desk import adt_game_create, adt_log
from desks.models import TableEvent
from games.services.game import player_link_issue
from tests.desks.forms import new_game, seen

pytestmark = pytest.mark.django_db
BANDITS = {"Ada": "django", "Bea": "belle", "Cid": "tuco"}
# English developer phrases the referee once let through to the Italian pages
ENGLISH = (
    "unknown Bandit", "names no place", "himself", "is not a loot token", "already played",
    "is not a place", "not on this train", "Sheriff", "purse:", ">jewel<", "GM's call",
)  # fmt: skip


@pytest.fixture
def gm(client, gm_user):
    client.force_login(gm_user)
    return client


@pytest.fixture
def train(gm_user):
    game = adt_game_create(gm=gm_user, name="Treno", bandits=BANDITS,
                           config={"cars": 3, "rounds": 3})  # fmt: skip
    adt_log(game=game, kind="stealin", data={}, user=gm_user)
    return game


def words(response) -> str:
    page = re.sub(r"<[^>]+>", " ", response.content.decode())
    return re.sub(r"\s+", " ", html.unescape(page))


def english(text: str) -> list[str]:
    return [phrase for phrase in ENGLISH if phrase in text]


def post(gm, game, **data):
    return gm.post(reverse("desks:adt_event", args=[game.pk]), seen(game, **data), follow=True)


def test_apply_at_once_answers_in_italian_and_records_nothing(gm, train):
    """Issue 30 §5: «Applica» on an empty form (no place) answers in Italian, not in the
    referee's English; in English, in English."""
    sent = post(gm, train, kind="action", action="ride", actor="Bea", to="", target="Cid")
    page = words(sent)
    assert "Bea: l'azione non dice dove: scegli «Verso»" in page
    assert english(page) == []
    form = sent.content.decode()  # refused, the form stays as it was sent
    assert '<option value="ride" selected>' in form
    assert '<option value="Bea" selected>' in form
    assert not TableEvent.objects.filter(game=train, kind="action").exists()
    gm.post("/i18n/setlang/", {"language": "en", "next": "/"})
    page = words(post(gm, train, kind="check", action="fire", actor="Ada", target="Ada"))
    assert "Ada: cannot fire at himself" in page


def test_a_shot_at_himself_and_a_missing_loot_are_refused_in_italian(gm, train):
    """Issue 30 minors: 'cannot fire himself', a loot key, an unknown Bandit."""
    page = words(post(gm, train, kind="check", action="fire", actor="Ada", target="Ada"))
    assert "Ada: non può sparare a se stesso" in page
    page = words(post(gm, train, kind="action", action="rob", actor="Ada"))
    assert "Ada: l'azione non dice quale bottino: sceglilo" in page
    page = words(post(gm, train, kind="action", action="move", actor="Zed", to="car1:roof"))
    assert "Zed non è un Bandito di questa partita" in page
    assert english(page) == []


def test_a_character_dealt_twice_is_refused_in_italian(gm):
    """Issue 30 minors: 'ghost is already played by another Bandit'."""
    url = reverse("desks:adt_new")
    page = words(gm.post(url, new_game(gm, url, name="Treno", rounds="3", language="it",
                                       bandits="Ada: Ghost\nBea: ghost")))  # fmt: skip
    assert "Bea: Ghost è già il personaggio di un altro Bandito" in page
    assert english(page) == []


def test_the_loot_is_named_in_words(gm, train):
    """Issue 30 minors: loot keys (`jewel`, `purse:250`) are not words."""
    page = gm.get(train.get_absolute_url()).content.decode()
    assert '<option value="jewel">un gioiello ($500)</option>' in page
    assert '<option value="purse:250">una borsa ($250)</option>' in page
    assert english(words(gm.get(train.get_absolute_url()))) == []


def test_the_marshal_form_offers_no_time_car(gm, train):
    """ADT-R18: the Marshal's form neither offers nor preselects the Time Car, the one
    place always refused; it preselects where he stands."""
    page = gm.get(train.get_absolute_url()).content.decode()
    form = re.search(r'<form[^>]*id="marshal-form".*?</form>', page, re.S)[0]
    assert "time_car" not in form
    assert "roof" not in form
    assert '<option value="locomotive:interior" selected>' in form


def test_in_english_the_marshal_is_the_marshal(gm, train):
    """Issue 30 minors: the Time Car's Marshal was called "Sheriff" in English."""
    gm.post("/i18n/setlang/", {"language": "en", "next": "/"})
    post(gm, train, kind="action", action="marshal", to="car1:interior")
    page = words(gm.get(train.get_absolute_url()))
    assert "Marshal: the interior of car 1" in page
    assert "Move the Marshal" in page
    assert "Sheriff" not in page


def test_a_base_game_move_is_said_not_judged(gm, train):
    """Issue 30 minors: «Si può fare?» said "Sì … decide il GM" for a base-game shot it
    does not judge."""
    adt_log(game=train, kind="action", data={"kind": "place", "actor": "Ada",
                                             "to": "car1:interior"}, user=None)  # fmt: skip
    page = words(post(gm, train, kind="check", action="fire", actor="Ada", target="Cid"))
    assert "Non giudicata — Ada: mossa del gioco base" in page
    assert "il sito non la giudica, decide il GM" in page
    assert "Sì —" not in page


def test_a_second_tab_hiding_again_is_told_why(gm_user, client):
    """Issue 30 minors: a second tab's hide refusal gave the wrong reason: she has hidden."""
    game = adt_game_create(gm=gm_user, name="Treno", bandits=BANDITS,
                           config={"cars": 3, "rounds": 3})  # fmt: skip
    adt_log(game=game, kind="stealin", data={}, user=gm_user)
    for data in ({"kind": "place", "actor": "Bea", "to": "locomotive:interior"},
                 {"kind": "move", "actor": "Bea", "to": "time_car"}):  # fmt: skip
        adt_log(game=game, kind="action", data=data, user=gm_user)
    adt_log(game=game, kind="round_end", data={"event": None}, user=gm_user)
    client.get(
        reverse("player_enter", args=[player_link_issue(player=game.players.get(name="Bea"))])
    )
    first, second = seen(game, under="car1"), seen(game, under="car2")
    client.post(reverse("desks:player_hide"), first)
    page = words(client.post(reverse("desks:player_hide"), second, follow=True))
    assert "Ti sei già nascosto: la scelta è sigillata" in page
    assert TableEvent.objects.get(game=game, kind="hide").data == {"under": "car1"}


def test_the_time_car_pages_link_the_regolamento(gm, train, client):
    """Issue 30 minors: the Time Car's game and player pages link the Regolamento."""
    link = reverse("rulebook", args=["automobile-del-tempo"])
    assert f'href="{link}"' in gm.get(train.get_absolute_url()).content.decode()
    client.get(reverse("player_enter", args=[player_link_issue(player=train.players.first())]))
    assert f'href="{link}"' in client.get(reverse("player_home")).content.decode()
