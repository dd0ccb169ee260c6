"""Malformed and hostile requests (issue 27 §5, the third hostile round): every class of
request that gave a 500 answers a clean refusal instead (400 with the site's own words, a
404 for an endpoint of another kind of game, a form error), and stores nothing."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.urls import reverse

from desks.automobile.desk import adt_game_create, adt_log
from desks.models import TableEvent
from desks.ribelle.desk import ribelle_game_create
from games.forum.base import Clock
from games.forum.html import _moment
from games.models import AuditEvent, Game, Player, Submission, Will
from games.services.game import player_link_issue
from tests.factories import make_game

pytestmark = pytest.mark.django_db

BANDITS = {"Ada": "django", "Bea": "belle", "Cid": "tuco"}


def stored() -> tuple:
    return (
        list(Game.objects.order_by("pk").values_list("pk", "name", "status")),
        list(Player.objects.order_by("pk").values_list("pk", "name", "token_hash")),
        TableEvent.objects.count(), Submission.objects.count(), Will.objects.count(),
        AuditEvent.objects.exclude(kind="link_issued").count(),
    )  # fmt: skip


def phone_of(player: Player) -> Client:
    """A player's browser, enforcing CSRF as production does."""
    phone = Client(enforce_csrf_checks=True)
    assert (
        phone.get(reverse("player_enter", args=[player_link_issue(player=player)])).status_code
        == 302
    )
    return phone


def csrf(client: Client) -> str:
    client.get(reverse("login"))
    return client.cookies["csrftoken"].value


@pytest.fixture
def games(gm_user):
    werewolf = make_game(gm_user)
    names = ["Sam", "Vic", "Olga", "Otto", "Rina", "Reb"]
    bang = ribelle_game_create(gm=gm_user, name="Saloon", seed=1, player_names=names)
    train = adt_game_create(gm=gm_user, name="Treno", config={"cars": 3, "rounds": 3},
                            bandits=BANDITS)  # fmt: skip
    return {"werewolf": werewolf, "bang": bang, "adt": train}


# Charsets: a urlencoded form body declared in anything but utf-8, with CSRF enforced


@pytest.mark.parametrize("charset", ["latin-1", "utf-16", "UTF8", "us-ascii", "iso-8859-15"])
@pytest.mark.parametrize("url", ["login", "player_vote", "desks:player_hide"])
def test_a_form_in_another_charset_is_a_clean_400(charset, url):
    client = Client(enforce_csrf_checks=True)
    token = csrf(client)
    body = f"csrfmiddlewaretoken={token}&username=a&password=b".encode()
    response = client.generic("POST", reverse(url), body,
                              content_type=f"application/x-www-form-urlencoded; charset={charset}",
                              HTTP_X_CSRFTOKEN=token)  # fmt: skip
    assert response.status_code == 400
    assert "UTF-8" in response.content.decode()


def test_a_body_past_the_size_limit_is_a_400_in_the_sites_words(settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    client = Client(enforce_csrf_checks=True)
    token = csrf(client)
    response = client.post(reverse("login"), {"csrfmiddlewaretoken": token, "username": "x" * 5000},
                           HTTP_X_CSRFTOKEN=token)  # fmt: skip
    assert response.status_code == 400
    assert "troppo grande" in response.content.decode()


# Login: a username longer than the log's column


@pytest.mark.parametrize("length", [151, 256, 300, 5000])
def test_an_overlong_login_username_is_a_form_error(client, gm_user, length):
    before = stored()
    response = client.post(reverse("login"), {"username": "a" * length, "password": "x"})
    assert response.status_code == 200
    assert "errorlist" in response.content.decode() or "error" in response.content.decode()
    assert stored() == before


# Endpoints of one kind of game, reached by a player or a GM of another kind


def _player(games, kind: str) -> Player:
    return games[kind].players.order_by("seat").first()


PLAYER_POSTS = [
    # (endpoint, kinds of game whose player must get a 404 there, data)
    ("desks:player_hide", ("werewolf", "bang"), {"under": "car1"}),
    ("desks:player_reveal", ("werewolf", "adt"), {}),
    ("player_will", ("bang", "adt"), {"text": "Lascio tutto al Saloon."}),
    ("player_vote", ("bang", "adt"), {"phase": "1", "target": "Ada"}),
    ("player_action", ("bang", "adt"), {"phase": "1", "target": "Ada"}),
    ("player_withdraw", ("bang", "adt"), {"phase": "1", "slot": "ability"}),
]


@pytest.mark.parametrize(("url", "kinds", "data"), PLAYER_POSTS)
def test_a_player_posting_to_another_kind_of_games_endpoint_gets_404(games, url, kinds, data):
    for kind in kinds:
        phone = phone_of(_player(games, kind))
        token = phone.cookies["csrftoken"].value if "csrftoken" in phone.cookies else csrf(phone)
        before = stored()
        response = phone.post(reverse(url), {**data, "csrfmiddlewaretoken": token},
                              HTTP_X_CSRFTOKEN=token)  # fmt: skip
        assert response.status_code == 404, (url, kind)
        assert stored() == before


WEREWOLF_ONLY = ["games:wills", "games:gm_schedule",
                 "games:gm_vote", "games:gm_commit", "games:count_now", "games:topic_import",
                 "games:gm_undo_confirm"]  # fmt: skip


@pytest.mark.parametrize("name", WEREWOLF_ONLY)
@pytest.mark.parametrize("kind", ["bang", "adt"])
def test_the_werewolf_pages_of_a_desk_game_are_404(client, gm_user, games, name, kind):
    client.force_login(gm_user)
    url = reverse(name, args=[games[kind].pk])
    before = stored()
    assert client.get(url).status_code in (404, 405)
    assert client.post(url, {"phase": "1", "target": "Sam"}).status_code == 404
    assert stored() == before


@pytest.mark.parametrize("kind", ["bang", "adt"])
def test_the_rulebook_of_a_desk_game_is_the_desks_own(client, gm_user, games, kind):
    """A desk game has no Werewolf options to fill in: its rulebook as written."""
    client.force_login(gm_user)
    assert client.get(reverse("games:rulebook", args=[games[kind].pk])).status_code == 200


@pytest.mark.parametrize("kind", ["bang", "adt"])
def test_the_public_rulebook_of_a_desk_setup_never_fails(client, games, kind):
    phone = phone_of(_player(games, kind))
    response = phone.get(reverse("rulebook", args=[games[kind].setup]))
    assert response.status_code in (200, 404)


# Desk inputs: dates and names out of range


def _bea_alone(game: Game, gm_user) -> None:
    adt_log(game=game, kind="stealin", data={}, user=gm_user)
    adt_log(game=game, kind="action", data={"kind": "place", "actor": "Bea",
                                            "to": "locomotive:interior"}, user=gm_user)  # fmt: skip
    adt_log(game=game, kind="action", data={"kind": "move", "actor": "Bea", "to": "time_car"},
            user=gm_user)  # fmt: skip


@pytest.mark.parametrize(
    "hide_by",
    ["0001-01-01T00:00", "0001-01-01T00:00+05:00", "9999-12-31T23:59-05:00",
     "9999-12-31T23:59:59+14:00", "0001-01-01", "10000-01-01T00:00", "2026-13-45T99:99"],
)  # fmt: skip
def test_an_extreme_hide_by_date_is_refused_and_the_pages_still_open(client, gm_user, games,
                                                                    hide_by):  # fmt: skip
    train = games["adt"]
    _bea_alone(train, gm_user)
    client.force_login(gm_user)
    before = stored()
    response = client.post(reverse("desks:adt_event", args=[train.pk]),
                           {"kind": "round_end", "hide_by": hide_by}, follow=True)  # fmt: skip
    assert response.status_code == 200
    if stored() != before:  # accepted: only a date every page can show
        assert client.get(reverse("games:detail", args=[train.pk])).status_code == 200
        bea = phone_of(train.players.get(name="Bea"))
        assert bea.get(reverse("player_home")).status_code == 200
    else:
        assert "data" in response.content.decode().lower()


@pytest.mark.parametrize("length", [81, 200, 5000])
def test_a_time_car_bandit_name_past_80_characters_is_a_form_error(client, gm_user, length):
    client.force_login(gm_user)
    before = stored()
    response = client.post(reverse("desks:adt_new"), {
        "name": "Treno", "bandits": f"{'A' * length}: django\nBea: belle", "rounds": "3",
        "language": "it",
    })  # fmt: skip
    assert response.status_code == 200
    assert "errorlist" in response.content.decode()
    assert stored() == before


@pytest.mark.parametrize("phase", ["²", "١", "⅕", "1e9", "99999999999999999999", "-1"])
def test_a_bang_phase_that_is_not_a_small_number_is_a_form_error(client, gm_user, games, phase):
    client.force_login(gm_user)
    bang = games["bang"]
    before = stored()
    url = reverse("desks:ribelle_event", args=[bang.pk])
    response = client.post(url, {"kind": "turn", "player": "Sam", "phase": phase}, follow=True)
    assert response.status_code == 200
    assert stored() == before


# An uploaded forum page whose <time> is out of range: the post has no time, never a 500


@pytest.mark.parametrize(
    "raw",
    ["0001-01-01T00:00:00+05:00", "9999-12-31T23:59:59-05:00", "99999999999999999999", "²",
     "1" * 5000, "0000-00-00T00:00:00Z", "2026-02-30T10:00:00Z"],
)  # fmt: skip
def test_an_out_of_range_time_in_an_uploaded_page_is_no_time(raw):
    zone = ZoneInfo("Europe/Rome")
    clock = Clock(today=dt.date(2026, 12, 3), now=dt.datetime(2026, 12, 3, 20, tzinfo=zone),
                  zone=zone)  # fmt: skip
    assert _moment(raw, clock) is None
