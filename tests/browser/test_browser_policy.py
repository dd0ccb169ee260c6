"""Issue 9, #11: the pages and the Django admin work in Chromium under the
Content-Security-Policy (django-csp): no violation reported, every behaviour there
(tests/system/test_security_headers.py checks the headers and the markup)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.services.phases import current_phase
from tests.browser.pages import log_in, policy_watched
from tests.conftest import PHONE
from tests.factories import WWW_NAMES, make_game


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_11_the_pages_work_under_the_policy_in_chromium(live_server, browser, django_user_model):
    """The GM's path (login, deal, copy a link, phase page with its htmx refresh, posts,
    language switch) and a player's (vote by htmx): no policy violation, everything works."""
    gm_user = django_user_model.objects.create_user(username="master", password="pw-master-1")
    violations: list[str] = []
    gm = policy_watched(browser.new_context(permissions=["clipboard-read", "clipboard-write"]),
                        violations)  # fmt: skip
    log_in(gm, live_server.url)
    gm.click("text=Nuova partita")
    gm.fill("input[name=name]", "CSP")
    gm.fill("textarea[name=players]", "\n".join(WWW_NAMES))
    gm.click("text=Avanti: controlla l'elenco")  # the list as read (issue 12 §3)
    gm.click("text=Conferma e distribuisci i ruoli")
    gm.wait_for_selector("table.sheet")
    game = gm_user.games.get()
    first = game.players.get(role="sceriffo")
    field = gm.get_by_label(f"Link privato di {first.name}")
    field.click()
    assert gm.evaluate("window.getSelection().toString() || document.activeElement.selectionEnd")
    gm.locator("tr", has=field).locator("button.copy").click()
    gm.wait_for_selector("button.copy:has-text('Copiato!')")
    old = field.input_value()
    assert gm.evaluate("window.__violations") == []
    # a form sent from the page that shows the links works (no "Origin: null" refusal)
    gm.locator("tr", has=field).locator("summary:has-text('Nuovo link')").click()
    gm.locator("tr", has=field).locator("button:has-text('Sì, nuovo link')").click()
    gm.wait_for_selector("text=il precedente non funziona più")
    link = gm.get_by_label(f"Link privato di {first.name}").input_value()
    assert link != old
    gm.goto(f"{live_server.url}{reverse('games:phase', args=[game.pk])}")
    gm.locator("form[data-submit-once] button").click()  # commit N0
    gm.wait_for_selector("text=Giorno 1")
    assert gm.evaluate("window.__violations") == []
    gm.goto(f"{live_server.url}{reverse('games:posts', args=[game.pk])}")
    gm.locator("button[data-copy-from]").first.click()
    gm.wait_for_selector("button[data-copy-from]:has-text('Copiato!')")
    assert "[b]" in gm.evaluate("navigator.clipboard.readText()")
    gm.select_option("select[name=language]", "en")
    gm.wait_for_selector("html[lang=en]")
    assert gm.evaluate("window.__violations") == []

    phone = policy_watched(browser.new_context(**PHONE), violations)
    phone.goto(link)
    target = game.players.exclude(pk=first.pk).first()
    form = phone.locator("form.vote").first
    form.locator("select[name=target]").select_option(target.name)
    form.locator("button[type=submit]").click()
    phone.wait_for_selector("text=Voto registrato")
    assert phone.evaluate("window.__violations") == []
    assert violations == []
    assert current_phase(game).submissions.filter(player=first, target=target).exists()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_11_the_admin_works_under_the_policy_in_chromium(live_server, browser, django_user_model):
    """Issue 9, #11 and #5: the Django admin (the staff account's) under the same policy:
    its login, the index, a change list with its filters, a change form with an
    inline, the user forms: no violation in Chromium, and its pages carry the policy."""
    staff = django_user_model.objects.create_superuser(username="staff", password="pw-staff-1")
    game = make_game(staff, name="Amministrata")
    violations: list[str] = []
    page = policy_watched(browser.new_context(), violations)
    response = page.goto(f"{live_server.url}/admin/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page.fill("input[name=username]", "staff")
    page.fill("input[name=password]", "pw-staff-1")
    page.click("input[type=submit]")
    page.wait_for_selector("#site-name")
    seen = []
    for path in ("/admin/", "/admin/games/game/", "/admin/games/game/?status__exact=open",
                 f"/admin/games/game/{game.pk}/change/", "/admin/auth/user/",
                 "/admin/auth/user/add/"):  # fmt: skip
        response = page.goto(f"{live_server.url}{path}")
        assert response.status == 200, path
        page.wait_for_load_state("load")
        seen.append(page.evaluate("window.__violations"))
    page.goto(f"{live_server.url}/admin/games/game/")
    page.wait_for_selector("text=Amministrata")
    page.locator("#changelist-filter a").last.click()  # the filter sidebar
    page.wait_for_load_state("load")
    page.click("#toggle-nav-sidebar")  # the admin's own script runs
    seen.append(page.evaluate("window.__violations"))
    assert seen == [[]] * len(seen), seen
    assert violations == []
