"""Browser (issue 12): a day whose 16 votes are imported from a phpBB page and an Invision
page, each selected, copied and pasted in the browser (one ambiguous name confirmed, one
quoted vote ignored, the paste repeated with nothing added), then a mid-day count."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.browser.topic import import_a_day_of_votes

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_day_of_votes_imported_from_phpbb_and_invision_then_counted(
    live_server, browser, django_user_model
):
    gm, game, _day = import_a_day_of_votes(live_server, browser, django_user_model)
    phase_url = live_server.url + reverse("games:phase", args=[game.pk])
    gm.goto(phase_url)
    gm.click("text=Conta adesso")  # mid-day count, without leaving the page
    count = gm.locator(".count-now textarea[data-format=bbcode]")
    count.wait_for()
    text = count.input_value()
    assert text.startswith("[b]Conteggio voti di Giorno 1")
    assert "Gino (13): Sam (" in text
    assert "Sam (2): Gino (" in text
    assert "Mancano" in text
