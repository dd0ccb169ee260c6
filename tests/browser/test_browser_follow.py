"""Browser (issue 32, "Segui il topic") on a 390 px phone, with and without JavaScript: the
GM gives the thread's address of the local test forum on the phase page, the read task
runs (as the worker runs it), and the live count appears: with JavaScript in the panel
htmx polls (its 30 s let pass on the page's clock), without it on the panel's own page
("Aggiorna"). Nothing on the page is wider than the phone."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from games.models import FollowedThread, Phase
from games.services.phases import current_phase, phase_commit
from games.services.topic_settings import topic_settings_update
from games.tasks import thread_read
from tests.browser.pages import WIDE
from tests.conftest import PHONE
from tests.factories import make_game
from tests.games.follow_tools import ago, serve, standing
from tests.games.forum_server import Thread

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def thread_vote_day(gm_user) -> Phase:
    """Day 1 of a thread-vote game, opened 5 hours ago, closing in 2 hours."""
    game = make_game(gm_user)
    phase_commit(phase=current_phase(game), user=gm_user)  # N0
    day = current_phase(game)
    now = timezone.now()
    Phase.objects.filter(pk=day.pk).update(opened_at=now - dt.timedelta(hours=5),
                                           closes_at=now + dt.timedelta(hours=2))  # fmt: skip
    topic_settings_update(game=game, user=gm_user, votes_from_topic=True,
                          vote_lines=["[b]Voto: Nome[/b]", "Voto Nome"],
                          withdraw_lines=["#ritiro"], aliases="",
                          gm_names=["Narratore"])  # fmt: skip
    return day


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_the_gm_follows_the_thread_on_a_phone_and_the_live_count_appears(
    live_server, browser, gm_user, httpserver, settings, javascript
):
    settings.TABULA_FOLLOW_ALLOW_PRIVATE = [f"{httpserver.host}:{httpserver.port}"]
    cache.clear()
    httpserver.expect_request("/robots.txt").respond_with_data("User-agent: *\nAllow: /\n")
    thread = Thread("phpbb")
    thread.add("Narratore", ago(290), "Si vota! [b]Voto: Nome[/b]")
    thread.add("Sam", ago(120), "[b]Voto: Gino[/b]")
    thread.add("Mia", ago(100), "Voto Gino")
    thread.add("Pao", ago(90), "Voto Sam")
    serve(httpserver, thread)
    day = thread_vote_day(gm_user)
    gm = browser.new_context(**PHONE, java_script_enabled=javascript).new_page()
    if javascript:
        gm.clock.install()  # the panel's 30 s poll, let pass below
    gm.goto(f"{live_server.url}/")
    gm.fill("input[name=username]", "master")
    gm.fill("input[name=password]", "pw-master-1")
    with gm.expect_navigation():
        gm.click("form:has(input[name=password]) button[type=submit]")
    gm.goto(live_server.url + reverse("games:phase", args=[day.game.pk]))
    gm.fill("#follow input[name=url]", httpserver.url_for("/viewtopic.php"))
    gm.click("#follow button[value=start]")
    assert "Il sito segue il topic" in gm.inner_text("main")
    assert "nessuna" in gm.inner_text("#follow-state")  # no read yet
    followed = FollowedThread.objects.get(game=day.game)

    assert thread_read(followed.pk) == "read"  # the task the tick queues, run here

    if javascript:
        gm.clock.fast_forward("00:31")  # htmx polls the live part
    else:
        gm.click("#follow-state a:has-text('Aggiorna')")  # the panel's own page
    count = gm.locator("#follow-count")
    count.wait_for()
    lines = [line.strip() for line in count.locator("li").all_inner_texts()]
    assert lines == ["Gino 2: Sam, Mia", "Sam 1: Pao"]
    assert "nessuna" not in gm.inner_text("#follow-state")  # the time of the last read
    assert "4 messaggi del giorno letti" in gm.inner_text("#follow-summary")
    assert standing(day) == {"Sam": "Gino", "Mia": "Gino", "Pao": "Sam"}
    assert gm.evaluate(WIDE) <= 390
