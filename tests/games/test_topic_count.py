"""Issue 32: ``manage.py topic_count GAME --url URL`` or ``--file PAGE`` prints the count
the site would post, as text or --json (author, time, target per counted vote; ignored and
late posts apart). Nothing is stored."""

from __future__ import annotations

import datetime as dt
import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from werkzeug import Request, Response

from games.models import Submission
from tests.games.follow_tools import ago, serve
from tests.games.forum_server import Thread, discourse_raw

pytestmark = pytest.mark.django_db


def _thread() -> Thread:
    thread = Thread("invision")
    thread.add("Narratore", ago(200), "Si vota")
    thread.add("Sam", ago(120), "[b]Voto: Gino[/b] perché taceva")
    thread.add("Pao", ago(110), "Voto Gino")
    thread.add("Mia", ago(100), "Voto Sam o Pao")  # ambiguous: not counted
    thread.add("Pao", ago(90), "Voto Sam")  # a change
    return thread


def test_the_count_of_a_url_as_json(forum, thread_day):
    thread_day.closes_at = ago(5)
    thread_day.save(update_fields=["closes_at"])
    thread = _thread()
    thread.add("Nora", ago(2), "Voto Mia")  # after the deadline
    serve(forum, thread)
    out = StringIO()
    call_command("topic_count", thread_day.game.pk, "--url", forum.url_for("/viewtopic.php"),
                 "--json", stdout=out)  # fmt: skip
    report = json.loads(out.getvalue())
    assert [(v["author"], v["target"]) for v in report["votes"]] == [
        ("Sam", "Gino"), ("Pao", "Gino"), ("Pao", "Sam")]  # fmt: skip
    assert report["count"] == {"Gino": ["Sam"], "Sam": ["Pao"]}
    assert [(i["author"], i["why"]) for i in report["ignored"]] == [("Mia", "nome ambiguo")]
    assert [(late["author"], late["text"]) for late in report["late"]] == [("Nora", "Voto Mia")]
    assert report["phase"] == thread_day.label
    assert not Submission.objects.filter(phase=thread_day).exists()  # nothing stored


def test_the_count_of_a_saved_page_as_text(tmp_path, thread_day):
    page = tmp_path / "giorno.html"
    page.write_text(_thread().page(1, "/t"), encoding="utf-8")
    out = StringIO()
    call_command("topic_count", thread_day.game.pk, "--file", str(page), stdout=out)
    text = out.getvalue()
    assert "Gino 1: Sam" in text
    assert "Sam 1: Pao" in text
    assert "non contati:" in text
    assert "Mia: Voto Sam o Pao  [nome ambiguo]" in text


def test_a_private_url_is_refused(thread_day, settings):
    settings.TABULA_FOLLOW_ALLOW_PRIVATE = []
    with pytest.raises(CommandError, match=r"follow\.private"):
        call_command("topic_count", thread_day.game.pk, "--url", "http://127.0.0.1:9/t")


def test_a_discourse_raw_topic_is_counted_whole(forum, thread_day):
    """Discourse's raw text comes 100 posts a page: the count reads every page."""
    thread = Thread("discourse")
    thread.add("Sam", ago(200), "Voto Gino")
    for n in range(120):
        thread.add("Mia", ago(190) + dt.timedelta(seconds=n), "ciao")
    thread.add("Pao", ago(60), "Voto Sam")  # page 2
    pages = []

    def raw(request: Request) -> Response:
        pages.append(request.args.get("page"))
        text = discourse_raw(thread, int(request.args.get("page", "1")))
        return Response(text, content_type="text/plain; charset=utf-8")

    forum.expect_request("/raw/812").respond_with_handler(raw)
    out = StringIO()
    call_command("topic_count", thread_day.game.pk, "--url", forum.url_for("/t/giorno/812"),
                 "--form", "discourse_raw", "--json", stdout=out)  # fmt: skip
    report = json.loads(out.getvalue())
    assert report["count"] == {"Gino": ["Sam"], "Sam": ["Pao"]}
    assert report["posts"] == 122
    assert pages == [None, "2"]
