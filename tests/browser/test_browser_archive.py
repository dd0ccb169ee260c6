"""Browser, issue 31 major 3: on a 390 px phone with JavaScript off, the GM archives a game
that has been played, finds it under «Archiviate», restores it, and deletes a spare game
after typing its name (a wrong name first: refused, nothing deleted); issue 31 major 4: the
notice of a day the clock resolved fits the phone and goes when the GM has seen it."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from games.models import Game, Phase
from games.services.clock import deadlines_run
from games.services.phases import current_phase, phase_commit
from tests.browser.pages import WIDE, gm_phone
from tests.conftest import PHONE
from tests.factories import make_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def card(page, name):
    return page.locator("li.card", has=page.locator(f"strong:text-is('{name}')"))


def test_archive_restore_and_delete_without_javascript_on_a_phone(live_server, browser, gm_user):
    played = make_game(gm_user, name="Far West")
    phase_commit(phase=current_phase(played), user=gm_user)
    make_game(gm_user, name="Doppione")
    gm = browser.new_context(**PHONE, java_script_enabled=False).new_page()
    gm.goto(f"{live_server.url}/")
    gm.fill("input[name=username]", "master")
    gm.fill("input[name=password]", "pw-master-1")
    with gm.expect_navigation():
        gm.click("form.card button[type=submit]")  # without JS the language switch has one too

    assert card(gm, "Far West").locator("text=Elimina").count() == 0  # played: archive first
    card(gm, "Far West").locator("text=Archivia").click()
    assert "Archiviare «Far West»?" in gm.inner_text("h1")
    gm.click("text=Sì, archivia")
    assert "è archiviata" in gm.inner_text(".messages")
    archived = gm.locator("#archived")
    assert archived.locator("strong:text-is('Far West')").count() == 1
    assert gm.locator("main > ul.cards strong:text-is('Far West')").count() == 0

    archived.locator("button:text-is('Ripristina')").click()
    assert "di nuovo tra le tue partite" in gm.inner_text(".messages")
    assert gm.locator("#archived").count() == 0
    assert card(gm, "Far West").count() == 1

    card(gm, "Doppione").locator("text=Elimina").click()
    gm.fill("input[name=name]", "Doppio")
    gm.click("text=Elimina per sempre")
    assert "non è stata eliminata" in gm.inner_text("#delete")
    assert Game.objects.filter(name="Doppione").exists()
    gm.fill("input[name=name]", "Doppione")
    gm.click("text=Elimina per sempre")
    assert "«Doppione» è stata eliminata" in gm.inner_text(".messages")
    assert not Game.objects.filter(name="Doppione").exists()
    assert Game.objects.filter(name="Far West", archived_at__isnull=True).exists()

    # issue 31 major 4: the clock resolves the day; the notice fits the phone and goes
    day = current_phase(played)
    Phase.objects.filter(pk=day.pk).update(closes_at=timezone.now() - dt.timedelta(seconds=1))
    assert deadlines_run() == {"committed": 1}
    js = gm_phone(browser, live_server)
    js.wait_for_selector("#clock-notice")
    assert "Il Giorno 1 si è chiuso da solo" in js.inner_text("#clock-notice")
    assert js.evaluate(WIDE) <= 390
    with js.expect_navigation():
        js.click("#clock-notice button:text-is('Visto, nascondi')")
    assert js.locator("#clock-notice").count() == 0
