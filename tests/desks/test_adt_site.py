"""Colt Express con l'Automobile del Tempo on the site: the GM's new game, the desk with the
Time Car checker, the sealed hiding through the Bandit's private link, the reveal and
the final posts."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from desks.automobile.desk import adt_game_create, adt_log, table_state
from desks.models import TableEvent
from games.models import AuditEvent, Game
from games.services.game import player_link_issue
from tests.desks.forms import new_game, seen

pytestmark = pytest.mark.django_db
BANDITS = {"Ada": "django", "Bea": "belle", "Cid": "tuco"}
CONFIG = {"cars": 3, "rounds": 3}


@pytest.fixture
def game(gm_user):
    return adt_game_create(gm=gm_user, name="Treno", bandits=BANDITS, config=CONFIG)


def text(response) -> str:
    """The page with its whitespace folded and rule tags unlinked (``[RIB-R9]`` reads as such)."""
    page = re.sub(r'<a href="[^"]*" class="rule">([^<]*)</a>', r"\1", response.content.decode())
    return re.sub(r"\s+", " ", html.unescape(page))


def act(game, gm_user, **data):
    return adt_log(game=game, kind="action", data=data, user=gm_user)


def bea_alone(game, gm_user):
    """Round 1: Bea walks to the Locomotive and into the Time Car; the round ends."""
    adt_log(game=game, kind="stealin", data={}, user=gm_user)
    act(game, gm_user, kind="place", actor="Bea", to="locomotive:interior")
    act(game, gm_user, kind="move", actor="Bea", to="time_car")
    adt_log(game=game, kind="round_end", data={"event": None}, user=gm_user)


def test_new_game_from_the_form_shows_the_bandits_and_their_links(gm):
    """ADT-R2: the train has its cars and the Time Car; the Bandits start as in the base game."""
    url = reverse("desks:adt_new")
    response = gm.post(url, new_game(gm, url,
        name="Treno", bandits="Ada: Django\nBea: belle\nCid: Tuco", rounds="3",
        language="it", roof_step="on",
    ), follow=True)  # fmt: skip
    game = Game.objects.get(name="Treno")
    assert game.setup == "automobile-del-tempo"
    assert game.options["cars"] == 3
    assert list(game.players.order_by("seat").values_list("name", "role")) == [
        ("Ada", "django"), ("Bea", "belle"), ("Cid", "tuco"),
    ]  # fmt: skip
    page = text(response)
    assert page.count("/p/") >= 3
    assert "l'interno del Vagone 3" in page  # Ada and Cid, odd players, in the Caboose


def test_a_bad_bandit_line_is_explained(gm):
    url = reverse("desks:adt_new")
    response = gm.post(url, new_game(gm, url, name="Treno", bandits="Ada: Django\nBea: Calamity",
                                     rounds="5", language="it"))  # fmt: skip
    assert "Riga non valida" in text(response)
    assert not Game.objects.filter(name="Treno").exists()


def test_the_checker_answers_with_the_rule_and_applies(gm, game):
    """ADT-R4: "can Bea do this?" then apply; a refusal is shown and nothing is stored."""
    url = reverse("desks:adt_event", args=[game.pk])
    gm.post(url, seen(game, kind="stealin"))
    ask = gm.post(url, seen(game, kind="check", action="move", actor="Bea", to="time_car"),
                  follow=True)  # fmt: skip
    assert "No — Bea: non può muoversi tra l'interno del Vagone 2 e l'Automobile del Tempo" in (
        text(ask)
    )
    assert "[ADT-R4]" in text(ask)
    assert TableEvent.objects.filter(game=game, kind="action").count() == 0
    refused = gm.post(url, seen(game, kind="action", action="move", actor="Bea", to="time_car"),
                      follow=True)  # fmt: skip
    assert "[ADT-R4]" in text(refused)
    assert TableEvent.objects.filter(game=game, kind="action").count() == 0
    gm.post(url, seen(game, kind="action", action="place", actor="Bea", to="locomotive:roof"))
    done = gm.post(url, seen(game, kind="action", action="move", actor="Bea", to="time_car"),
                   follow=True)  # fmt: skip
    assert "Bea: entra nell'Automobile del Tempo dal tetto della Locomotiva [ADT-R4]" in text(done)
    table, _ = table_state(game)
    assert table.game.in_time_car() == ["Bea"]


def test_the_marshal_never_enters_from_the_desk(gm, game):
    """ADT-R18."""
    url = reverse("desks:adt_event", args=[game.pk])
    gm.post(url, seen(game, kind="stealin"))
    page = gm.post(url, seen(game, kind="action", action="marshal", to="time_car"), follow=True)
    assert "non può mai entrare nell'Automobile del Tempo [ADT-R18]" in text(page)


def spot_free_pages(client, game):
    """The GM's desk and audit pages, with everything that legitimately differs between
    two games (ids, tokens, times) taken out."""
    pages = []
    for name in ("games:detail", "games:audit"):
        page = client.get(reverse(name, args=[game.pk])).content.decode()
        page = re.sub(r"[A-Za-z0-9]{64}", "TOKEN", page)  # CSRF tokens
        page = re.sub(r"/partite/\d+/", "/partite/N/", page)
        page = re.sub(r"/giocatori/\d+/", "/giocatori/N/", page)
        page = re.sub(r"(bandit|player)-\d+", "x", page)
        page = re.sub(r'name="seen" value="[\d.]+"', "SEEN", page)  # when each was logged
        page = re.sub(r"\d+ \w+ \d\d:\d\d(:\d\d)?", "T", page)  # times
        pages.append(page)
    return pages


def test_the_hiding_is_asked_only_of_the_bandit_alone_and_sealed_from_the_gm(gm, gm_user, client):
    """ADT-R13, ADT-R14, ADT-R15: only Bea's page asks; once she chose, the GM's desk and
    audit pages are the same whichever spot she chose (nothing of where shows); the choice
    is stored, cannot be undone, and audited without the spot."""
    pages = []
    for spot in ("car1", "car3"):
        game = adt_game_create(gm=gm_user, name="Treno", bandits=BANDITS, config=CONFIG)
        bea_alone(game, gm_user)
        desk = text(gm.get(reverse("games:detail", args=[game.pk])))
        assert "Bea è solo nell'Automobile del Tempo: aspetta che scelga" in desk
        for name in ("Ada", "Bea"):
            player = game.players.get(name=name)
            token = player_link_issue(player=player)
            phone = client.__class__()
            phone.get(reverse("player_enter", args=[token]))
            page = text(phone.get(reverse("player_home")))
            assert ('id="hide-form"' in page) is (name == "Bea")
            if name == "Bea":
                phone.post(reverse("desks:player_hide"), seen(game, under=spot))
        row = TableEvent.objects.get(game=game, kind="hide")
        assert (row.data, row.sealed, row.player.name) == ({"under": spot}, True, "Bea")
        audit = AuditEvent.objects.get(game=game, kind="adt_hide")
        assert spot not in str(audit.detail)
        assert gm.post(reverse("desks:adt_undo", args=[game.pk]), seen(game)).status_code == 302
        assert TableEvent.objects.filter(game=game, kind="hide").exists()  # sealed: not undone
        pages.append(spot_free_pages(gm, game))
    assert pages[0] == pages[1]
    assert "nascosto" in pages[0][0]


def test_the_reveal_places_him_and_posts_it(gm, gm_user, game):
    """ADT-R16: when the GM opens the Stealin' phase, Bea is in the interior of car 3 and
    the reveal post says so, in BBCode and Markdown, Italian and English."""
    bea_alone(game, gm_user)
    bea = game.players.get(name="Bea")
    adt_log(game=game, kind="hide", data={"under": "car3"}, player=bea)
    page = text(gm.post(reverse("desks:adt_event", args=[game.pk]), seen(game, kind="stealin"),
                        follow=True))  # fmt: skip
    assert "[b]Automobile del Tempo: la rivelazione[/b] Inizia la fase di Furto del round 2: " \
           "Bea riappare nell'interno del Vagone 3." in page  # fmt: skip
    assert "**Time Car: the reveal** The Stealin' phase of round 2 begins: Bea reappears in " \
           "the interior of car 3." in page  # fmt: skip
    assert AuditEvent.objects.filter(game=game, kind="adt_reveal", detail__at="car3:interior")


def test_a_player_who_is_not_alone_cannot_hide(gm_user, game):
    """ADT-R13."""
    bea_alone(game, gm_user)
    with pytest.raises(Exception, match=r"ADT-R13"):
        adt_log(game=game, kind="hide", data={"under": "car1"}, player=game.players.get(name="Ada"))


def test_the_end_of_the_game_gives_the_bonus_and_the_final_post(gm, gm_user, game):
    """ADT-R17, ADT-D7: alone in the Time Car after the last Event: $500; the game is
    finished."""
    for _round in range(2):
        adt_log(game=game, kind="stealin", data={}, user=gm_user)
        adt_log(game=game, kind="round_end", data={}, user=gm_user)
    adt_log(game=game, kind="stealin", data={}, user=gm_user)
    act(game, gm_user, kind="place", actor="Cid", to="locomotive:roof")
    adt_log(game=game, kind="round_end", data={"event": "braking"}, user=gm_user)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    page = text(gm.get(reverse("games:detail", args=[game.pk])))
    assert "Cid ottiene $500 dall'Automobile del Tempo." in page
    assert "[b]Automobile del Tempo: fine della partita[/b] Fine della partita: Cid è solo" in page
    assert "**Time Car: end of the game** End of the game: Cid is alone in the Time Car" in page
