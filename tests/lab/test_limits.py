"""Issue 27 §6, the lab and Redis: a GM's studies queued or running are bounded, so are a
study's games; the request stores the study and queues one task, which publishes the
chunks on the lab's own queue (the deadline work keeps the default one); every Redis call
has a short timeout; a study started while Redis cannot be reached fails at once with a
message instead of staying queued for ever; a chunk the model cannot play fails it."""

from __future__ import annotations

import datetime as dt
import json
import socket
import time
import uuid

import pytest
import redis
from django.conf import settings as django_settings
from django.urls import reverse
from django.utils import timezone

from gm.celery import app
from lab.models import BalanceStudy
from lab.services import (
    StudyRefused,
    balance_chunk_run,
    balance_studies_sweep,
    balance_study_cancel,
    balance_study_publish,
    balance_study_start,
)
from roles.balance.study import Variant

pytestmark = pytest.mark.django_db

FORM = {"setup": "coin-toss", "games": "1200", "model": "random", "seed": "1",
        "opt_ct__fate_strikes": "on", "opt_ct__allow_vote_change": "on",
        "opt_ct__dead_members_share_win": "on", "opt_ct__reveal_all_at_end": "on"}  # fmt: skip


@pytest.fixture
def lab_queue(settings):
    """A queue of this test's own, emptied after it (real Redis)."""
    settings.TABULA_LAB_QUEUE = f"lab-test-{uuid.uuid4().hex[:8]}"
    client = redis.Redis.from_url(django_settings.CELERY_BROKER_URL)
    yield client, settings.TABULA_LAB_QUEUE
    client.delete(settings.TABULA_LAB_QUEUE)


def queued_tasks(client: redis.Redis, queue: str) -> list[str]:
    return [json.loads(m)["headers"]["task"] for m in client.lrange(queue, 0, -1)]


def start(gm, games: int = 1000) -> BalanceStudy:
    return balance_study_start(gm=gm, variant=Variant("coin-toss"), games=games,
                               model="random", seed=1)  # fmt: skip


def test_a_gm_has_at_most_the_set_number_of_studies(client, gm_user, django_user_model, settings):
    settings.TABULA_LAB_STUDIES_PER_GM = 3
    first = [start(gm_user) for _ in range(3)]
    with pytest.raises(StudyRefused):
        start(gm_user)
    client.force_login(gm_user)
    response = client.post(reverse("balance:home"), FORM)
    assert response.status_code == 200
    assert "Hai già 3 studi in coda o in corso" in response.content.decode()
    assert BalanceStudy.objects.count() == 3
    other = django_user_model.objects.create_user(username="altro", password="pw-altro-1")
    start(other)  # another GM's bound is his own
    assert balance_study_cancel(study=first[0])  # a cancelled study frees its place
    start(gm_user)
    BalanceStudy.objects.filter(pk=first[1].pk).update(status=BalanceStudy.Status.FAILED)
    start(gm_user)
    assert BalanceStudy.objects.filter(gm=gm_user, status__in=BalanceStudy.ACTIVE).count() == 3


def test_a_study_has_at_most_the_set_number_of_games(client, gm_user, settings):
    settings.TABULA_LAB_MAX_GAMES = 1000
    with pytest.raises(StudyRefused):
        start(gm_user, games=1001)
    client.force_login(gm_user)
    response = client.post(reverse("balance:home"), FORM)  # 1200 games
    assert response.status_code == 200
    assert 'max="1000"' in response.content.decode()
    assert not BalanceStudy.objects.exists()


def test_the_request_queues_one_task_and_the_task_publishes_the_chunks(
    client, gm_user, lab_queue, django_capture_on_commit_callbacks
):
    redis_client, queue = lab_queue
    client.force_login(gm_user)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("balance:home"), FORM)
    study = BalanceStudy.objects.get()
    assert response.url == study.get_absolute_url()
    assert study.status == BalanceStudy.Status.QUEUED
    assert queued_tasks(redis_client, queue) == ["lab.balance_publish"]  # not its 3 chunks
    assert balance_study_publish(study.pk) == 3
    assert sorted(queued_tasks(redis_client, queue)) == ["games.balance_chunk"] * 3 + [
        "lab.balance_publish"
    ]
    assert balance_study_publish(study.pk) == 0  # once
    study.refresh_from_db()
    assert study.status == BalanceStudy.Status.RUNNING


def test_lab_tasks_have_their_own_queue_and_the_deadline_work_keeps_the_default():
    route = app.amqp.router.route
    assert route({}, "games.deadlines_tick")["queue"].name == app.conf.task_default_queue
    assert route({}, "lab.balance_publish")["queue"].name == django_settings.TABULA_LAB_QUEUE
    assert route({}, "games.balance_chunk")["queue"].name == django_settings.TABULA_LAB_QUEUE
    assert app.conf.task_default_queue != django_settings.TABULA_LAB_QUEUE


def test_every_redis_call_has_a_short_timeout():
    timeout = django_settings.TABULA_REDIS_TIMEOUT_SECONDS
    assert 1 < timeout <= 3
    options = app.conf.broker_transport_options
    assert options["socket_timeout"] == options["socket_connect_timeout"] == timeout
    assert app.conf.broker_connection_timeout == timeout
    assert app.conf.redis_socket_timeout == app.conf.redis_socket_connect_timeout == timeout
    cache = django_settings.CACHES["default"]["OPTIONS"]
    assert cache["socket_timeout"] <= timeout
    assert cache["socket_connect_timeout"] <= timeout


@pytest.fixture
def frozen_redis():
    """A port that takes connections and never answers (a frozen Redis)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    yield server.getsockname()[1]
    server.close()


@pytest.fixture
def closed_port():
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    return port


@pytest.mark.django_db(transaction=True)  # the request's own commit queues the task
@pytest.mark.parametrize("kind", ["frozen_redis", "closed_port"])
def test_a_study_started_while_redis_is_out_fails_at_once(kind, request, client, gm_user):
    port = request.getfixturevalue(kind)
    before = app.conf.broker_url
    app.conf.broker_url = f"redis://127.0.0.1:{port}/0"
    client.force_login(gm_user)
    try:
        began = time.monotonic()
        response = client.post(reverse("balance:home"), FORM)
        spent = time.monotonic() - began
    finally:
        app.conf.broker_url = before
    assert spent < 3 * django_settings.TABULA_REDIS_TIMEOUT_SECONDS + 1
    study = BalanceStudy.objects.get()
    assert study.status == BalanceStudy.Status.FAILED
    assert study.failure == BalanceStudy.Failure.BROKER
    page = client.get(response.url).content.decode()
    assert "Studio non riuscito: la coda dei lavori (Redis) non era raggiungibile" in page
    assert "Studio non avviato" in page  # the message after the redirect
    assert 'id="progress"' not in page  # nothing polls a study that will never run


def test_a_chunk_the_model_cannot_play_fails_the_study(gm_user):
    """Refused by the form (tests/lab/test_form.py); a study stored before that still ends."""
    study = balance_study_start(gm=gm_user, variant=Variant("wild-west-wolf",
                                {"www.allow_vote_change": False}), games=500, model="random",
                                seed=2)  # fmt: skip
    BalanceStudy.objects.filter(pk=study.pk).update(status=BalanceStudy.Status.RUNNING)
    assert balance_chunk_run(study.pk, 0, 0) == "failed"
    study.refresh_from_db()
    assert study.status == BalanceStudy.Status.FAILED
    assert study.failure == BalanceStudy.Failure.ENGINE


def test_a_study_whose_tasks_redis_lost_is_failed_by_the_sweep(client, gm_user, lab_queue):
    """Issue 27 §6: a study must not stay running for ever. Its tasks gone (a Redis restart
    without its data), the sweep beat queues on the lab's queue finds nothing left there
    and nothing stored for TABULA_LAB_STALL_SECONDS: the study fails, with the reason."""
    stale = timezone.now() - dt.timedelta(seconds=django_settings.TABULA_LAB_STALL_SECONDS + 1)
    lost, recent, queued = start(gm_user), start(gm_user), start(gm_user)
    BalanceStudy.objects.filter(pk=lost.pk).update(status=BalanceStudy.Status.RUNNING,
                                                   touched_at=stale)  # fmt: skip
    BalanceStudy.objects.filter(pk=recent.pk).update(status=BalanceStudy.Status.RUNNING)
    BalanceStudy.objects.filter(pk=queued.pk).update(created_at=stale)  # its publish lost
    assert balance_studies_sweep() == 2
    for study, status in ((lost, "failed"), (recent, "running"), (queued, "failed")):
        study.refresh_from_db()
        assert study.status == status
    assert lost.failure == queued.failure == BalanceStudy.Failure.LOST
    client.force_login(gm_user)
    page = client.get(lost.get_absolute_url()).content.decode()
    assert "Studio non riuscito: i suoi lavori sono andati persi" in page


def test_the_sweep_leaves_a_study_whose_work_still_waits(gm_user, lab_queue):
    """Behind another study's chunks a study waits, it is not lost."""
    waiting = start(gm_user)
    BalanceStudy.objects.filter(pk=waiting.pk).update(
        created_at=timezone.now() - dt.timedelta(hours=1)
    )
    other = start(gm_user)
    assert balance_study_publish(other.pk) == 2  # two chunks wait in the lab's queue
    assert balance_studies_sweep() == 0
    waiting.refresh_from_db()
    assert waiting.status == BalanceStudy.Status.QUEUED


def test_beat_queues_the_sweep_on_the_lab_queue():
    entry = django_settings.CELERY_BEAT_SCHEDULE["lab-sweep"]
    assert entry["task"] == "lab.balance_sweep"
    assert app.amqp.router.route({}, entry["task"])["queue"].name == (
        django_settings.TABULA_LAB_QUEUE
    )
