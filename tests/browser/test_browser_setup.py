"""Browser: the GM creates a 16-player Wild West Wolf game, deals and copies a link; the
player opens it on a phone-sized screen, reads his role card and submits his night action
(Playwright, system Chromium)."""

from __future__ import annotations

import pytest

from games.models import Player, Submission
from tests.browser.pages import log_in
from tests.conftest import PHONE
from tests.factories import WWW_NAMES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_gm_deals_and_a_player_acts_on_a_phone(live_server, browser, django_user_model):
    django_user_model.objects.create_user(username="master", password="pw-master-1")
    gm = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page = gm.new_page()
    log_in(page, live_server.url)
    page.click("text=Nuova partita")
    page.fill("input[name=name]", "Far West di prova")
    page.select_option("select[name=setup]", "wild-west-wolf")
    signup = "\n".join(f"{i} {n}" for i, n in enumerate(WWW_NAMES, 1))  # "12 Tempesta"
    page.fill("textarea[name=players]", f"ISCRITTI (16/16):\n{signup}")
    page.fill("input[name=seed]", "42")
    page.click("text=Avanti: controlla l'elenco")  # issue 12 §3: the list as read, first
    lines = page.inner_text("#signup-lines")
    assert "ISCRITTI (16/16):" in lines
    assert "intestazione" in lines
    assert page.locator("#signup-lines strong", has_text=WWW_NAMES[11]).count() == 1
    page.click("text=Conferma e distribuisci i ruoli")
    page.wait_for_selector("table.sheet")
    assert page.locator("table.sheet tbody tr").count() == 16
    assert page.locator("text=Indiani").first.is_visible()
    marshal = Player.objects.get(role="maresciallo")  # N0: he acts (WWW-R18)
    field = page.get_by_label(f"Link privato di {marshal.name}")
    row = page.locator("tr", has=field)
    link = field.input_value()
    row.locator("button.copy").click()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert link in copied
    assert copied.startswith(f"Ciao {marshal.name}")

    phone = browser.new_context(**PHONE).new_page()
    phone.goto(link)
    assert "/io/" in phone.url
    assert "/p/" not in phone.url
    assert phone.locator(".role-card h2").inner_text() == "Sei: Maresciallo"
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390  # no sideways scrolling on a phone
    suspect = Player.objects.get(role="indiano")
    form = phone.locator("form.action")
    form.locator("select[name=target]").select_option(suspect.name)
    form.locator("button[type=submit]").click()
    phone.wait_for_selector("text=Scelta salvata")  # the night action, saved from the phone
    action = Submission.objects.get(player=marshal)
    assert (action.phase.label, action.target) == ("N0", suspect)
