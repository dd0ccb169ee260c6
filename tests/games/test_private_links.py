"""Issue 9: the players' links. #2: the link rate limit counts wrong links only, never
refuses a valid one, and keys on the real client behind the trusted proxies. #4: a link
exists in clear only in the response that shows it; never in a session, the cache, the
database or a log."""

from __future__ import annotations

import io
import logging
import re
from types import SimpleNamespace

import pytest
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.core.management import call_command
from django.test import RequestFactory
from django.urls import reverse

from games.services.game import player_link_issue
from games.views.net import client_ip
from games.views.player import GUESS_RATE
from gm.logs import RedactingGunicornLogger, redact
from tests.desks.forms import DESK_GAMES, deal
from tests.factories import make_game, new_game_data

pytestmark = pytest.mark.django_db
ALLOWED = int(GUESS_RATE.split("/")[0])


def guess(client, i, **headers):
    return client.get(reverse("player_enter", args=[f"wrong{i}"]), **headers).status_code


def test_2_a_valid_link_opens_even_after_many_wrong_ones_from_the_same_address(client, gm_user):
    codes = [guess(client, i) for i in range(ALLOWED + 5)]
    assert codes[:ALLOWED] == [404] * ALLOWED
    assert set(codes[ALLOWED:]) == {429}
    game = make_game(gm_user)
    for player in game.players.all()[:3]:  # every new link still opens from that address
        token = player_link_issue(player=player)
        assert client.get(reverse("player_enter", args=[token])).status_code == 302


def test_2_valid_links_are_not_counted(client, gm_user):
    game = make_game(gm_user)
    player = game.players.first()
    for _ in range(ALLOWED + 5):
        token = player_link_issue(player=player)
        assert client.get(reverse("player_enter", args=[token])).status_code == 302
    assert guess(client, 0) == 404  # the valid ones used none of the wrong-link allowance


def test_2_behind_the_proxy_one_stranger_does_not_block_the_other_players(client, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    stranger = {"REMOTE_ADDR": "10.0.0.2", "HTTP_X_FORWARDED_FOR": "203.0.113.9"}
    player = {"REMOTE_ADDR": "10.0.0.2", "HTTP_X_FORWARDED_FOR": "198.51.100.7"}
    assert {guess(client, i, **stranger) for i in range(ALLOWED + 2)} == {404, 429}
    assert guess(client, 99, **stranger) == 429
    assert guess(client, 100, **player) == 404  # another client, same proxy: not blocked


def test_2_a_forged_forwarded_for_does_not_escape_the_limit(client, settings):
    """Entries left of the trusted proxies' one are the client's own words."""
    settings.TRUSTED_PROXY_COUNT = 1
    codes = [
        guess(client, i, REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR=f"1.2.3.{i}, 203.0.113.9")
        for i in range(ALLOWED + 2)
    ]
    assert codes[-1] == 429


def test_2_client_address_counts_the_trusted_proxies_from_the_right(settings):
    rf = RequestFactory()
    request = rf.get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="6.6.6.6, 1.1.1.1, 10.0.0.1")
    settings.TRUSTED_PROXY_COUNT = 0
    assert client_ip(request) == "10.0.0.2"
    settings.TRUSTED_PROXY_COUNT = 1
    assert client_ip(request) == "10.0.0.1"
    settings.TRUSTED_PROXY_COUNT = 2
    assert client_ip(request) == "1.1.1.1"
    garbage = rf.get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="not-an-ip")
    assert client_ip(garbage) == "10.0.0.2"


def test_2_compose_sets_the_trusted_proxy_count():
    import yaml

    from tests.conftest import ROOT

    data = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    assert data["services"]["web"]["environment"]["TRUSTED_PROXY_COUNT"] == "1"


def _links(html: str) -> list[str]:
    return list(dict.fromkeys(re.findall(r"/p/([A-Za-z0-9_\-]{40,})/", html)))


def _everything_stored() -> str:
    """The whole database (sessions included) and every cache key and value, as text."""
    out = io.StringIO()
    call_command("dumpdata", stdout=out)
    client = cache._cache.get_client()
    stored = [out.getvalue()]
    for key in client.scan_iter(f"{cache.key_prefix}*"):
        stored += [key.decode(errors="replace"), repr(client.dump(key))]
    for session in Session.objects.all():
        stored.append(repr(session.get_decoded()))
    return "\n".join(stored)


def test_4_links_exist_only_in_the_response_that_shows_them(client, gm_user):
    client.force_login(gm_user)
    response = deal(client, reverse("games:new"), new_game_data())
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    tokens = _links(response.content.decode())
    assert len(tokens) == 16
    game = gm_user.games.get()
    rotated = client.post(
        reverse("games:rotate", args=[game.pk, game.players.first().pk]), {"confirm": "1"}
    )
    new_token = _links(rotated.content.decode())
    assert len(new_token) == 1
    substituted = client.post(
        reverse("games:substitute", args=[game.pk, game.players.last().pk]), {"name": "Nuovo"}
    )
    tokens += new_token + _links(substituted.content.decode())
    assert len(tokens) == 18
    stored = _everything_stored()
    for token in tokens:
        assert token not in stored
    again = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert _links(again) == []  # never shown again


def _handlers_of(name: str) -> list[logging.Handler]:
    """Every handler a record of logger ``name`` reaches."""
    found, logger = [], logging.getLogger(name)
    while logger is not None:
        found += [h for h in logger.handlers if not type(h).__module__.startswith("_pytest")]
        logger = logger.parent if logger.propagate else None
    return found


@pytest.mark.parametrize("debug", [False, True])
def test_4_django_and_runserver_logs_never_contain_a_token(client, settings, debug):
    """What Django's request logging ("Not Found: /p/…/", a 500's traceback header) and
    runserver's request lines really write, through the configured handlers."""
    settings.DEBUG = debug
    token = "s3cr3t-token-that-must-not-leak-0123456789abcdef"
    handlers = {*_handlers_of("django.request"), *_handlers_of("django.server")}
    assert handlers
    streams = {}
    for handler in handlers:
        assert isinstance(handler, logging.StreamHandler), handler
        streams[handler] = handler.setStream(io.StringIO())
    try:
        assert client.get(f"/p/{token}/").status_code == 404  # Django logs "Not Found: <path>"
        logging.getLogger("django.server").info('"%s" %s %s', f"GET /p/{token}/ HTTP/1.1", 404, 9)
        logging.getLogger("django.request").error("Internal Server Error: %s", f"/p/{token}/")
        written = "".join(handler.stream.getvalue() for handler in handlers)
    finally:
        for handler, stream in streams.items():
            handler.setStream(stream)
    assert "/p/…" in written
    assert "Not Found" in written
    assert token not in written


def test_4_gunicorn_access_log_redacts_the_token():
    from gunicorn.config import Config

    token = "s3cr3t-token-that-must-not-leak-0123456789abcdef"
    config = Config()
    config.set("accesslog", "-")
    logger = RedactingGunicornLogger(config)
    environ = {
        "REQUEST_METHOD": "GET", "RAW_URI": f"/p/{token}/?x=1", "PATH_INFO": f"/p/{token}/",
        "QUERY_STRING": "x=1", "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "10.0.0.1",
        "HTTP_REFERER": f"https://tabula.example/p/{token}/",
    }  # fmt: skip
    resp = SimpleNamespace(status="302 Found", sent=0, headers=[])
    request = SimpleNamespace(headers=[("REFERER", f"https://tabula.example/p/{token}/")])
    duration = SimpleNamespace(seconds=0, microseconds=1500)
    atoms = logger.atoms(resp, request, environ, duration)
    line = logger.cfg.access_log_format % atoms
    assert token not in line
    assert token not in repr(atoms)
    assert "/p/…" in line
    assert redact(f"/p/{token}") == "/p/…"


def test_4_the_access_line_is_gunicorns_own_in_its_default_format():
    """The line is the one gunicorn's own atoms give (a request without a player link;
    the user agent and referrer kept)."""
    from gunicorn.config import Config
    from gunicorn.glogging import Logger

    config = Config()
    config.set("accesslog", "-")
    environ = {
        "REQUEST_METHOD": "POST", "RAW_URI": "/io/voto/", "PATH_INFO": "/io/voto/",
        "QUERY_STRING": "", "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "10.0.0.2",
        "HTTP_REFERER": "https://tabula.example/io/", "HTTP_USER_AGENT": "Firefox/140",
        "HTTP_COOKIE": "sessionid=abc",
    }  # fmt: skip
    for sent in (1234, 0, None):
        resp = SimpleNamespace(status="200 OK", sent=sent, headers=[("Content-Type", "x")])
        request = SimpleNamespace(headers=[("COOKIE", "sessionid=abc")])
        duration = SimpleNamespace(seconds=0, microseconds=900)
        ours = RedactingGunicornLogger(config).atoms(resp, request, environ, duration)
        theirs = Logger(config).atoms(resp, request, environ, duration)
        ours["t"] = theirs["t"]  # the clock
        fmt = config.access_log_format
        assert fmt % ours == fmt % theirs


def test_4_gunicorn_runs_with_the_redacting_configuration():
    import yaml

    from tests.conftest import ROOT

    command = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]["web"]
    assert command["command"][-2:] == ["--config", "python:gm.gunicorn_conf"]
    assert "python:gm.gunicorn_conf" in (ROOT / "Dockerfile").read_text()
    from gm import gunicorn_conf

    assert gunicorn_conf.logger_class == "gm.logs.RedactingGunicornLogger"


@pytest.mark.parametrize("new", sorted(DESK_GAMES))
def test_4_desk_games_show_their_links_once_and_keep_them_nowhere(client, gm_user, new):
    client.force_login(gm_user)
    response = deal(client, reverse(new), DESK_GAMES[new])
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    game = gm_user.games.get()
    tokens = _links(response.content.decode())
    assert len(tokens) == game.players.count()
    rotated = client.post(
        reverse("games:rotate", args=[game.pk, game.players.first().pk]), {"confirm": "1"}
    )
    tokens += _links(rotated.content.decode())
    assert len(tokens) == game.players.count() + 1
    stored = _everything_stored()
    for token in tokens:
        assert token not in stored
    assert _links(client.get(reverse("games:detail", args=[game.pk])).content.decode()) == []
