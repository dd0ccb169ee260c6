"""Browser: a page logs no error in the console (issue 31 minor: favicon 404, CSP)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.services.game import player_link_issue
from games.services.phases import current_phase, phase_commit
from tests.conftest import PHONE
from tests.factories import make_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_player_page_logs_no_error_before_or_after_a_post(live_server, browser, django_user_model):
    """Issue 31 minor: every page logged a 404 for /favicon.ico, and after a POST the
    player's page logged a Content-Security-Policy "inline style" error."""
    gm_user = django_user_model.objects.create_user(username="master", password="pw-master-1")
    game = make_game(gm_user, seed=3)
    phase_commit(phase=current_phase(game), user=gm_user)  # N0
    phase_commit(phase=current_phase(game), user=gm_user)  # D1: nobody voted
    indian = game.players.get(role="indiano")
    victim = game.players.filter(role="cowboy").first()
    phone = browser.new_context(**PHONE).new_page()
    errors: list[str] = []
    phone.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    phone.on("pageerror", lambda e: errors.append(str(e)))
    failed: list[str] = []
    phone.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
    phone.goto(live_server.url + reverse("player_enter", args=[player_link_issue(player=indian)]))
    form = phone.locator("form.action", has=phone.locator("input[value=pack_kill]"))
    form.locator("select[name=target]").select_option(victim.name)
    form.locator("button[type=submit]").click()
    phone.wait_for_selector("text=Scelta salvata")
    phone.reload()  # the page after a POST, without htmx too
    phone.wait_for_timeout(300)
    assert phone.locator("link[rel=icon]").count() == 1
    assert failed == []
    assert errors == []


def watch(page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    return errors


def test_a_day_vote_and_a_will_log_no_error(live_server, browser, django_user_model):
    """Issue 31 minor: after a POST the player's page logged a CSP "inline style" error."""
    gm_user = django_user_model.objects.create_user(username="master", password="pw-master-1")
    game = make_game(gm_user, seed=3)
    phase_commit(phase=current_phase(game), user=gm_user)  # N0
    voter = game.players.get(role="sceriffo")
    phone = browser.new_context(**PHONE).new_page()
    errors = watch(phone)
    phone.goto(live_server.url + reverse("player_enter", args=[player_link_issue(player=voter)]))
    form = phone.locator("form.vote")
    form.locator("select[name=target]").select_option(index=2)
    form.locator("button[type=submit]").click()
    phone.wait_for_selector("form.vote .notice.ok")
    phone.wait_for_timeout(500)
    assert errors == []
    phone.locator("form.vote select[name=target]").select_option(index=3)
    phone.locator("form.vote button[type=submit]").click()
    phone.wait_for_timeout(800)
    assert errors == []
