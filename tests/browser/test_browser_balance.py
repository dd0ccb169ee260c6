"""Browser: the GM opens Bilanciamento, starts a big study and cancels it, starts a small
one and watches its progress bar (htmx polling) until its plots appear (Playwright,
system Chromium, a real Celery worker)."""

from __future__ import annotations

import pytest

from lab.models import BalanceStudy
from tests.browser.pages import log_in

pytestmark = [
    pytest.mark.browser, pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)
]  # fmt: skip


def test_gm_starts_watches_cancels_and_reads_studies(
    live_server, browser, celery_worker_process, django_user_model
):
    django_user_model.objects.create_user(username="master", password="pw-master-1")
    page = browser.new_page()
    log_in(page, live_server.url)
    page.click("text=Bilanciamento")
    page.wait_for_load_state()  # htmx listens from here: the setup's swap below is heard
    assert page.input_value("input[name=games]") == "20000"

    page.select_option("select[name=setup]", "wild-west-wolf")
    page.wait_for_selector("input[name=opt_www__reveal_role_on_death]", state="attached")
    page.fill("input[name=games]", "200000")
    page.click("text=Avvia lo studio")
    page.wait_for_selector("#progress progress")
    page.click("button.cancel")
    page.wait_for_selector("p.cancelled")  # the games played before, kept (issue 30)
    big = BalanceStudy.objects.get(games=200000)
    assert big.status == BalanceStudy.Status.CANCELLED
    assert big.parts.count() < big.chunks

    page.click("text=← Bilanciamento")
    page.wait_for_url(f"{live_server.url}/bilanciamento/")
    page.wait_for_load_state()  # as above: a change before htmx listens was lost
    page.select_option("select[name=setup]", "inquisizione")
    page.wait_for_selector("input[name=opt_inq__reveal_role_on_death]", state="attached")
    page.fill("input[name=games]", "1500")
    page.select_option("select[name=model]", "random")
    page.click("text=Avvia lo studio")
    page.wait_for_selector("#progress progress")
    # the bar moves without a reload: htmx replaces it while the chunks come in
    page.wait_for_function(
        "() => { const bar = document.querySelector('#progress progress');"
        " return !bar || bar.value > 0; }",
        timeout=180_000,
    )
    page.wait_for_selector("svg.plot", timeout=180_000)  # done: the page shows the figures
    assert page.locator("svg.plot").count() >= 5
    assert page.locator("table.figures").first.is_visible()
    assert "Eresia" in page.locator("table.figures").first.inner_text()
    small = BalanceStudy.objects.get(games=1500)
    assert small.status == BalanceStudy.Status.DONE
    assert small.figures["first"]["games"] == 1500

    page.click("text=← Bilanciamento")
    rows = page.locator("table.studies tbody tr")
    assert rows.count() == 2
    rows.filter(has_text="Eresia vs Inquisizione").locator("a").click()
    page.wait_for_selector("svg.plot")


@pytest.mark.django_db(transaction=True)
def test_an_unsimulated_option_is_marked_and_refused_as_a_comparison(
    live_server, browser, django_user_model
):
    """Issue 30 major 6: "rivela il ruolo alla morte" is marked as not simulated, and a
    second variant that ticks it is refused with the reason (it used to run and say the
    Law "wins as often")."""
    django_user_model.objects.create_user(username="master", password="pw-master-1")
    page = browser.new_page(viewport={"width": 390, "height": 844})
    log_in(page, live_server.url)
    # the setup by its link (no htmx swap racing the clicks below)
    page.goto(f"{live_server.url}/bilanciamento/?setup=wild-west-wolf")
    page.wait_for_selector("input[name=vs_www__reveal_role_on_death]", state="attached")
    page.click("text=Opzioni del regolamento")
    reveal = page.locator("label.option", has=page.locator("[name=opt_www__reveal_role_on_death]"))
    assert "(non simulata: non cambia i risultati)" in reveal.inner_text()
    page.click("text=Seconda variante (facoltativa)")
    page.check("input[name=versus]")
    page.check("input[name=vs_www__reveal_role_on_death]")
    page.fill("input[name=games]", "1000")
    page.click("text=Avvia lo studio")
    alert = page.wait_for_selector("div.error[role=alert]")
    assert "non simula Rivela il ruolo alla morte" in alert.inner_text()
    assert not BalanceStudy.objects.exists()
