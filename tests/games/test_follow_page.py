"""Issue 32 on the GM's phase page: "Segui il topic", the live count and the last read,
the decisions the GM settles, edited posts with both versions, the activity table and the
prod post, the read log; a forum the site cannot read says so and the paste still works.
Without JavaScript the panel is a page of its own; htmx polls its live part."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import FollowedThread, TopicSettings
from games.services.follow import follow_read, follow_start
from tests.games.follow_tools import ago, serve, standing
from tests.games.forum_server import Thread

pytestmark = pytest.mark.django_db


def test_the_gm_follows_a_thread_from_the_phase_page(client, thread_day, gm_user, forum):
    client.force_login(gm_user)
    page = client.get(reverse("games:phase", args=[thread_day.game.pk])).content.decode()
    assert "Segui il topic" in page
    url = forum.url_for("/viewtopic.php")
    form = {"url": url, "form": "page", "fmt": "", "action": "start", "auto_commit": "1"}
    client.post(reverse("games:follow_save", args=[thread_day.game.pk]), form)
    followed = FollowedThread.objects.get(game=thread_day.game)
    assert (followed.url, followed.auto_commit, followed.state) == (url, True, "active")
    client.post(reverse("games:follow_save", args=[thread_day.game.pk]), {"action": "pause"})
    followed.refresh_from_db()
    assert followed.state == "paused"


def test_a_private_address_is_refused_by_the_form(client, thread_day, gm_user, settings):
    settings.TABULA_FOLLOW_ALLOW_PRIVATE = []
    client.force_login(gm_user)
    response = client.post(reverse("games:follow_save", args=[thread_day.game.pk]),
                           {"url": "http://192.168.1.10/forum/t", "form": "page",
                            "action": "start"}, follow=True)  # fmt: skip
    assert "rete privata o locale" in response.content.decode()
    assert not FollowedThread.objects.exists()


def test_a_login_page_is_told_plainly_and_the_paste_still_works(client, thread_day, gm_user, forum):
    forum.expect_request("/t").respond_with_data(
        '<html><body><form><input type="password" name="password"></form></body></html>',
        content_type="text/html")  # fmt: skip
    followed = follow_start(game=thread_day.game, user=gm_user, url=forum.url_for("/t"))
    follow_read(followed.pk)
    client.force_login(gm_user)
    page = client.get(reverse("games:phase", args=[thread_day.game.pk])).content.decode()
    assert "Il forum chiede di accedere o un captcha" in page
    assert "Importa dal topic" in page  # the paste, the fallback
    paste = "Sam — " + ago(30).astimezone(dt.UTC).strftime("%d/%m/%Y %H:%M") + ":07\nVoto Gino\n"
    response = client.post(reverse("games:topic_import", args=[thread_day.game.pk]),
                           {"text": paste, "action": "preview"})  # fmt: skip
    assert response.status_code == 200


def test_the_panel_shows_count_decisions_edits_activity_prod_and_log(
    client,
    thread_day,
    gm_user,
    forum,
):
    TopicSettings.objects.filter(game=thread_day.game).update(min_posts_per_day=2)
    thread = Thread("phpbb")
    sam = thread.add("Sam", ago(120), "Voto Gino")
    thread.add("Sam", ago(110), "ciao a tutti")
    thread.add("Mia", ago(100), "Voto Sam o Pao, non so")  # ambiguous: the GM decides
    serve(forum, thread)
    followed = follow_start(game=thread_day.game, user=gm_user, url=forum.url_for("/viewtopic.php"))
    follow_read(followed.pk)
    sam.lines, sam.edited_at = ["Voto Nora"], ago(5)
    follow_read(followed.pk)
    client.force_login(gm_user)
    panel = client.get(reverse("games:follow_panel", args=[thread_day.game.pk])).content.decode()
    assert 'id="follow-count"' in panel
    assert "Nora</strong> 1: Sam" in panel  # the live count
    assert "nome ambiguo" in panel  # the decision, as the paste preview shows it
    assert "prima" in panel
    assert "<code>Voto Gino</code>" in panel  # both versions of the edited post
    assert "<code>Voto Nora</code>" in panel
    prod = panel.split('id="prod-bbcode">')[1].split("</textarea>")[0]
    assert prod.startswith("[b]Sollecito di attività[/b]")
    assert "Mia" in prod
    assert "Sam" not in prod  # two posts: not under the minimum
    roles = ("Sceriffo", "Lupo", "Indiano", "Cowboy", "Notaio", "ruolo")
    assert not any(r.lower() in prod.lower() for r in roles)  # no word about roles
    assert 'id="follow-reads"' in panel
    assert panel.count("<tr><td>") >= 2
    live = client.get(
        reverse("games:follow_panel", args=[thread_day.game.pk]), HTTP_HX_REQUEST="true"
    )
    assert live.content.decode().lstrip().startswith('<div id="follow-live"')
    row = next(line for line in panel.splitlines() if "data-key=" in line)
    key = row.split('data-key="')[1].split('"')[0]
    seat = thread_day.game.players.get(name="Pao").seat
    client.post(reverse("games:follow_decide", args=[thread_day.game.pk]),
                {f"t{key}": str(seat), "action": "save"})  # fmt: skip
    assert standing(thread_day)["Mia"] == "Pao"
    assert timezone.now() < thread_day.closes_at
