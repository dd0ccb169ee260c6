"""Issue 9, the vote in two statements (games/vote_fast.py): it is judged on the phase as
read, and stored only if the phase, share-locked, still takes it as it was judged; a
phase closed, paused out, closed to the players or given a new snapshot in between takes
the locked path, and a close in flight is waited for, never overtaken."""

from __future__ import annotations

import re
import threading

import pytest
from django.db import connection, connections
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import AuditEvent, Phase, Submission
from games.vote_fast import vote_fast, voter_read
from tests.factories import make_game
from tests.test_vote_snapshot import all_queries, day_one, keep_snapshot, login_as

pytestmark = pytest.mark.usefixtures("two_statement_vote")


def read_voter(game, role, target_role, phase):
    voter, target = (game.players.get(role=r) for r in (role, target_role))
    return voter_read(voter.pk, target.name, phase.pk), target


def kept(phase, django_capture_on_commit_callbacks):
    phase.refresh_from_db()


@pytest.mark.django_db
def test_9_a_vote_is_two_queries_the_last_one_storing_both_rows_under_the_guard(
    client, gm_user, django_capture_on_commit_callbacks
):  # fmt: skip
    game = make_game(gm_user)
    day = day_one(game, gm_user)
    sheriff, indian, cowboy = (game.players.get(role=r) for r in ("sceriffo", "indiano", "pastore"))
    login_as(client, sheriff)
    keep_snapshot(client, django_capture_on_commit_callbacks, day, indian)
    with CaptureQueriesContext(connection) as captured:
        response = client.post(reverse("player_vote"), {"target": cowboy.name, "phase": day.pk},
                               headers={"HX-Request": "true"})  # fmt: skip
    queries = all_queries(captured)
    # the session with the voter and the phase (this process saw the session's player in
    # the vote above: tests/test_vote_session_read.py), the rebuild (players, committed
    # phases: no stored state, issue 27 §1), the store
    assert len(queries) == 4, queries
    assert "django_session" in queries[0], queries
    assert "FOR SHARE" in queries[-1], queries
    assert queries[-1].count("INSERT INTO") == 2, queries
    assert not any(q.startswith(("BEGIN", "COMMIT")) for q in queries), queries
    assert "Voto registrato." in response.content.decode()
    vote = Submission.objects.filter(phase=day, player=sheriff).order_by("at", "pk").last()
    assert vote.target == cowboy
    event = AuditEvent.objects.filter(kind="vote", player=sheriff).order_by("pk").last()
    assert event.detail == {"phase": day.label, "secret": False, "target": cowboy.name,
                            "reason": ""}  # fmt: skip


@pytest.mark.django_db
@pytest.mark.parametrize(
    "change",
    [
        {"status": Phase.Status.CLOSED},
        {"players_closed": True},
        {"snapshot_epoch": 99},
    ],
    ids=["closed", "closed-to-players", "new-snapshot"],
)
def test_9_a_phase_changed_after_the_read_stores_nothing(
    gm_user, django_capture_on_commit_callbacks, change
):  # fmt: skip
    """The guard: read open, then closed (or closed to the players, or given another
    snapshot epoch by a commit or an undo) before the store: nothing is stored and the
    caller is sent to the locked path (None)."""
    game = make_game(gm_user)
    day = day_one(game, gm_user)
    kept(day, django_capture_on_commit_callbacks)
    voter, _ = read_voter(game, "sceriffo", "pastore", day)
    Phase.objects.filter(pk=day.pk).update(**change)
    assert vote_fast(voter, secret=False, abstain=False, received_at=None) is None
    assert not Submission.objects.filter(phase=day).exists()
    assert not AuditEvent.objects.filter(kind="vote").exists()


@pytest.mark.django_db
def test_9_a_deadline_moved_before_the_vote_after_the_read_stores_nothing(
    gm_user, django_capture_on_commit_callbacks
):  # fmt: skip
    game = make_game(gm_user)
    day = day_one(game, gm_user)
    kept(day, django_capture_on_commit_callbacks)
    voter, _ = read_voter(game, "sceriffo", "pastore", day)
    Phase.objects.filter(pk=day.pk).update(closes_at=voter.now)  # now, not before: closed
    assert vote_fast(voter, secret=False, abstain=False, received_at=None) is None
    assert not Submission.objects.filter(phase=day).exists()


@pytest.mark.django_db(transaction=True)
def test_9_a_store_waits_for_a_close_in_flight_and_then_stores_nothing(gm_user):
    """A close (an update of the phase row) running when the store comes: the store waits
    on the row's lock, sees the closed row once the close commits, and stores nothing."""
    game = make_game(gm_user)
    day = day_one(game, gm_user)
    day.refresh_from_db()
    voter, _ = read_voter(game, "sceriffo", "pastore", day)
    closer = connections.create_connection("default")
    try:
        with closer.cursor() as cursor:
            closer.set_autocommit(False)
            cursor.execute("UPDATE games_phase SET status = %s WHERE id = %s",
                           [Phase.Status.CLOSED, day.pk])  # fmt: skip
            result: list = []
            store = threading.Thread(target=lambda: result.append(_vote_in_thread(voter)))
            store.start()
            store.join(timeout=1.0)
            assert store.is_alive(), "the store did not wait for the close's lock"
            closer.commit()
            store.join(timeout=10)
        assert result == [None]
        assert not Submission.objects.filter(phase=day).exists()
    finally:
        closer.close()


def _vote_in_thread(voter):
    try:
        return vote_fast(voter, secret=False, abstain=False, received_at=None)
    finally:
        connection.close()


@pytest.mark.django_db
def test_9_the_answer_carries_the_token_the_csrf_check_accepted(gm_user):
    """The htmx answer's form holds the token the request carried and Django's CSRF check
    accepted (the page's own), not a new one; a wrong token is still refused (403)."""
    game = make_game(gm_user)
    day = day_one(game, gm_user)
    sheriff, cowboy = game.players.get(role="sceriffo"), game.players.get(role="pastore")
    browser = Client(enforce_csrf_checks=True)
    login_as(browser, sheriff)
    page = browser.get(reverse("player_home")).content.decode()
    token = re.search(r'"X-CSRFToken": "(\w+)"', page).group(1)
    response = browser.post(reverse("player_vote"), {"target": cowboy.name, "phase": day.pk},
                            headers={"HX-Request": "true", "X-CSRFToken": token})  # fmt: skip
    html = response.content.decode()
    assert "Voto registrato." in html
    assert f'name="csrfmiddlewaretoken" value="{token}"' in html
    forged = token[:-1] + ("a" if token[-1] != "a" else "b")
    response = browser.post(reverse("player_vote"), {"target": cowboy.name, "phase": day.pk},
                            headers={"HX-Request": "true", "X-CSRFToken": forged})  # fmt: skip
    assert response.status_code == 403
