"""A task goes through a real worker process on real Redis and its result comes back."""

from __future__ import annotations

import pytest

from games.services.game import game_create
from games.tasks import game_describe
from gm.celery import app
from gm.tasks import ping

pytestmark = pytest.mark.celery_worker


def test_celery_is_configured_for_json_with_time_limits():
    assert app.conf.task_serializer == "json"
    assert app.conf.accept_content == ["json"]
    assert app.conf.task_time_limit == 120
    assert app.conf.task_soft_time_limit == 100
    assert {"gm.ping", "games.describe"} <= set(app.tasks)


def test_ping_round_trip_through_the_worker(celery_worker_process):
    result = ping.delay("ciao")
    assert result.get(timeout=30) == {"reply": "ciao"}


@pytest.mark.django_db(transaction=True)
def test_worker_reads_the_sites_database(celery_worker_process, gm_user):
    names = [f"P{i:02d}" for i in range(16)]
    game = game_create(gm=gm_user, name="Worker", setup_key="wild-west-wolf",
                       player_names=names, seed=1)  # fmt: skip
    summary = game_describe.delay(game.pk).get(timeout=30)
    assert summary == {"id": game.pk, "name": "Worker", "setup": "wild-west-wolf",
                       "players": names}  # fmt: skip
