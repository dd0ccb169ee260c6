"""Browser (issue 28 class 6): the GM's real evening. The thread-vote day's deadline
passed and the clock did not commit it: the dashboard says it waits; the GM copies the
thread page, pastes it, previews (the post after the deadline listed apart) and clicks
"Salva e risolvi": four interactions from the dashboard's link to the resolved day."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Phase, Submission
from games.services.clock import deadlines_run
from games.services.phases import current_phase, phase_commit
from games.services.topic_settings import topic_settings_update
from tests.browser.pages import gm_page
from tests.browser.topic import phpbb_page
from tests.factories import make_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_class6_import_after_the_deadline_and_resolve_in_four_interactions(
    live_server, browser, django_user_model
):
    gm_user = django_user_model.objects.create_user(username="master", password="pw-master-1")
    game = make_game(gm_user, seed=3)
    topic_settings_update(game=game, user=gm_user, votes_from_topic=True,
                          vote_lines=["Voto Nome"], withdraw_lines=["#ritiro"], aliases="",
                          gm_names=[])  # fmt: skip
    phase_commit(phase=current_phase(game), user=gm_user)  # N0
    day = current_phase(game)
    now = timezone.now()
    closes_at = (now - dt.timedelta(minutes=20)).replace(second=0, microsecond=0)
    Phase.objects.filter(pk=day.pk).update(opened_at=now - dt.timedelta(hours=6),
                                           closes_at=closes_at)  # fmt: skip
    assert deadlines_run() == {"closed": 1}  # the day waits for its votes
    thread = phpbb_page([("Sam", 90, "Voto Gino"), ("Mar", 60, "Voto Gino"),
                         ("Pao", 40, "Voto Anna"), ("Mia", 5, "Voto Anna"),
                         ("Nora", 4, "Voto Anna")])  # fmt: skip
    gm = gm_page(browser, live_server)
    gm.context.grant_permissions(["clipboard-read", "clipboard-write"])
    forum = gm.context.new_page()
    forum.set_content(thread)
    forum.keyboard.press("Control+A")
    forum.keyboard.press("Control+C")
    gm.bring_to_front()
    gm.goto(live_server.url + reverse("dashboard"))
    assert "In attesa del conteggio dal topic" in gm.inner_text("main")
    interactions = 0
    gm.click("a:has-text('Importa dal topic')")  # 1: from the dashboard to the thread tools
    interactions += 1
    gm.click("#topic textarea[name=text]")
    gm.keyboard.press("Control+V")  # 2: paste
    interactions += 1
    gm.click("#topic button[value=preview]")  # 3: preview
    interactions += 1
    assert [r.strip() for r in gm.locator("#import-late td:nth-child(2)").all_inner_texts()] == [
        "Mia",
        "Nora",
    ]
    gm.click("button[value=resolve]")  # 4: save and resolve
    interactions += 1
    assert "Fase risolta" in gm.inner_text("main")
    assert interactions <= 4
    day.refresh_from_db()
    assert day.status == Phase.Status.COMMITTED
    votes = Submission.objects.filter(phase=day)
    assert sorted(v.player.name for v in votes) == ["Mar", "Pao", "Sam"]
    assert all(v.at < closes_at for v in votes)
    assert day.outcome["execution"]["executed"] == "Gino"
