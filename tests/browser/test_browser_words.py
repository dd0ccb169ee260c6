"""Browser (issue 13 §2, done when): the phase page, a player's page and the spoiler of a
played Wild West Wolf game, in Italian, screenshotted; their text holds no engine key and
none of the English sentences of the engine's catalogue."""

from __future__ import annotations

import pytest
import time_machine
from django.urls import reverse

from games.models import Submission
from games.services.phases import current_phase, phase_commit
from games.services.submissions import action_submit
from tests.browser.pages import gm_page, phone_for
from tests.factories import tomorrow_morning
from tests.played import played_game
from tests.words import untranslated

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_italian_pages_screenshotted_hold_no_engine_word(
    live_server, browser, django_user_model, tmp_path
):
    gm_user = django_user_model.objects.create_user(username="master", password="pw-master-1")
    with time_machine.travel(tomorrow_morning(), tick=True):
        finished = played_game(gm_user)
        game = played_game(gm_user, finish=False)
        phase_commit(phase=current_phase(game), user=gm_user)  # D3: nobody votes
        night = current_phase(game)  # N3: an attack, an answer, a refused submission
        cowboy = game.players.filter(role="cowboy").order_by("seat").last()
        action_submit(phase=night, player=game.players.get(role="indiano"), target=cowboy)
        marshal = game.players.get(role="maresciallo")
        action_submit(phase=night, player=marshal, target=cowboy)
        teacher = game.players.get(role="maestrina")
        Submission.objects.create(phase=night, player=teacher, kind=Submission.Kind.ACTION,
                                  slot="accompany", target=teacher)  # fmt: skip

        gm = gm_page(browser, live_server)
        shots = {
            "phase": live_server.url + reverse("games:phase", args=[game.pk]),
            "spoiler": live_server.url + reverse("games:spoiler", args=[finished.pk]),
        }
        texts = {}
        for name, url in shots.items():
            gm.goto(url)
            gm.screenshot(path=str(tmp_path / f"{name}.png"), full_page=True)
            texts[name] = gm.locator("body").inner_text()
        phone = phone_for(browser, live_server, marshal)
        phone.screenshot(path=str(tmp_path / "player.png"), full_page=True)
        texts["player"] = phone.locator("body").inner_text()

    assert "Subentrato è Americano." in texts["phase"]  # the preview's result, in Italian
    assert "non può accompagnare sé stesso" in texts["phase"]  # the refused submission
    assert "è Indiano." in texts["player"]  # the Maresciallo's N0 answer
    assert "Spiegazione del motore" in texts["spoiler"]
    for name, text in texts.items():
        assert (tmp_path / f"{name}.png").stat().st_size > 0
        assert untranslated(text) == [], name
