"""gm/vote_route.py: the vote on a handler of its own answers exactly as Django's handler
does (status, every header, the page), checks CSRF, the session and the host, counts the
flood limit and registers the vote in flight, and leaves any other request to Django."""

from __future__ import annotations

import datetime as dt
import io
import re
import sys
import urllib.parse
from contextlib import contextmanager

import pytest
import time_machine
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import Client
from django.urls import reverse
from django_htmx.middleware import HtmxDetails

from games.models import Submission
from games.services import player_link_issue
from gm import vote_route, wsgi
from gm.middleware import refuse_undecodable
from gm.vote_route import MetaHtmxDetails, VoteRoute
from tests.factories import make_game
from tests.test_vote_snapshot import day_one

pytestmark = pytest.mark.django_db
VOTE = "/io/voto/"


@contextmanager
def _in_test_transaction():
    """As Django's test client: the handler's signals must not close the test's connection."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def call(app, method: str, path: str, cookies: dict, headers: dict | None = None,
         body: bytes = b"", https: bool = False) -> tuple[str, list, bytes]:  # fmt: skip
    """``app`` called as gunicorn calls it: the status, the headers, the body."""
    environ = {
        "REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": "", "SCRIPT_NAME": "",
        "RAW_URI": path, "SERVER_NAME": "testserver", "SERVER_PORT": "443" if https else "80",
        "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "127.0.0.1", "HTTP_HOST": "testserver",
        "wsgi.url_scheme": "https" if https else "http", "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr, "wsgi.multithread": False, "wsgi.multiprocess": True,
        "wsgi.run_once": False, "wsgi.version": (1, 0),
        "HTTP_COOKIE": "; ".join(f"{k}={v}" for k, v in cookies.items()),
    }  # fmt: skip
    if body:
        environ["CONTENT_LENGTH"] = str(len(body))
        environ["CONTENT_TYPE"] = "application/x-www-form-urlencoded"
    for name, value in (headers or {}).items():
        key = name.upper().replace("-", "_")
        environ[key if key == "CONTENT_TYPE" else "HTTP_" + key] = value
    out = {}

    def start_response(status, response_headers, exc_info=None):
        out["status"], out["headers"] = status, response_headers

    with _in_test_transaction():
        answer = app(environ, start_response)
        data = b"".join(answer)
        if hasattr(answer, "close"):
            answer.close()
    return out["status"], out["headers"], data


@pytest.fixture
def voter(gm_user):
    """A day with a player in (his session and CSRF cookies, the page's CSRF token)."""
    game = make_game(gm_user)
    day = day_one(game, gm_user)
    player = game.players.get(role="sceriffo")
    target = game.players.exclude(pk=player.pk).first()
    browser = Client()
    browser.get(reverse("player_enter", args=[player_link_issue(player=player)]))
    page = browser.get(reverse("player_home")).content.decode()
    token = re.search(r'"X-CSRFToken": "(\w+)"', page).group(1)
    cookies = {k: v.value for k, v in browser.cookies.items()}
    return {"game": game, "day": day, "player": player, "target": target, "cookies": cookies,
            "token": token, "page": page}  # fmt: skip


def vote(app, voter, *, target=None, htmx=True, token=None, https=False, cookies=None):
    body = urllib.parse.urlencode(
        {"phase": voter["day"].pk, "target": voter["target"].name if target is None else target}
    ).encode()
    headers = {"Referer": "https://testserver/io/"}
    if token is not False:
        headers["X-CSRFToken"] = token or voter["token"]
    if htmx:
        headers.update({"HX-Request": "true", "HX-Target": "forms"})
    cookies = voter["cookies"] if cookies is None else cookies
    return call(app, "POST", VOTE, cookies, headers, body, https)


@pytest.fixture
def taken(monkeypatch):
    """The vote handler's calls, counted (the test knows which handler answered)."""
    calls = []
    original = vote_route.VoteHandler.__call__

    def counted(self, environ, start_response):
        calls.append(environ["PATH_INFO"])
        return original(self, environ, start_response)

    monkeypatch.setattr(vote_route.VoteHandler, "__call__", counted)
    return calls


def _same_page(a: bytes, b: bytes) -> bool:
    """The same page but for the standing vote's time and the masks of new CSRF tokens
    (a page drawn anew masks its token anew)."""
    varies = re.compile(rb'\(\d\d:\d\d\)|name="csrfmiddlewaretoken" value="\w{64}"')
    return varies.sub(b"", a) == varies.sub(b"", b)


@pytest.mark.parametrize(
    ("htmx", "https", "language", "target"),
    [
        (True, False, "it", None),
        (True, True, "en", None),
        (False, False, "it", None),
        (False, True, "en", None),
        (True, False, "it", ""),  # the vote withdrawn
        (True, True, "it", "Nessuno così"),  # a form error: the forms page
        (False, False, "en", "Nessuno così"),  # the error as a message, a redirect
    ],
)
def test_the_route_answers_exactly_as_djangos_handler(
    voter, settings, taken, htmx, https, language, target
):
    settings.SECURE_HSTS_SECONDS = 31536000
    settings.SECURE_HSTS_INCLUDE_SUBDOMAINS = settings.SECURE_HSTS_PRELOAD = True
    settings.TABULA_SUBMIT_RATE = "1000/m"
    voter["cookies"]["django_language"] = language
    # both built now, as gunicorn builds them: a middleware reads its settings when built
    django = WSGIHandler()
    # one instant for both: a cookie's expiry date is to the second
    with time_machine.travel(dt.datetime.now(dt.UTC), tick=False):
        ours = vote(refuse_undecodable(VoteRoute(django)), voter, htmx=htmx, https=https,
                    target=target)  # fmt: skip
        assert taken == [VOTE]
        theirs = vote(refuse_undecodable(django), voter, htmx=htmx, https=https, target=target)
        assert taken == [VOTE]  # Django's handler answered the second
    assert ours[0] == theirs[0]
    assert ours[1] == theirs[1]  # every header, in order, with its value (cookies too)
    assert _same_page(ours[2], theirs[2])
    names = {name for name, _ in ours[1]}
    assert {"Content-Security-Policy", "X-Frame-Options", "X-Content-Type-Options",
            "Referrer-Policy", "Cross-Origin-Opener-Policy"} <= names  # fmt: skip
    assert ("Strict-Transport-Security" in names) == https
    stored = Submission.objects.filter(player=voter["player"], phase=voter["day"]).count()
    assert stored == (2 if target != "Nessuno così" else 0)


def test_an_acknowledged_htmx_vote_in_english(voter, taken):
    voter["cookies"]["django_language"] = "en"
    status, headers, page = vote(wsgi.application, voter)
    assert taken == [VOTE]
    assert status == "200 OK"
    assert b'class="notice ok"' in page
    assert b"Vote recorded." in page
    assert ("Content-Language", "en") in headers


def test_no_csrf_token_or_a_wrong_one_is_403_and_stores_nothing(voter, taken):
    assert vote(wsgi.application, voter, token=False)[0].startswith("403")
    assert vote(wsgi.application, voter, token="x" * 64)[0].startswith("403")
    no_cookie = {k: v for k, v in voter["cookies"].items() if k != "csrftoken"}
    assert vote(wsgi.application, voter, cookies=no_cookie)[0].startswith("403")
    assert len(taken) == 3
    assert not Submission.objects.filter(player=voter["player"]).exists()


def test_a_foreign_or_rotated_session_is_refused(voter, gm_user, taken):
    no_session = {k: v for k, v in voter["cookies"].items() if k != "sessionid"}
    assert vote(wsgi.application, voter, cookies=no_session)[0].startswith("404")
    forged = {**voter["cookies"], "sessionid": "x" * 32}
    assert vote(wsgi.application, voter, cookies=forged)[0].startswith("404")
    player_link_issue(player=voter["player"])  # the link rotated: the old session is done
    assert vote(wsgi.application, voter)[0].startswith("404")
    gm = Client()
    gm.force_login(gm_user)  # a session, but no player's
    not_a_player = {**voter["cookies"], "sessionid": gm.cookies["sessionid"].value}
    assert vote(wsgi.application, voter, cookies=not_a_player)[0].startswith("404")
    assert len(taken) == 4
    assert not Submission.objects.filter(player=voter["player"]).exists()


def test_a_host_not_allowed_is_refused(voter, taken):
    body = urllib.parse.urlencode({"phase": voter["day"].pk, "target": ""}).encode()
    headers = {"X-CSRFToken": voter["token"], "HX-Request": "true", "Host": "evil.example"}
    status, _, _ = call(wsgi.application, "POST", VOTE, voter["cookies"], headers, body)
    assert status.startswith("400")
    assert taken == [VOTE]


@pytest.mark.parametrize(
    ("content_type", "body"),
    [
        ("application/x-www-form-urlencoded; charset=rot13", b"target=x"),
        ("application/x-www-form-urlencoded", b"phase=1&target=%00%00"),
        ("application/x-www-form-urlencoded", b"phase=%ff%fe&target=\xff"),
        ("multipart/form-data; boundary=x", b"--x\r\nbroken"),
    ],
)
def test_hostile_input_is_400_or_a_form_error_never_500(voter, taken, content_type, body):
    headers = {"X-CSRFToken": voter["token"], "HX-Request": "true", "Content-Type": content_type}
    status, _, _ = call(wsgi.application, "POST", VOTE, voter["cookies"], headers, body)
    assert int(status[:3]) < 500
    assert not Submission.objects.filter(player=voter["player"]).exists()


def test_the_vote_counts_against_the_flood_limit(voter, settings, taken):
    settings.TABULA_SUBMIT_RATE = "1/m"
    first = vote(wsgi.application, voter)
    second = vote(wsgi.application, voter)
    assert b'class="notice ok"' in first[2]
    assert b'class="notice error"' in second[2]  # counted: the second is over the limit
    assert len(taken) == 2


def test_other_requests_go_to_django(voter, settings, taken):
    assert call(wsgi.application, "GET", VOTE, voter["cookies"])[0].startswith("405")
    status, _, _ = call(wsgi.application, "POST", "/io/azione/", voter["cookies"],
                        {"X-CSRFToken": voter["token"]}, b"phase=1")  # fmt: skip
    assert int(status[:3]) < 500
    settings.MIDDLEWARE = [m for m in settings.MIDDLEWARE if "HtmxMiddleware" not in m]
    vote(wsgi.application, voter)  # the settings the route was built for changed
    assert taken == []


def test_the_route_is_built_for_the_vote_alone():
    route = VoteRoute(lambda environ, start_response: [])
    route.build()
    assert route.path == reverse("player_vote")
    assert route.handler.match.url_name == "player_vote"
    assert "whitenoise.middleware.WhiteNoiseMiddleware" not in route.handler.middleware
    assert route.handler._exception_middleware == []  # none of the site's has one
    assert route.handler._template_response_middleware == []


@pytest.mark.parametrize(
    "meta",
    [
        {},
        {"HTTP_HX_REQUEST": "true"},
        {"HTTP_HX_REQUEST": "false"},
        {"HTTP_HX_REQUEST": ""},
        {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "forms", "HTTP_HX_BOOSTED": "true"},
        {"HTTP_HX_CURRENT_URL": "http%3A%2F%2Ftestserver%2Fio%2F",
         "HTTP_HX_CURRENT_URL_URI_AUTOENCODED": "true"},
        {"HTTP_HX_TRIGGER_NAME": "target", "HTTP_HX_PROMPT": "sì"},
    ],
)  # fmt: skip
def test_htmx_details_read_from_meta_are_django_htmxs(rf, meta):
    request = rf.post(VOTE, **meta)
    ours, theirs = MetaHtmxDetails(request), HtmxDetails(request)
    for name in (
        "boosted",
        "current_url",
        "current_url_abs_path",
        "history_restore_request",
        "prompt",
        "target",
        "trigger",
        "trigger_name",
        "triggering_event",
    ):
        assert getattr(ours, name) == getattr(theirs, name), name
    assert bool(ours) == bool(theirs)


def test_a_urlconf_without_the_vote_leaves_everything_to_django(settings):
    settings.ROOT_URLCONF = "tests.test_vote_route"  # this module: no URL at all
    answered = []
    route = VoteRoute(lambda environ, start_response: answered.append(environ) or [b""])
    environ = {"REQUEST_METHOD": "POST", "PATH_INFO": VOTE}
    assert route(environ, None) == [b""]
    assert answered == [environ]
    assert route.handler is None


urlpatterns: list = []
