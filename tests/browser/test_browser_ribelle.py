"""Browser: a 6-player BANG! con Il Ribelle! game from the GM's new-game form to the Law's
win: the Rebel! reveals from his phone at the end of phase 1 of his turn, shoots the
Sheriff in his turn (the Revolution, its checklist and post), then the Rebel!-Sheriff
eliminates the Outlaws and the Renegade (RIB-R4, R9, R11, D7)."""

from __future__ import annotations

import re

import pytest

from games.models import Game
from tests.browser.pages import gm_page
from tests.conftest import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
NAMES = ["Sam", "Vic", "Olga", "Otto", "Rina", "Reb"]


def log(gm, form: str, **fields: str | list[str]) -> None:
    """Fill one of the desk's forms and submit it."""
    box = gm.locator(form)
    for name, value in fields.items():
        if isinstance(value, list):
            for v in value:
                box.locator(f"input[name={name}][value='{v}']").check()
        else:
            box.locator(f"select[name={name}]").select_option(value)
    with gm.expect_navigation():
        box.locator("button[type=submit]").click()


def test_six_player_game_with_a_reveal_and_a_revolution_to_the_laws_win(
    live_server, browser, django_user_model
):
    django_user_model.objects.create_user(username="master", password="pw-master-1")
    gm = gm_page(browser, live_server)
    gm.click("text=Nuova partita BANG! con Il Ribelle!")
    gm.fill("input[name=name]", "Saloon")
    gm.fill("textarea[name=players]", "\n".join(NAMES))
    gm.fill("input[name=seed]", "12")
    gm.click("text=Crea e distribuisci i ruoli")
    gm.wait_for_selector("text=Ruoli distribuiti")
    game = Game.objects.get(name="Saloon")
    roles = {p.role: p.name for p in game.players.all()}
    deputy = game.players.get(role="vice").name
    sheriff, rebel = roles["sceriffo"], roles["ribelle"]
    outlaws = list(game.players.filter(role__in=["fuorilegge", "rinnegato"])
                   .values_list("name", flat=True))  # fmt: skip
    assert gm.locator("#sheriff").inner_text() == sheriff

    # the Rebel!'s private link, opened on a phone
    row = gm.locator("tr", has=gm.locator(f"td:text-is('{rebel}')"))
    link = row.locator("input[readonly]").input_value()
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(link)
    assert "Il tuo ruolo: Ribelle!" in phone.inner_text("main")
    assert "in prima persona" in phone.inner_text("main")
    assert phone.locator("#reveal-form").count() == 0  # not his turn yet

    log(gm, "#turn-form", player=rebel, phase="1")
    phone.reload()
    phone.check("#reveal-form input[name=confirm]")  # irreversible: confirmed first
    phone.click("text=Scopri il mio ruolo: sono il Ribelle!")
    phone.wait_for_selector(f"text={rebel} scopre il suo ruolo")
    assert phone.locator("#reveal-form").count() == 0

    gm.reload()
    assert rebel in gm.inner_text("#table-state")
    assert f"[b]{rebel} scopre la sua carta: è il Ribelle![/b]" in gm.locator(
        "textarea.post").first.input_value()  # fmt: skip

    log(gm, "#turn-form", player=rebel, phase="2")
    log(gm, "#elimination-form", players=[sheriff], by=rebel, card="bang")
    text = gm.inner_text("main")
    assert (f"Rivoluzione! {rebel} ha eliminato lo Sceriffo {sheriff} durante il suo turno e "
            "diventa il nuovo Sceriffo. [RIB-R11]") in text  # fmt: skip
    checklist = gm.locator(".checklist")
    assert checklist.locator("label").count() == 4
    assert re.search(r"1\. .*\[RIB-R12\]", checklist.inner_text())
    assert gm.locator("#sheriff").inner_text() == rebel
    posts = [t.input_value() for t in gm.locator("textarea.post").all()]
    assert any(p.startswith(f"[b]Rivoluzione! {rebel} è il nuovo Sceriffo[/b]") for p in posts)

    log(gm, "#elimination-form", players=outlaws, by=rebel, card="gatling")
    gm.wait_for_selector("#game-over")
    winners = gm.inner_text("#game-over").split(": ", 1)[1].split(", ")
    assert sorted(winners) == sorted([deputy, rebel])  # the Deputy is the new Sheriff's ally
    final = [t.input_value() for t in gm.locator("textarea.post").all()][-4:]
    assert final[0].startswith("[b]Fine della partita: vince la Legge[/b]")
    assert final[1].startswith("**Fine della partita: vince la Legge**")
    assert final[2].startswith("[b]Game over: the Law wins[/b]")
    assert f"{rebel}: Ribelle!, poi Sceriffo — [b]vince[/b]" in final[0]
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED

    phone.reload()
    assert "hai vinto" in phone.inner_text("#result")
