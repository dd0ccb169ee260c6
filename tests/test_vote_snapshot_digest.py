"""The vote's statement reads the SHA-256 of the phase's snapshot, not the snapshot
(games/snapshot.digest_state): the bytes are read once per process, only used when they
are the ones the digest was read for, and a changed snapshot is a new state."""

from __future__ import annotations

import hashlib
import pickle

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import snapshot
from games.engine import rules_for
from games.models import Phase, Submission
from games.snapshot import built_from_snapshot, digest_state
from tests.factories import make_game
from tests.test_vote_snapshot import all_queries, day_one, login_as

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("two_statement_vote")]


@pytest.fixture
def kept_day(gm_user, monkeypatch, django_capture_on_commit_callbacks, settings):
    settings.TABULA_SUBMIT_RATE = "1000/m"
    monkeypatch.setattr(snapshot, "_BY_DIGEST", type(snapshot._BY_DIGEST)())
    game = make_game(gm_user)
    day = day_one(game, gm_user)
    with django_capture_on_commit_callbacks(execute=True):
        built_from_snapshot(game, day)
    day.refresh_from_db()
    assert day.snapshot is not None
    return game, day


def test_the_vote_reads_the_digest_and_the_bytes_once(client, kept_day):
    game, day = kept_day
    snapshot._BY_DIGEST.clear()  # a process that never saw this snapshot
    sheriff, indian = (game.players.get(role=r) for r in ("sceriffo", "indiano"))
    login_as(client, sheriff)
    answers = []
    for _ in range(2):
        with CaptureQueriesContext(connection) as captured:
            response = client.post(reverse("player_vote"), {"target": indian.name, "phase": day.pk},
                                   headers={"HX-Request": "true"})  # fmt: skip
        answers.append((response.content.decode(), all_queries(captured)))
    (first, first_queries), (second, second_queries) = answers
    assert "Voto registrato." in first
    assert "Voto registrato." in second
    voter_statement = next(q for q in first_queries if "games_player" in q and "sha256" in q)
    assert 'ph."snapshot",' not in voter_statement
    assert sum('"snapshot"' in q and "sha256" not in q for q in first_queries) == 1  # the bytes
    assert not any('"snapshot"' in q and "sha256" not in q for q in second_queries)
    assert list(snapshot._BY_DIGEST) == [hashlib.sha256(day.snapshot).digest()]
    assert Submission.objects.filter(player=sheriff, phase=day).count() == 2


def test_bytes_that_are_not_the_digests_are_never_used(kept_day):
    game, day = kept_day
    rules = rules_for(game)
    snapshot._BY_DIGEST.clear()
    stale = hashlib.sha256(b"the snapshot before a commit").digest()
    assert digest_state(day, stale, rules) is None  # the row changed since: locked path
    assert not snapshot._BY_DIGEST
    assert digest_state(day, None, rules) is None  # no snapshot
    other = Phase.from_db("default", ["id", "snapshot_rules"], [day.pk, "other-rules"])
    assert digest_state(other, hashlib.sha256(day.snapshot).digest(), rules) is None


def test_a_changed_snapshot_is_a_new_state(kept_day):
    game, day = kept_day
    rules = rules_for(game)
    digest = hashlib.sha256(day.snapshot).digest()
    before = digest_state(day, digest, rules)
    assert before is not None
    state = pickle.loads(day.snapshot)
    marshal = game.players.get(role="maresciallo").name
    state.by_name[marshal].alive = False
    data = pickle.dumps(state)
    Phase.objects.filter(pk=day.pk).update(snapshot=data)
    after = digest_state(day, hashlib.sha256(data).digest(), rules)
    assert before.by_name[marshal].alive
    assert not after.by_name[marshal].alive
    assert digest_state(day, digest, rules) is before  # still the old bytes' state


def test_the_states_by_digest_are_bounded(kept_day, monkeypatch):
    game, day = kept_day
    monkeypatch.setattr(snapshot, "SHARED_SIZE", 1)
    state = pickle.loads(day.snapshot)
    for alive in (True, False):
        state.by_name[game.players.get(role="maresciallo").name].alive = alive
        data = pickle.dumps(state)
        Phase.objects.filter(pk=day.pk).update(snapshot=data)
        assert digest_state(day, hashlib.sha256(data).digest(), rules_for(game)) is not None
    assert list(snapshot._BY_DIGEST) == [hashlib.sha256(data).digest()]
