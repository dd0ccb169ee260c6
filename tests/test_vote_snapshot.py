"""Issue 9, the speed target: a vote is judged on the snapshot of the state at the phase's
opening kept on the phase row, in a handful of queries and without replaying the game,
and that snapshot is never stale after a commit, an undo, a substitution or a change of
the rules' code."""

from __future__ import annotations

import pickle

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import snapshot
from games.engine import rebuild, rules_for
from games.models import Phase, Submission, TopicSettings
from games.phases import current_phase, phase_commit, phase_undo
from games.services import player_link_issue, player_substitute
from games.snapshot import built_from_snapshot
from games.submitting import action_submit, vote_cast
from roles.native import implementation
from tests.factories import make_game
from tests.test_deadlines import state_view

pytestmark = pytest.mark.django_db


def login_as(client, player):
    client.get(reverse("player_enter", args=[player_link_issue(player=player)]))


def day_one(game, user):
    phase_commit(phase=current_phase(game), user=user)
    return current_phase(game)


def no_rebuild(*args, **kwargs):
    raise AssertionError("the vote path replayed the whole game")


def vote_queries(captured):
    """The queries of the vote itself (the session store and the test's savepoints are
    not the vote's)."""
    return [q["sql"] for q in captured.captured_queries
            if "django_session" not in q["sql"] and "SAVEPOINT" not in q["sql"]]  # fmt: skip


def test_a_vote_takes_at_most_six_queries_and_never_rebuilds_the_game(
    client, gm_user, monkeypatch, django_assert_max_num_queries,
    django_capture_on_commit_callbacks,
):  # fmt: skip
    game = make_game(gm_user)
    day = day_one(game, gm_user)
    sheriff, indian, cowboy = (game.players.get(role=r) for r in ("sceriffo", "indiano", "pastore"))
    login_as(client, sheriff)
    with django_capture_on_commit_callbacks(execute=True):  # the first vote keeps the snapshot
        client.post(reverse("player_vote"), {"target": indian.name, "phase": day.pk})
    day.refresh_from_db()
    assert day.snapshot is not None
    assert day.snapshot_rules == snapshot.rules_version(rules_for(game))
    monkeypatch.setattr(snapshot, "rebuild", no_rebuild)
    with django_assert_max_num_queries(12) as captured:
        response = client.post(reverse("player_vote"), {"target": cowboy.name, "phase": day.pk})
    assert response.status_code == 302
    # The vote's own six (its player, the open phases, the target, the phase locked with
    # its snapshot, the submission, the audit event) and, since the thread import, the
    # game's "votes are given in the thread" setting.
    queries = vote_queries(captured)
    assert len(queries) <= 7, queries
    assert sum("games_topicsettings" not in q for q in queries) <= 6, queries
    stored = Submission.objects.filter(phase=day, player=sheriff).order_by("at", "pk")
    assert [s.target_id for s in stored] == [indian.pk, cowboy.pk]
    # The page's own path (htmx): confirmed, the forms re-rendered, still no replay.
    response = client.post(reverse("player_vote"), {"target": indian.name, "phase": day.pk},
                           headers={"HX-Request": "true"})  # fmt: skip
    html = response.content.decode()
    assert "Voto registrato." in html
    assert f'<option value="{indian.name}" selected>' in html  # the standing vote, the newest
    assert f'<option value="{cowboy.name}" selected>' not in html
    assert Submission.objects.filter(phase=day, player=sheriff).count() == 3


def all_queries(captured):
    """Every query of the request, the session's included (only the test's own savepoints
    are left out: outside a test the vote's transaction is the outermost)."""
    return [q["sql"] for q in captured.captured_queries if "SAVEPOINT" not in q["sql"]]


def keep_snapshot(client, django_capture_on_commit_callbacks, phase, target):
    with django_capture_on_commit_callbacks(execute=True):  # the first vote keeps the snapshot
        client.post(reverse("player_vote"), {"target": target.name, "phase": phase.pk})


@pytest.mark.parametrize("htmx", [True, False])
def test_9_a_vote_takes_six_queries_in_all_with_its_answer(
    client, gm_user, django_capture_on_commit_callbacks, htmx
):  # fmt: skip
    """Issue 9, the speed target: at most six queries for the whole request, the session
    and the answer included. Four: the session; the player with his game, whether it takes
    its votes from the thread and the target; the phase locked with its snapshot; the
    submission with its audit event (one statement). The page's answer is the vote form
    alone."""
    game = make_game(gm_user)
    day = day_one(game, gm_user)
    sheriff, indian, cowboy = (game.players.get(role=r) for r in ("sceriffo", "indiano", "pastore"))
    login_as(client, sheriff)
    keep_snapshot(client, django_capture_on_commit_callbacks, day, indian)
    headers = {"HX-Request": "true"} if htmx else {}
    with CaptureQueriesContext(connection) as captured:
        response = client.post(reverse("player_vote"), {"target": cowboy.name, "phase": day.pk},
                               headers=headers)  # fmt: skip
    queries = all_queries(captured)
    assert len(queries) <= 4, queries
    inserts = [q for q in queries if "INSERT" in q]  # the vote and its audit event, at once
    assert [q.count("INSERT INTO") for q in inserts] == [2], inserts
    if htmx:
        html = response.content.decode()
        assert html.lstrip().startswith("<form")
        assert html.count("<form") == 1
        assert '<p class="notice ok" role="status">Voto registrato.</p>' in html
        assert f'<option value="{cowboy.name}" selected>' in html
        assert 'hx-target="this"' in html
    else:
        assert response.status_code == 302
    votes = Submission.objects.filter(phase=day, player=sheriff).order_by("at", "pk")
    assert votes.last().target == cowboy


def test_9_a_secret_vote_in_a_game_voting_in_the_thread_takes_six_queries_too(
    client, gm_user, django_capture_on_commit_callbacks
):  # fmt: skip
    """The thread setting is read with the player (no seventh query): the Boia's secret
    vote (INQ-R45) stays on the site when the public votes are given in the thread."""
    game = make_game(gm_user, setup="inquisizione")
    TopicSettings.objects.create(game=game, votes_from_topic=True, vote_lines=["Voto Nome"],
                                 withdraw_lines=["#ritiro"])  # fmt: skip
    day = day_one(game, gm_user)
    boia = game.players.get(role="boia")
    target, other = game.players.exclude(pk=boia.pk)[:2]
    login_as(client, boia)
    secret = {"secret": "1", "phase": day.pk}
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("player_vote"), {**secret, "target": target.name})
    with CaptureQueriesContext(connection) as captured:
        response = client.post(reverse("player_vote"), {**secret, "target": other.name},
                               headers={"HX-Request": "true"})  # fmt: skip
    assert len(all_queries(captured)) <= 4, all_queries(captured)
    html = response.content.decode()
    assert 'name="secret" value="1"' in html
    assert f'<option value="{other.name}" selected>' in html
    vote = Submission.objects.filter(phase=day, player=boia).order_by("at", "pk").last()
    assert (vote.kind, vote.target) == (Submission.Kind.SECRET_VOTE, other)
    # the public vote is refused with the whole forms (they swap in place of the forms)
    response = client.post(reverse("player_vote"), {"phase": day.pk, "target": other.name},
                           headers={"HX-Request": "true"})  # fmt: skip
    assert "si vota nel topic" in response.content.decode()
    assert response.headers["HX-Retarget"] == "#forms"


def test_9_a_phase_of_another_game_is_refused_like_a_closed_one(client, gm_user):
    game, other = make_game(gm_user), make_game(gm_user, name="Altra")
    day, foreign = day_one(game, gm_user), day_one(other, gm_user)
    sheriff = game.players.get(role="sceriffo")
    login_as(client, sheriff)
    response = client.post(reverse("player_vote"),
                           {"target": game.players.exclude(pk=sheriff.pk)[0].name,
                            "phase": foreign.pk}, headers={"HX-Request": "true"})  # fmt: skip
    assert "Questa fase è chiusa" in response.content.decode()
    assert not Submission.objects.filter(player=sheriff).exists()
    assert day.pk != foreign.pk


def test_a_refused_vote_is_judged_on_the_snapshot(gm_user, django_capture_on_commit_callbacks):
    """WWW-D4: no vote for a player out of the game; the snapshot says who is out."""
    game = make_game(gm_user)
    day = day_one(game, gm_user)
    with django_capture_on_commit_callbacks(execute=True):
        built_from_snapshot(game, day)
    day.refresh_from_db()
    state = pickle.loads(day.snapshot)
    voter, target = game.players.get(role="sceriffo"), game.players.get(role="indiano")
    state.by_name[target.name].alive = False  # a snapshot saying the Indian is dead
    Phase.objects.filter(pk=day.pk).update(snapshot=pickle.dumps(state))
    with pytest.raises(ValidationError, match="WWW-D4"):
        vote_cast(phase=day, player=voter, target=target)
    # The same stale snapshot from other rules' code is ignored: the vote is judged again.
    Phase.objects.filter(pk=day.pk).update(snapshot_rules="older-rules")
    vote_cast(phase=day, player=voter, target=target)


def execute(game, day, victim, user):
    """Day one: everyone else votes ``victim``, and the GM commits."""
    for voter in game.players.exclude(pk=victim.pk):
        vote_cast(phase=day, player=voter, target=victim)
    phase_commit(phase=day, user=user)
    day.refresh_from_db()
    assert day.outcome["execution"]["executed"] == victim.name


def test_commit_and_undo_invalidate_the_snapshot(gm_user, django_capture_on_commit_callbacks):
    """The night after the day is opened with the day (WWW-D26): its snapshot, kept while
    the Maresciallo was alive, must not let him act once executed; after the undo of that
    execution he acts again and is voted again."""
    game = make_game(gm_user)
    day = day_one(game, gm_user)
    night = game.phases.get(label="N1")
    marshal, indian = game.players.get(role="maresciallo"), game.players.get(role="indiano")
    with django_capture_on_commit_callbacks(execute=True):
        action_submit(phase=night, player=marshal, target=indian)  # keeps N1's snapshot
    night.refresh_from_db()
    assert night.snapshot is not None
    execute(game, day, marshal, gm_user)
    night.refresh_from_db()  # the commit carries the state after the day (issue 10: speed)
    assert state_view(pickle.loads(night.snapshot)) == state_view(rebuild(game).state)
    assert not pickle.loads(night.snapshot).by_name[marshal.name].alive
    with pytest.raises(ValidationError, match="è morto"):
        action_submit(phase=night, player=marshal, target=indian)
    with django_capture_on_commit_callbacks(execute=True):
        built_from_snapshot(game, night)  # the pages keep the post-execution state
    night.refresh_from_db()
    assert night.snapshot is not None
    assert phase_undo(game=game, user=gm_user).label == "D1"
    action_submit(phase=night, player=marshal, target=indian)  # alive again
    day.refresh_from_db()
    assert day.status == Phase.Status.OPEN
    vote_cast(phase=day, player=marshal, target=indian)
    vote_cast(phase=day, player=indian, target=marshal)


def test_a_snapshot_built_before_a_commit_is_not_stored_after_it(
    gm_user, django_capture_on_commit_callbacks
):
    """A snapshot built from the old state while a commit lands is dropped (epoch)."""
    game = make_game(gm_user)
    day = day_one(game, gm_user)
    night = game.phases.get(label="N1")
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        built_from_snapshot(game, night)  # built now, written back only later
    marshal = game.players.get(role="maresciallo")
    execute(game, day, marshal, gm_user)
    for callback in callbacks:
        callback()
    night.refresh_from_db()  # the state the commit carried, not the one built before it
    assert not pickle.loads(night.snapshot).by_name[marshal.name].alive


def test_a_substitution_invalidates_the_snapshot(gm_user, django_capture_on_commit_callbacks):
    """The state names players: the new name votes and is voted at once."""
    game = make_game(gm_user)
    day = day_one(game, gm_user)
    with django_capture_on_commit_callbacks(execute=True):
        built_from_snapshot(game, day)
    seat = game.players.get(role="sceriffo")
    player_substitute(player=seat, new_name="Nuovo", user=gm_user)
    seat.refresh_from_db()
    vote_cast(phase=day, player=seat, target=game.players.get(role="indiano"))
    vote_cast(phase=day, player=game.players.get(role="indiano"), target=seat)


def test_a_state_that_cannot_be_kept_never_fails_the_vote(
    gm_user, monkeypatch, django_capture_on_commit_callbacks
):
    """Keeping the snapshot is an optimisation: if the state cannot be pickled, the vote
    is judged on the rebuilt state and stored all the same."""
    game = make_game(gm_user)
    day = day_one(game, gm_user)

    def unpicklable(*args, **kwargs):
        raise pickle.PicklingError("a state the engine made unpicklable")

    Phase.objects.filter(pk=day.pk).update(snapshot=None)  # N0's commit carried one
    monkeypatch.setattr(snapshot.pickle, "dumps", unpicklable)
    voter, target = game.players.get(role="sceriffo"), game.players.get(role="indiano")
    with django_capture_on_commit_callbacks(execute=True):
        vote_cast(phase=day, player=voter, target=target)
    day.refresh_from_db()
    assert day.snapshot is None
    assert Submission.objects.filter(phase=day, player=voter, target=target).exists()


def test_a_snapshot_kept_by_the_other_engine_implementation_is_rebuilt(gm_user, monkeypatch):
    """The compiled engine (roles/native.py) and its pure source pickle their classes
    differently: a snapshot's key names the implementation that kept it, so the one never
    unpickles the other's (a deploy that switches rebuilds, as for a change of rules)."""
    game = make_game(gm_user)
    day = day_one(game, gm_user)  # N0's commit kept the snapshot of D1's opening
    day.refresh_from_db()
    rules = rules_for(game)
    assert day.snapshot is not None
    assert day.snapshot_rules.endswith(f"/{implementation()}")
    assert snapshot._stored(day, rules) is not None
    other = "py" if implementation() == "mypyc" else "mypyc"
    monkeypatch.setattr(snapshot, "implementation", lambda: other)
    assert snapshot._stored(day, rules) is None


def _prepared() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL prepares")
@pytest.mark.django_db(transaction=True)  # a connection of the test's own
@pytest.mark.parametrize("enabled", [False, True])
def test_the_votes_statements_are_prepared_once_per_connection(client, gm_user, settings,
                                                               enabled):  # fmt: skip
    """PostgreSQL parses and plans the vote's fixed statements (the session, the voter, the
    phase locked, the submission with its event) once per connection, not on every vote;
    ``TABULA_PREPARED_STATEMENTS=false`` (behind a transaction-mode pooler) prepares none.
    Every vote is stored either way."""
    settings.TABULA_PREPARED_STATEMENTS = enabled
    connection.close()  # a new connection: nothing prepared yet
    game = make_game(gm_user)
    day = day_one(game, gm_user)
    sheriff, indian, cowboy = (game.players.get(role=r) for r in ("sceriffo", "indiano", "pastore"))
    login_as(client, sheriff)
    assert _prepared() == []
    for n in range(7):
        target = (indian, cowboy)[n % 2]
        response = client.post(reverse("player_vote"), {"target": target.name, "phase": day.pk},
                               headers={"HX-Request": "true"})  # fmt: skip
        assert "Voto registrato." in response.content.decode()
    prepared = _prepared()
    if not enabled:
        assert prepared == []
    else:
        assert any("FOR SHARE" in s for s in prepared), prepared  # the phase locked
        assert any("django_session" in s for s in prepared), prepared
        assert any("INSERT INTO" in s and "games_submission" in s for s in prepared), prepared
    stored = Submission.objects.filter(phase=day, player=sheriff).order_by("at", "pk")
    assert [s.target_id for s in stored] == [(indian, cowboy)[n % 2].pk for n in range(7)]
