"""Issue 30, "every word read by a native speaker": a checklist of what the Italian desk
pages show after a scripted game of each desk (the GM's desk and Registro, every
player's page): no English developer message, no internal key, no raw value. The posts'
English variants (the textareas to paste) are left out: they are English on purpose."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from desks.automobile.desk import adt_game_create, adt_log
from desks.ribelle.desk import ribelle_game_create, ribelle_log
from games.services.game import player_link_issue

pytestmark = pytest.mark.django_db
NAMES = ["Sam", "Vic", "Olga", "Otto", "Rina", "Reb"]
ROLES = ["sceriffo", "vice", "fuorilegge", "fuorilegge", "rinnegato", "ribelle"]
NEVER = (
    # English developer messages and words
    "unknown", "cannot", "is not", "already played", "names no", "himself", "Sheriff",
    "Marshal", "the GM's call", "None", "Round ",
    # internal keys and raw values
    "table_", "adt_", "rib.", "adt.", "seq ", "{'", "purse:", "jewel", "strongbox",
    "time_car", ":roof", ":interior", "locomotive", "car1", "ghost_town", "dead_man",
    "high_noon", "fistful", "sceriffo", "fuorilegge", "rinnegato", "ribelle ",
    # grammar
    "vincono la Legge", "vincono il Rinnegato", "è il Ribelle!.",
)  # fmt: skip


def shown(response) -> str:
    """The words of a page: textareas (posts in every language), scripts, attribute
    values and the language switch left out."""
    page = response.content.decode()
    page = re.sub(r"<textarea.*?</textarea>", " ", page, flags=re.S)
    page = re.sub(r"<(script|select name=\"language\").*?</(script|select)>", " ", page,
                  flags=re.S)  # fmt: skip
    page = page[page.index("<main>") :]
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


def wrong(text: str) -> list[str]:
    return [phrase for phrase in NEVER if phrase in text]


def pages(gm, client, game) -> dict[str, str]:
    found = {
        "desk": shown(gm.get(game.get_absolute_url())),
        "registro": shown(gm.get(reverse("games:audit", args=[game.pk]))),
    }
    for player in game.players.order_by("seat"):
        phone = client.__class__()
        phone.get(reverse("player_enter", args=[player_link_issue(player=player)]))
        found[player.name] = shown(phone.get(reverse("player_home")))
    return found


def test_a_whole_bang_game_shows_only_italian_words(client, gm_user):
    """High Noon, a reveal, a Revolution, a Ghost Town return, an undo, the Law's win."""
    game = ribelle_game_create(gm=gm_user, name="Saloon", player_names=NAMES, seed=1,
                               options={"rib.event_deck": "high_noon"})  # fmt: skip
    roles = dict(zip(NAMES, ROLES, strict=True))
    for player in game.players.all():
        player.role = roles[player.name]
        player.save(update_fields=["role"])

    def log(kind, *players, **data):
        ribelle_log(game=game, kind=kind, players=list(players), user=gm_user, **data)

    log("turn", "Sam", phase=2)
    log("eliminated", "Olga", by="Sam", card="bang")
    log("turn", "Reb", phase=1)
    ribelle_log(game=game, kind="reveal", players=["Reb"], player=game.players.get(name="Reb"))
    log("turn", "Reb", phase=2)
    log("eliminated", "Sam", by="Reb", card="duello")
    log("turn", "Reb", phase=2)
    log("returns", "Olga", via="ghost_town")
    log("turn", "Olga", phase=1)
    log("turn", "Vic", phase=2)
    log("eliminated", "Vic", by="Otto", card="bang")
    log("turn", "Reb", phase=2)
    log("eliminated", "Otto", "Rina", by="Reb", card="gatling")
    client.force_login(gm_user)
    shown_pages = pages(client, client, game)
    assert "Rivoluzione" in shown_pages["desk"]  # the pages were read
    assert "Città Fantasma" in shown_pages["registro"]
    for name, text in shown_pages.items():
        assert wrong(text) == [], name


def test_five_time_car_rounds_show_only_italian_words(client, gm_user):
    game = adt_game_create(gm=gm_user, name="Treno", config={"cars": 3, "rounds": 5,
                           "horses_and_stagecoach": True},
                           bandits={"Ada": "django", "Bea": "belle", "Cid": "tuco"})  # fmt: skip

    def act(**data):
        adt_log(game=game, kind="action", data=data, user=gm_user)

    adt_log(game=game, kind="stealin", data={}, user=gm_user)  # round 1
    act(kind="place", actor="Bea", to="locomotive:interior")
    act(kind="move", actor="Bea", to="time_car")
    act(kind="marshal", to="car1:interior")
    adt_log(game=game, kind="round_end", data={"event": "angry_marshal"}, user=gm_user)
    adt_log(game=game, kind="hide", data={"under": "car2"}, player=game.players.get(name="Bea"))
    adt_log(game=game, kind="stealin", data={}, user=gm_user)  # round 2: Bea reappears
    act(kind="place", actor="Ada", to="locomotive:interior")
    act(kind="move", actor="Ada", to="time_car")
    act(kind="place", actor="Cid", to="locomotive:interior")
    act(kind="fire", actor="Ada", target="Cid")
    act(kind="place", actor="Cid", to="locomotive:roof")
    adt_log(game=game, kind="round_end", data={"event": "braking"}, user=gm_user)
    adt_log(game=game, kind="stealin", data={}, user=gm_user)  # round 3
    act(kind="punch", actor="Ada", target="Cid", to="locomotive:interior", loot="jewel")
    act(kind="ride", actor="Bea", to="car3:roof")
    adt_log(game=game, kind="round_end", data={"event": None}, user=gm_user)
    adt_log(game=game, kind="hide", data={"under": "car1"}, player=game.players.get(name="Ada"))
    for _round in (4, 5):
        adt_log(game=game, kind="stealin", data={}, user=gm_user)
        act(kind="change_floor", actor="Bea")
        adt_log(game=game, kind="round_end", data={"event": "swivel_arm"}, user=gm_user)
    client.force_login(gm_user)
    shown_pages = pages(client, client, game)
    assert "Frenata" in shown_pages["desk"]  # the pages were read
    assert "un gioiello ($500)" in shown_pages["desk"]
    assert "Italiano · BBCode" in shown_pages["desk"]  # the posts' formats by their names
    for name, text in shown_pages.items():
        assert wrong(text) == [], name
