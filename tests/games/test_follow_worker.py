"""Issue 32, the real scheduler path: Celery beat queues the tick, a real worker on Redis
runs it, the tick claims the followed thread whose read is due and queues its read task
(``games.follow_read``) on the same queue, the worker runs the read against the local
test forum, and the read lands in the database: the read log, the posts, the day's
votes. Then the polite schedule holds: the beat ticks on, the thread is not read again
within its minute."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator

import pytest
from django.core.cache import cache

from games.models import ThreadPost, ThreadRead
from games.services.follow import follow_start
from gm.celery import app
from tests.conftest import ROOT, database_url_for_subprocess
from tests.factories import wait_for
from tests.games.follow_tools import ago, serve, standing
from tests.games.forum_server import Thread
from tests.processes import celery_beat, stop

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def forum_clock(httpserver, settings) -> Iterator[str]:
    """A worker and a beat of this test's own, on a queue of their own, that may read the
    local test forum (its host:port allowed in their environment, as in the test's)."""
    allowed = f"{httpserver.host}:{httpserver.port}"
    settings.TABULA_FOLLOW_ALLOW_PRIVATE = [allowed]
    cache.clear()
    httpserver.expect_request("/robots.txt").respond_with_data("User-agent: *\nAllow: /\n")
    queue = f"follow-{uuid.uuid4().hex[:10]}"
    env = {**os.environ, "DATABASE_URL": database_url_for_subprocess(), "TABULA_QUEUE": queue,
           "TABULA_FOLLOW_ALLOW_PRIVATE": allowed, "TABULA_CLOSE_GRACE_SECONDS": "0",
           "TABULA_TICK_SECONDS": "0.5"}  # fmt: skip
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "gm", "worker", "--loglevel", "warning",
         "--concurrency", "1", "--without-mingle", "--without-gossip", "--queues", queue,
         "--hostname", f"{queue}@%h"],
        cwd=ROOT, env=env, start_new_session=True,
    )  # fmt: skip
    try:
        with celery_beat(env):
            app.send_task("gm.ping", args=["ready"], queue=queue).get(timeout=60)
            yield queue
    finally:
        stop(worker)


def test_beat_ticks_and_the_worker_reads_the_followed_thread(forum_clock, httpserver,
                                                             thread_day, gm_user):  # fmt: skip
    thread = Thread("phpbb")
    thread.add("Narratore", ago(290), "Si vota! [b]Voto: Nome[/b]")
    thread.add("Sam", ago(120), "[b]Voto: Gino[/b]")
    thread.add("Mia", ago(100), "Voto Sam")
    serve(httpserver, thread)
    followed = follow_start(game=thread_day.game, user=gm_user,
                            url=httpserver.url_for("/viewtopic.php"))  # fmt: skip
    assert wait_for(lambda: ThreadRead.objects.filter(thread=followed).exists(), 60)
    read = ThreadRead.objects.get(thread=followed)
    assert (read.status, read.posts_new, read.note) == (200, 3, "")
    assert ThreadPost.objects.filter(thread=followed).count() == 3
    assert standing(thread_day) == {"Sam": "Gino", "Mia": "Sam"}
    followed.refresh_from_db()
    assert followed.last_read_at == read.at
    time.sleep(3)  # six more ticks: the next read is a minute away, none is queued
    assert ThreadRead.objects.filter(thread=followed).count() == 1
    pages = [r.path for r, _response in httpserver.log if r.path != "/robots.txt"]
    assert pages == ["/viewtopic.php"]
