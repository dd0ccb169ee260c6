"""Issue 32: the site reads the game thread itself. A local test forum (pytest-httpserver on
loopback, allowed by TABULA_FOLLOW_ALLOW_PRIVATE for its one host:port) serves days of
each engine's markup page by page: posts appearing over time, edits, 304s, 429s, a slow
page, a page too large, a redirect to a private address, a login page."""

from __future__ import annotations

import datetime as dt
import time

import pytest
from django.core.cache import cache
from django.utils import timezone
from werkzeug import Request, Response

from games.models import FollowedThread, Phase, Submission, ThreadPost, ThreadRead
from games.services.clock import deadlines_run
from games.services.follow import (
    follow_claim_due,
    follow_read,
    follow_start,
    next_read,
)
from games.services.follow_http import FetchError, checked, readable_url
from tests.games.follow_tools import ago, serve, standing
from tests.games.forum_server import ENGINES, Thread, discourse_raw

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("engine", list(ENGINES))
def test_each_engine_is_read_and_only_new_posts_are_added(forum, thread_day, gm_user, engine):
    """Issue 32 "Segui il topic": the site reads the page by itself, keeps each post
    once, and stores the day's votes; a later read adds only what is new."""
    thread = Thread(engine)
    thread.add("Narratore", ago(290), "Si vota! [b]Voto: Nome[/b]")
    thread.add("Sam", ago(120), "[b]Voto: Gino[/b]")
    thread.add("Mia", ago(100), "Voto Sam perché taceva")
    serve(forum, thread)
    followed = follow_start(game=thread_day.game, user=gm_user, url=forum.url_for("/viewtopic.php"))
    assert follow_read(followed.pk) == "read"
    assert standing(thread_day) == {"Sam": "Gino", "Mia": "Sam"}
    thread.add("Pao", ago(10), "Voto Gino")
    assert follow_read(followed.pk) == "read"
    assert standing(thread_day) == {"Sam": "Gino", "Mia": "Sam", "Pao": "Gino"}
    assert ThreadPost.objects.filter(thread=followed).count() == 4
    first, second = ThreadRead.objects.filter(thread=followed).order_by("at", "pk")
    assert (first.status, first.posts_new, second.posts_new) == (200, 3, 1)
    followed.refresh_from_db()
    assert followed.fmt  # the forum recognised once, then kept


def test_new_pages_are_followed_and_an_edit_keeps_both_versions(forum, thread_day, gm_user):
    """Posts appearing over pages (``<link rel="next">``) and an edit before the deadline:
    the edited vote counts, the previous text is kept for the GM."""
    thread = Thread("phpbb", per_page=2)
    sam = thread.add("Sam", ago(120), "Voto Gino")
    thread.add("Mia", ago(110), "ciao")
    thread.add("Pao", ago(100), "Voto Mia")
    serve(forum, thread)
    followed = follow_start(game=thread_day.game, user=gm_user, url=forum.url_for("/viewtopic.php"))
    follow_read(followed.pk)
    followed.refresh_from_db()
    assert followed.page_url.endswith("?page=2")  # the next page, read next
    assert followed.next_read_at - followed.last_read_at == dt.timedelta(seconds=10)
    follow_read(followed.pk)
    assert standing(thread_day) == {"Sam": "Gino", "Pao": "Mia"}
    sam.lines, sam.edited_at = ["Voto Nora"], ago(5)
    followed.refresh_from_db()
    followed.page_url = ""  # back to the first page, where Sam's post is
    followed.save()
    follow_read(followed.pk)
    post = ThreadPost.objects.get(thread=followed, author="Sam")
    assert (post.previous_lines, post.lines) == (["Voto Gino"], ["Voto Nora"])
    assert standing(thread_day)["Sam"] == "Nora"


def test_a_304_adds_nothing_and_the_etag_is_sent(forum, thread_day, gm_user):
    thread = Thread("invision")
    thread.add("Sam", ago(60), "Voto Gino")
    seen = []

    def handler(request: Request) -> Response:
        seen.append(request.headers.get("If-None-Match"))
        if request.headers.get("If-None-Match") == '"v1"':
            return Response(status=304)
        return Response(thread.page(1, "/t"), content_type="text/html", headers={"ETag": '"v1"'})

    forum.expect_request("/t").respond_with_handler(handler)
    followed = follow_start(game=thread_day.game, user=gm_user, url=forum.url_for("/t"))
    follow_read(followed.pk)
    follow_read(followed.pk)
    assert seen == [None, '"v1"']
    last = ThreadRead.objects.filter(thread=followed).latest("pk")
    assert (last.status, last.posts_new) == (304, 0)
    assert standing(thread_day) == {"Sam": "Gino"}


def test_a_429_backs_off_as_the_forum_asks_and_counts_nothing(forum, thread_day, gm_user):
    forum.expect_request("/t").respond_with_data("busy", status=429, headers={"Retry-After": "300"})
    followed = follow_start(game=thread_day.game, user=gm_user, url=forum.url_for("/t"))
    before = timezone.now()
    assert follow_read(followed.pk) == "failed"
    followed.refresh_from_db()
    assert followed.state == FollowedThread.State.ACTIVE  # a passing trouble: it retries
    assert followed.reason == "follow.busy"
    assert followed.next_read_at >= before + dt.timedelta(seconds=300)
    log = ThreadRead.objects.get(thread=followed)
    assert (log.status, log.note) == (429, "follow.busy")
    assert not Submission.objects.filter(phase=thread_day).exists()


def test_a_slow_page_is_dropped_and_retried(forum, thread_day, gm_user, settings):
    settings.TABULA_FOLLOW_TIMEOUT_SECONDS = 0.5

    def slow(request: Request) -> Response:
        time.sleep(1.5)
        return Response("<html></html>", content_type="text/html")

    forum.expect_request("/t").respond_with_handler(slow)
    followed = follow_start(game=thread_day.game, user=gm_user, url=forum.url_for("/t"))
    assert follow_read(followed.pk) == "failed"
    followed.refresh_from_db()
    assert (followed.state, followed.reason) == (FollowedThread.State.ACTIVE, "follow.slow")


def test_a_page_too_large_is_refused_and_the_gm_told(forum, thread_day, gm_user, settings):
    settings.TABULA_FOLLOW_MAX_BYTES = 20_000
    thread = Thread("forumfree", per_page=100)
    for n in range(60):
        thread.add("Sam", ago(200 - n), "ciao " * 20)

    def chunked(request: Request) -> Response:  # no Content-Length: stopped while streaming
        page = thread.page(1, "/t").encode()
        return Response(iter([page[i : i + 4096] for i in range(0, len(page), 4096)]),
                        content_type="text/html")  # fmt: skip

    forum.expect_request("/t").respond_with_handler(chunked)
    followed = follow_start(game=thread_day.game, user=gm_user, url=forum.url_for("/t"))
    assert follow_read(followed.pk) == "failed"
    followed.refresh_from_db()
    assert (followed.state, followed.reason) == (FollowedThread.State.FAILING, "follow.too_large")
    assert not ThreadPost.objects.exists()


def test_a_redirect_to_a_private_address_is_refused(forum, thread_day, gm_user):
    """The SSRF guard at every hop: the forum (allowed) sends the site to the cloud's
    metadata address; it is refused before any request is made there."""
    forum.expect_request("/t").respond_with_data(
        "", status=302, headers={"Location": "http://169.254.169.254/latest/meta-data/"}
    )
    followed = follow_start(game=thread_day.game, user=gm_user, url=forum.url_for("/t"))
    assert follow_read(followed.pk) == "failed"
    followed.refresh_from_db()
    assert (followed.state, followed.reason) == (FollowedThread.State.FAILING, "follow.private")


@pytest.mark.parametrize("url", ["http://127.0.0.1:8000/t", "http://localhost/t",
                                 "http://[::1]/t", "http://10.1.2.3/t", "http://192.168.1.1/",
                                 "http://0.0.0.0/", "file:///etc/passwd", "ftp://forum.it/t",
                                 "http://user:pw@forum.example/t",
                                 "http://forum.example:99999/t"])  # fmt: skip
def test_only_public_http_addresses_are_read(url, settings):
    settings.TABULA_FOLLOW_ALLOW_PRIVATE = []
    with pytest.raises(FetchError) as refused:
        checked(url)
    assert refused.value.code in ("follow.private", "follow.scheme")


def test_a_login_page_is_told_plainly_and_the_paste_still_works(forum, thread_day, gm_user, client):
    forum.expect_request("/t").respond_with_data(
        '<html><body><form><input name="username"><input type="password" name="password">'
        "</form></body></html>", content_type="text/html")  # fmt: skip
    followed = follow_start(game=thread_day.game, user=gm_user, url=forum.url_for("/t"))
    assert follow_read(followed.pk) == "failed"
    followed.refresh_from_db()
    assert (followed.state, followed.reason) == (FollowedThread.State.FAILING, "follow.login")


def test_robots_txt_is_respected(httpserver, thread_day, gm_user, settings):
    settings.TABULA_FOLLOW_ALLOW_PRIVATE = [f"{httpserver.host}:{httpserver.port}"]
    cache.clear()
    httpserver.expect_request("/robots.txt").respond_with_data("User-agent: *\nDisallow: /t\n")
    followed = follow_start(game=thread_day.game, user=gm_user, url=httpserver.url_for("/t"))
    assert follow_read(followed.pk) == "failed"
    followed.refresh_from_db()
    assert followed.reason == "follow.robots"
    assert [r.path for r, _response in httpserver.log] == ["/robots.txt"]


def test_readable_forms():
    assert readable_url("https://f.it/viewtopic.php?t=8", "phpbb_print").endswith("t=8&view=print")
    assert (
        readable_url("https://d.org/t/giorno-1/123/45", "discourse_raw") == "https://d.org/raw/123"
    )
    assert readable_url("https://ff.it/?t=1", "page") == "https://ff.it/?t=1"


def _close(day: Phase, seconds_ago: int) -> None:
    day.closes_at = timezone.now() - dt.timedelta(seconds=seconds_ago)
    day.save(update_fields=["closes_at"])
    deadlines_run()  # the clock closes it: a thread-vote day waits for its votes
    day.refresh_from_db()
    assert day.status == Phase.Status.CLOSED


@pytest.mark.parametrize("auto", [False, True])
def test_the_final_read_counts_only_posts_in_time_and_the_result_is_ready(
    forum, thread_day, gm_user, auto
):
    """At the deadline (plus the grace), the final read: a late post is not stored; the
    day is ready for the GM's commit, or committed by itself when he chose so and
    nothing needs settling."""
    thread = Thread("discourse")
    thread.add("Sam", ago(60), "Voto Gino")
    thread.add("Mia", ago(50), "Voto Sam")
    serve(forum, thread)
    followed = follow_start(game=thread_day.game, user=gm_user, url=forum.url_for("/viewtopic.php"),
                            auto_commit=auto)  # fmt: skip
    follow_read(followed.pk)
    _close(thread_day, 30)
    thread.add("Pao", ago(0), "Voto Gino")  # after the deadline
    assert follow_read(followed.pk) == "final"
    assert standing(thread_day) == {"Sam": "Gino", "Mia": "Sam"}
    thread_day.refresh_from_db()
    final = ThreadRead.objects.filter(thread=followed, final=True).get()
    assert final.note == ("follow.committed" if auto else "follow.ready")
    assert thread_day.status == (Phase.Status.COMMITTED if auto else Phase.Status.CLOSED)
    followed.refresh_from_db()
    assert followed.final_phase_id == thread_day.pk


def test_a_final_read_that_fails_counts_nothing_and_the_day_waits(forum, thread_day, gm_user):
    forum.expect_request("/t").respond_with_data("down", status=503)
    followed = follow_start(game=thread_day.game, user=gm_user, url=forum.url_for("/t"),
                            auto_commit=True)  # fmt: skip
    _close(thread_day, 30)
    assert follow_read(followed.pk) == "failed"
    thread_day.refresh_from_db()
    assert thread_day.status == Phase.Status.CLOSED  # waits: nothing read, nothing counted
    followed.refresh_from_db()
    assert followed.final_phase_id is None
    assert followed.reason == "follow.busy"


def test_the_schedule_is_polite(thread_day, gm_user, settings):
    """A read a minute; in the last 10 minutes one every RUSH seconds (never under 10);
    the final read at the deadline plus the grace; a claim is taken once."""
    settings.TABULA_FOLLOW_EVERY_SECONDS, settings.TABULA_FOLLOW_RUSH_SECONDS = 60.0, 20.0
    settings.TABULA_FOLLOW_GRACE_SECONDS = 15.0
    followed = follow_start(game=thread_day.game, user=gm_user, url="https://93.184.215.14/t")
    now = thread_day.closes_at - dt.timedelta(hours=1)
    assert next_read(thread_day, followed, now) - now == dt.timedelta(seconds=60)
    now = thread_day.closes_at - dt.timedelta(minutes=5)
    assert next_read(thread_day, followed, now) - now == dt.timedelta(seconds=20)
    now = thread_day.closes_at - dt.timedelta(seconds=10)
    assert next_read(thread_day, followed, now) == thread_day.closes_at + dt.timedelta(seconds=15)
    now = thread_day.closes_at + dt.timedelta(seconds=10)
    assert next_read(thread_day, followed, now) - now == dt.timedelta(seconds=10)  # the floor
    assert follow_claim_due() == [followed.pk]
    assert follow_claim_due() == []  # claimed: the next tick does not queue it again


def test_between_the_deadline_and_the_final_read_the_forum_is_not_asked(
    forum, thread_day, gm_user, settings
):
    """Issue 32, the rush: a read queued before the deadline and run after it waits for
    the final read (deadline + grace); the final read stops at the page whose last post
    is after the deadline (the next pages hold only later posts)."""
    settings.TABULA_FOLLOW_GRACE_SECONDS = 15.0
    thread = Thread("phpbb", per_page=2)
    thread.add("Sam", ago(30), "Voto Gino")
    thread.add("Mia", ago(20), "Voto Sam")
    serve(forum, thread)
    followed = follow_start(game=thread_day.game, user=gm_user,
                            url=forum.url_for("/viewtopic.php"))  # fmt: skip
    _close(thread_day, 5)
    thread.add("Pao", ago(0), "Voto Gino")  # after the deadline, on page 2
    thread.add("Nora", ago(0), "Voto Gino")
    thread.add("Vito", ago(0), "Voto Gino")  # page 3
    assert follow_read(followed.pk) == "skipped"
    followed.refresh_from_db()
    assert followed.next_read_at == thread_day.closes_at + dt.timedelta(seconds=15)
    assert [r.path for r, _response in forum.log if r.path != "/robots.txt"] == []
    later = timezone.now() + dt.timedelta(seconds=11)
    assert follow_read(followed.pk, now=later) == "read"  # page 1: in time, a next page
    assert follow_read(followed.pk, now=later + dt.timedelta(seconds=10)) == "final"  # page 2
    assert standing(thread_day) == {"Sam": "Gino", "Mia": "Sam"}
    followed.refresh_from_db()
    assert followed.next_read_at - later >= dt.timedelta(seconds=60)  # not page 3 at once


def test_a_discourse_raw_topic_is_read_page_by_page(forum, thread_day, gm_user):
    """Discourse's /raw/<topic id> is paged, 100 posts a page (``?page=N``): a topic
    longer than one page is read whole, a page past the end (an empty 200) is no
    failure, and only the last page is fetched again as the topic grows."""
    thread = Thread("discourse")
    start = timezone.now() - dt.timedelta(hours=4)

    def write(count: int, vote: str) -> None:
        for _ in range(count):
            at = start + dt.timedelta(seconds=20 * len(thread.posts))
            thread.add("Mia", at, "ciao")
        thread.add("Sam", start + dt.timedelta(seconds=20 * len(thread.posts)), vote)

    pages: list[str | None] = []

    def raw(request: Request) -> Response:
        pages.append(request.args.get("page"))
        text = discourse_raw(thread, int(request.args.get("page", "1")))
        return Response(text, content_type="text/plain; charset=utf-8")

    forum.expect_request("/raw/812").respond_with_handler(raw)
    write(99, "Voto Gino")  # exactly one full page
    followed = follow_start(game=thread_day.game, user=gm_user, form="discourse_raw",
                            url=forum.url_for("/t/giorno-1/812"))  # fmt: skip
    assert follow_read(followed.pk) == "read"
    followed.refresh_from_db()
    assert followed.page_url.endswith("/raw/812?page=2")  # full: a next page may follow
    assert follow_read(followed.pk) == "read"  # past the end: nothing new, no failure
    write(49, "Voto Nora")  # page 2: 50 posts
    assert follow_read(followed.pk) == "read"
    assert standing(thread_day) == {"Sam": "Nora"}
    write(59, "Voto Vito")  # page 2 full, page 3: 10 posts
    assert follow_read(followed.pk) == "read"
    assert follow_read(followed.pk) == "read"
    assert standing(thread_day) == {"Sam": "Vito"}
    assert ThreadPost.objects.filter(thread=followed).count() == 210
    assert pages == [None, "2", "2", "2", "3"]  # page 1 once: only the last page again
    reads = ThreadRead.objects.filter(thread=followed).order_by("at", "pk")
    assert [r.posts_new for r in reads] == [100, 0, 50, 50, 10]
    assert {r.note for r in reads} == {""}


def test_a_discourse_raw_post_edited_keeps_its_number_and_first_time(forum, thread_day, gm_user):
    """Discourse's raw text gives each post's last edit time (``updated_at``) and its own
    number: an edited post stays one post, at the time first read, the edit kept with
    both versions, and the edited vote counts."""
    thread = Thread("discourse")
    sam = thread.add("Sam", ago(60), "Voto Gino")
    thread.add("Mia", ago(50), "Voto Sam")

    def raw(request: Request) -> Response:
        return Response(discourse_raw(thread, 1), content_type="text/plain; charset=utf-8")

    forum.expect_request("/raw/812").respond_with_handler(raw)
    followed = follow_start(game=thread_day.game, user=gm_user, form="discourse_raw",
                            url=forum.url_for("/t/giorno-1/812"))  # fmt: skip
    follow_read(followed.pk)
    first = ThreadPost.objects.get(thread=followed, author="Sam").at
    sam.lines, sam.edited_at = ["Voto Nora"], ago(5)
    follow_read(followed.pk)
    post = ThreadPost.objects.get(thread=followed, author="Sam")
    before, now = [x for x in post.previous_lines if x], [x for x in post.lines if x]
    assert (post.at, before, now) == (first, ["Voto Gino"], ["Voto Nora"])
    assert post.edited_at.replace(microsecond=0) == sam.edited_at.replace(microsecond=0)
    assert standing(thread_day) == {"Sam": "Nora", "Mia": "Sam"}
    assert ThreadPost.objects.filter(thread=followed).count() == 2


def test_the_final_read_of_a_raw_topic_reads_to_its_end(forum, thread_day, gm_user):
    """Discourse's raw times are the last edits': a page whose old post was edited after
    the deadline does not end the final read; the next page's vote in time counts."""
    thread = Thread("discourse")
    thread.add("Sam", ago(200), "Voto Gino")
    for n in range(99):
        post = thread.add("Mia", ago(190) + dt.timedelta(seconds=n), "ciao")
    post.lines, post.edited_at = ["ciao!"], ago(0)  # page 1's last post, edited late
    thread.add("Pao", ago(60), "Voto Sam")  # page 2, before the deadline

    def raw(request: Request) -> Response:
        text = discourse_raw(thread, int(request.args.get("page", "1")))
        return Response(text, content_type="text/plain; charset=utf-8")

    forum.expect_request("/raw/812").respond_with_handler(raw)
    followed = follow_start(game=thread_day.game, user=gm_user, form="discourse_raw",
                            url=forum.url_for("/t/giorno-1/812"))  # fmt: skip
    _close(thread_day, 30)
    assert follow_read(followed.pk) == "read"  # page 1: not the end
    assert follow_read(followed.pk) == "final"
    assert standing(thread_day) == {"Sam": "Gino", "Pao": "Sam"}
