"""Browser: a page logs no error in the console (issue 31 minor: "Every page logs a 404
for /favicon.ico; after a POST the player's page logs a CSP "inline style" error"). Every
kind of a player's POST (a night action and its withdrawal, a vote, a will's draft, a dead
player's draft and hand-in), through htmx and as a plain form without JavaScript, leaves
a page that logs no Content-Security-Policy violation nor any other console error."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Page

from games.services.game import player_link_issue
from games.services.phases import current_phase, phase_commit
from games.services.submissions import vote_cast
from tests.browser.pages import CSP_LISTEN
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


def open_phone(browser, live_server, player, *, javascript: bool) -> tuple[Page, list[str]]:
    context = browser.new_context(**PHONE, java_script_enabled=javascript)
    context.add_init_script(CSP_LISTEN)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.goto(live_server.url + reverse("player_enter", args=[player_link_issue(player=player)]))
    return page, errors


def clean(page: Page, errors: list[str], *, javascript: bool) -> list[str]:
    """What the page logged, once the swap or the redirect has settled."""
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(300)
    seen = list(errors)
    if javascript:
        seen += page.evaluate("window.__violations")
    return seen


def dead_cowboy_day(gm_user):
    """Day 2 of a Wild West Wolf game: a cowboy executed on Day 1 (his will still open),
    the Indians' night still to choose."""
    game = make_game(gm_user, seed=3)
    phase_commit(phase=current_phase(game), user=gm_user)  # N0
    cowboy = game.players.filter(role="cowboy").first()
    day = current_phase(game)
    for voter in game.players.exclude(pk=cowboy.pk)[:6]:
        vote_cast(phase=day, player=voter, target=cowboy)
    phase_commit(phase=day, user=gm_user)  # D1: the cowboy is executed
    return game, cowboy


@pytest.mark.usefixtures("before_noon")  # the dead cowboy's will still open
@pytest.mark.parametrize("javascript", [True, False], ids=["htmx", "plain"])
def test_no_csp_violation_after_any_player_post(live_server, browser, gm_user, javascript):
    game, cowboy = dead_cowboy_day(gm_user)
    indian = game.players.get(role="indiano")
    victim = game.players.filter(role="cowboy").exclude(pk=cowboy.pk).first()

    phone, errors = open_phone(browser, live_server, indian, javascript=javascript)
    form = phone.locator("form.action", has=phone.locator("input[value=pack_kill]"))
    form.locator("select[name=target]").select_option(victim.name)
    form.locator("button[type=submit]:not(.withdraw)").click()
    phone.wait_for_selector("text=Scelta salvata")
    assert clean(phone, errors, javascript=javascript) == [], "action"
    phone.locator("form.action button.withdraw").first.click()  # the withdrawal
    assert clean(phone, errors, javascript=javascript) == [], "withdrawal"
    # A player who drags the textarea's corner gives it a style attribute (the browser
    # writes it, the policy allows that): htmx must not copy it onto the swapped form.
    phone.locator("textarea[name=text]").evaluate("t => { t.style.height = '20em'; }")
    phone.locator("textarea[name=text]").fill("Fidatevi di Sam.")
    phone.locator("#will button[type=submit]").click()  # a living player's draft
    phone.wait_for_selector("text=Testamento salvato")
    assert clean(phone, errors, javascript=javascript) == [], "draft"

    dead, errors = open_phone(browser, live_server, cowboy, javascript=javascript)
    dead.locator("textarea[name=text]").fill("Ero un cowboy onesto.")
    dead.locator("#will button[name=draft]").click()
    dead.wait_for_selector("text=Testamento salvato")
    assert clean(dead, errors, javascript=javascript) == [], "dead player's draft"
    dead.locator("details.hand-in summary").click()
    dead.locator("#will button[name=hand_in]").click()
    dead.wait_for_selector("text=Testamento consegnato")
    assert clean(dead, errors, javascript=javascript) == [], "hand-in"


@pytest.mark.parametrize("javascript", [True, False], ids=["htmx", "plain"])
def test_no_csp_violation_after_a_vote_and_its_change(live_server, browser, gm_user, javascript):
    game = make_game(gm_user, seed=3)
    phase_commit(phase=current_phase(game), user=gm_user)  # N0
    phone, errors = open_phone(browser, live_server, game.players.get(role="sceriffo"),
                               javascript=javascript)  # fmt: skip
    for index in (2, 3):  # a vote, then a change
        phone.locator("form.vote select[name=target]").select_option(index=index)
        phone.locator("form.vote button[type=submit]").click()
        phone.wait_for_selector("text=Voto registrato")
        assert clean(phone, errors, javascript=javascript) == [], index
