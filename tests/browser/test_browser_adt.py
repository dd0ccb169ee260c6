"""Browser: a Colt Express game with the Time Car from the GM's new-game form. The GM
applies Bea's moves into the Time Car with the checker and ends the round; Bea, alone in
it, hides from her phone through her private link; the GM's desk and audit show nothing
of where; the GM opens the Stealin' phase and the reveal post places her (ADT-R4, R13,
R14, R15, R16)."""

from __future__ import annotations

import pytest

from tests.browser.pages import gm_page
from tests.conftest import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def submit(gm, form: str, button: str = "button[type=submit]", **selects: str) -> None:
    box = gm.locator(form)
    for name, value in selects.items():
        box.locator(f"select[name={name}]").select_option(value)
    box.locator(button).first.click()
    gm.wait_for_load_state()


def test_a_bandit_hides_from_his_phone_and_the_reveal_post_places_him(
    live_server, browser, django_user_model
):
    django_user_model.objects.create_user(username="master", password="pw-master-1")
    gm = gm_page(browser, live_server)
    gm.click("text=Nuova partita Colt Express con l'Automobile del Tempo")
    gm.fill("input[name=name]", "Treno")
    gm.fill("textarea[name=bandits]", "Ada: Django\nBea: Belle\nCid: Tuco")
    gm.fill("input[name=rounds]", "3")
    gm.click("text=Crea la partita")
    gm.wait_for_selector("text=Partita creata")
    row = gm.locator("tr", has=gm.locator("td:text-is('Bea')"))
    link = row.locator("input[readonly]").input_value()

    submit(gm, "#stealin-form")
    submit(gm, "#checker", "button[value=check]", action="move", actor="Bea", to="time_car")
    assert gm.inner_text("#answer").startswith("No — Bea: non può muoversi")
    assert "[ADT-R4]" in gm.inner_text("#answer")
    submit(gm, "#checker", "button[value=action]", action="place", actor="Bea",
           to="locomotive:interior")  # fmt: skip
    submit(gm, "#checker", "button[value=action]", action="move", actor="Bea", to="time_car")
    assert "Bea: entra nell'Automobile del Tempo dall'interno della Locomotiva [ADT-R4]" in (
        gm.inner_text("main")
    )
    assert gm.inner_text("#time-car") == "Bea"
    submit(gm, "#round-end-form")
    assert "Bea è solo nell'Automobile del Tempo" in gm.inner_text("#awaiting")

    phone = browser.new_context(**PHONE).new_page()
    phone.goto(link)
    assert "Sei solo nell'Automobile del Tempo" in phone.inner_text("main")
    phone.locator("#hide-form input[value=car1]").check()
    phone.click("text=Nasconditi qui")
    phone.wait_for_selector("text=Ti sei nascosto")
    assert phone.locator("#hide-form").count() == 0

    gm.reload()
    desk = gm.inner_text("main")
    assert "Vagone 1" not in desk  # nothing of where: nobody stands in car 1
    assert gm.locator("#positions tr", has_text="Bea").locator("td.place").inner_text() == (
        "nascosto"
    )
    assert "Bea si è nascosto (dove, lo sa solo lui fino alla rivelazione)." in desk
    gm.click("text=Registro")
    assert "car1" not in gm.inner_text("main")
    assert "bandito nascosto" in gm.inner_text("main")  # the audit kind adt_hide, in words
    gm.go_back()

    submit(gm, "#stealin-form")
    posts = [t.input_value() for t in gm.locator("textarea.post").all()]
    assert any(p.endswith("Bea riappare nell'interno del Vagone 1.") for p in posts)
    assert "[b]Automobile del Tempo: la rivelazione[/b]" in posts[-4]
    assert "l'interno del Vagone 1" in gm.locator("#positions tr", has_text="Bea").inner_text()
    phone.reload()
    assert "l'interno del Vagone 1" in phone.inner_text("#my-place")
