"""Browser, on a 390 px phone (issue 12 §5): the GM's phase page, the role sheet and a
player's page never scroll sideways as a whole (a wide table scrolls in its own box);
changing the interface language never wipes what is being typed."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.services.phases import current_phase, phase_commit
from games.services.submissions import will_save
from tests.browser.pages import CULPRITS, WIDE, busy_game, gm_phone, phone_for
from tests.conftest import PHONE
from tests.factories import make_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_phase_page_sheet_and_player_page_fit_a_390px_phone(live_server, browser, gm_user):
    game = busy_game(gm_user)
    gm = gm_phone(browser, live_server)
    for url in (reverse("games:phase", args=[game.pk]), reverse("games:detail", args=[game.pk])):
        gm.goto(live_server.url + url)
        for details in gm.locator("details").all():
            details.evaluate("d => d.open = true")  # the folded forms too
        assert gm.evaluate(WIDE) <= 390, (url, gm.evaluate(CULPRITS))
    # the night, with the Indians' disagreement and a void choice
    phase_commit(phase=current_phase(game), user=gm_user)  # D2
    gm.goto(live_server.url + reverse("games:phase", args=[game.pk]))
    assert gm.locator("[data-disagreement]").count() == 1
    assert gm.evaluate(WIDE) <= 390, gm.evaluate(CULPRITS)
    for role in ("sciamano", "maestrina", "cowboy"):
        phone = phone_for(browser, live_server, game.players.filter(role=role).last())
        assert phone.evaluate(WIDE) <= 390, (role, phone.evaluate(CULPRITS))


def test_switching_language_keeps_what_is_being_typed(live_server, browser, gm_user):
    game = make_game(gm_user)
    phase_commit(phase=current_phase(game), user=gm_user)  # N0
    player = game.players.filter(role="cowboy").first()
    phone = phone_for(browser, live_server, player)
    typed = "Non fidatevi di Pia: ha mentito due volte.\nLo Sceriffo sa perché."
    phone.fill("textarea[name=text]", typed)  # the will, not saved
    target = phone.locator("form.vote select[name=target]")
    target.select_option("Pia")
    with phone.expect_navigation():
        phone.select_option("select[name=language]", "en")
    assert phone.locator("html").get_attribute("lang") == "en"
    assert phone.locator("#will h2").inner_text() == "Your will"
    assert phone.input_value("textarea[name=text]") == typed
    assert phone.locator("form.vote select[name=target]").input_value() == "Pia"
    assert phone.locator("[data-word-count]").inner_text() == str(len(typed.split()))
    # the kept text is forgotten once put back: a plain reload shows the saved draft only
    phone.reload()
    assert phone.input_value("textarea[name=text]") == ""

    # the GM's reason for a deadline move, typed then the language switched back
    gm = gm_phone(browser, live_server)
    gm.goto(live_server.url + reverse("games:phase", args=[game.pk]))
    gm.locator("details").first.evaluate("d => d.open = true")
    gm.fill("input[name=reason] >> nth=0", "Il forum è fermo per manutenzione")
    with gm.expect_navigation():
        gm.select_option("select[name=language]", "en")
    assert gm.input_value("input[name=reason] >> nth=0") == "Il forum è fermo per manutenzione"


def test_without_javascript_the_language_switch_keeps_the_saved_draft(
    live_server, browser, gm_user
):
    game = make_game(gm_user)
    player = game.players.filter(role="cowboy").first()
    will_save(player=player, text="Bozza salvata.")
    phone = browser.new_context(**PHONE, java_script_enabled=False).new_page()
    from games.services.game import player_link_issue

    phone.goto(live_server.url + reverse("player_enter", args=[player_link_issue(player=player)]))
    phone.select_option("select[name=language]", "en")
    with phone.expect_navigation():
        phone.click("form[data-language-switch] button[type=submit]")
    assert phone.locator("html").get_attribute("lang") == "en"
    assert phone.input_value("textarea[name=text]") == "Bozza salvata."
