"""The vote reads the session with the voter in one statement once the process has seen
the session's player (games/player_views.py ``_session_voter``), and the session is
checked exactly as before: whose it is, expired, rotated link, another player's."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.sessions.models import Session
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games import player_views
from games.models import Submission
from games.services import player_link_issue
from tests.factories import make_game
from tests.test_vote_snapshot import all_queries, day_one, login_as

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("two_statement_vote")]


@pytest.fixture
def day(gm_user, settings):
    settings.TABULA_SUBMIT_RATE = "1000/m"
    game = make_game(gm_user)
    return game, day_one(game, gm_user)


def _vote(client, day, target):
    with CaptureQueriesContext(connection) as captured:
        response = client.post(reverse("player_vote"), {"target": target.name, "phase": day.pk},
                               headers={"HX-Request": "true"})  # fmt: skip
    return response, all_queries(captured)


def test_the_first_vote_reads_the_session_alone_the_next_with_the_voter(client, day):
    game, phase = day
    sheriff, indian = (game.players.get(role=r) for r in ("sceriffo", "indiano"))
    login_as(client, sheriff)
    player_views._SESSION_PLAYERS.pop(client.session.session_key, None)
    first, queries = _vote(client, phase, indian)
    assert "Voto registrato." in first.content.decode()
    assert [("django_session" in q) for q in queries[:2]] == [True, False]
    second, queries = _vote(client, phase, indian)
    assert "Voto registrato." in second.content.decode()
    assert "django_session" in queries[0]
    assert "games_player" in queries[0]
    assert len([q for q in queries if "django_session" in q]) == 1


def test_a_wrong_guess_still_votes_as_the_sessions_own_player(client, day):
    game, phase = day
    sheriff, indian = (game.players.get(role=r) for r in ("sceriffo", "indiano"))
    login_as(client, sheriff)
    player_views._SESSION_PLAYERS[client.session.session_key] = indian.pk  # not his
    response, queries = _vote(client, phase, indian)
    assert "Voto registrato." in response.content.decode()
    assert Submission.objects.get(phase=phase, target=indian).player == sheriff
    assert not Submission.objects.filter(player=indian).exists()
    assert player_views._SESSION_PLAYERS[client.session.session_key] == sheriff.pk
    assert (
        len(queries) == 5
    )  # the guess's statement, the right player's, the rebuild's two, the store


def test_an_expired_session_is_refused_with_a_guess_too(client, day):
    game, phase = day
    sheriff, indian = (game.players.get(role=r) for r in ("sceriffo", "indiano"))
    login_as(client, sheriff)
    assert "Voto registrato." in _vote(client, phase, indian)[0].content.decode()
    key = client.session.session_key
    assert player_views._SESSION_PLAYERS[key] == sheriff.pk
    Session.objects.filter(session_key=key).update(expire_date=timezone.now() - dt.timedelta(1))
    response, _ = _vote(client, phase, indian)
    assert response.status_code == 404
    assert Submission.objects.filter(player=sheriff).count() == 1


def test_a_rotated_link_is_refused_with_a_guess_too(client, day):
    game, phase = day
    sheriff, indian = (game.players.get(role=r) for r in ("sceriffo", "indiano"))
    login_as(client, sheriff)
    assert "Voto registrato." in _vote(client, phase, indian)[0].content.decode()
    player_link_issue(player=sheriff)  # a new link: the session of the old one is done
    response, _ = _vote(client, phase, indian)
    assert response.status_code == 404
    assert Submission.objects.filter(player=sheriff).count() == 1


def test_a_session_turned_to_another_player_votes_as_that_player(client, day):
    game, phase = day
    sheriff, indian, cowboy = (game.players.get(role=r) for r in ("sceriffo", "indiano", "pastore"))
    login_as(client, sheriff)
    assert "Voto registrato." in _vote(client, phase, indian)[0].content.decode()
    login_as(client, cowboy)  # the same browser opens another link: a new session key
    assert "Voto registrato." in _vote(client, phase, indian)[0].content.decode()
    assert Submission.objects.filter(player=cowboy, target=indian).count() == 1
    assert Submission.objects.filter(player=sheriff).count() == 1
