"""Browser, the desks on a 390 px phone (issue 30 minors): the GM's tables wrap between
words, never letter by letter, and «Nuovo link» is a button, not a vertical strip; the
hiding form's radio buttons sit beside their labels (ADT-R14)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from desks.automobile.desk import adt_game_create, adt_log
from desks.ribelle.desk import ribelle_game_create
from tests.browser.pages import gm_phone, phone_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
LINES = """cell => { const r = document.createRange(); r.selectNodeContents(cell.firstChild);
  return new Set(Array.from(r.getClientRects()).map(x => Math.round(x.top))).size; }"""
ONE_LINE = 48  # a button on one line: 2.5rem min-height and its border, in px


def test_the_desk_tables_and_the_hiding_form_on_a_phone(live_server, browser, django_user_model):
    gm_user = django_user_model.objects.create_user(username="master", password="pw-master-1")
    names = ["Samuele", "Vittoria", "Olga", "Ottone"]
    saloon = ribelle_game_create(gm=gm_user, name="Saloon", seed=3, player_names=names)
    train = adt_game_create(gm=gm_user, name="Treno", config={"cars": 3, "rounds": 3},
                            bandits={"Ada": "django", "Bea": "belle"})  # fmt: skip
    adt_log(game=train, kind="stealin", data={}, user=gm_user)
    for data in ({"kind": "place", "actor": "Bea", "to": "locomotive:interior"},
                 {"kind": "move", "actor": "Bea", "to": "time_car"}):  # fmt: skip
        adt_log(game=train, kind="action", data=data, user=gm_user)
    adt_log(game=train, kind="round_end", data={"event": None}, user=gm_user)
    gm = gm_phone(browser, live_server)
    for game in (saloon, train):
        gm.goto(live_server.url + reverse("games:detail", args=[game.pk]))
        button = gm.locator("table.sheet button:text('Nuovo link')").first.bounding_box()
        assert button["height"] <= ONE_LINE, button
        assert button["width"] > button["height"], button
        for cell in gm.locator("table.sheet tbody tr td:nth-child(2)").all():
            lines = cell.evaluate(LINES)  # the name is not cut letter by letter
            assert lines == 1, (cell.inner_text(), lines)

    bea = phone_for(browser, live_server, train.players.get(name="Bea"))
    for option in bea.locator("#hide-form label.option").all():
        radio = option.locator("input[type=radio]").bounding_box()
        label = option.bounding_box()
        assert radio["x"] - label["x"] < 8, (radio, label)  # the radio starts its line
        assert radio["width"] < 40, radio  # not stretched across the line
