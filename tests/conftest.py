"""Shared fixtures: the GM user, a real Celery worker process, the live server (the system
Chromium is tests/browser/conftest.py's)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from games.forum import dates as forum_dates
from games.services import backup_schema, clock
from games.text import rulebook, words
from roles.engine.setups import register_package

ROOT = Path(__file__).resolve().parent.parent
CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def pytest_configure(config: pytest.Config) -> None:
    """In CI the suite must run on PostgreSQL: fail loudly rather than test SQLite."""
    from django.conf import settings

    engine = settings.DATABASES["default"]["ENGINE"]
    if CI and engine != "django.db.backends.postgresql":
        pytest.exit(f"CI=true but the test database is {engine}, not PostgreSQL", returncode=1)


@pytest.fixture
def before_noon() -> Iterator[None]:
    """Tomorrow at 08:00 in Rome, the clock running. The will tests commit a night and
    write its will at once, and a night death's will freezes at noon of the day that
    follows (WWW-R17, WWW-R46): without this they depend on the hour the suite runs.
    Ahead of the database's clock, never behind it, so no deadline seems already past."""
    import time_machine

    from tests.factories import tomorrow_morning

    morning = tomorrow_morning()
    with time_machine.travel(morning, tick=True):
        yield


@pytest.fixture
def gm_user(django_user_model):
    return django_user_model.objects.create_user(username="master", password="pw-master-1")


@pytest.fixture
def gm(client, gm_user):
    """The test client, logged in as the GM."""
    client.force_login(gm_user)
    return client


@pytest.fixture
def day(client, gm_user):
    """A Wild West Wolf game on its first day (Night 0 committed), the GM logged in."""
    from tests.factories import day_one

    client.force_login(gm_user)
    return day_one(gm_user)[1]


def database_url_for_subprocess() -> str:
    """The URL of the test database, for processes started by a test."""
    from django.db import connection

    s = connection.settings_dict
    if connection.vendor == "postgresql":
        auth = s["USER"] + (f":{s['PASSWORD']}" if s["PASSWORD"] else "")
        return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"
    return f"sqlite:///{s['NAME']}"


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup, django_db_blocker) -> Iterator[subprocess.Popen]:
    """A real `celery worker` process on the configured Redis, using the test database."""
    import redis
    from django.conf import settings

    from gm.celery import app

    with django_db_blocker.unblock():
        database_url = database_url_for_subprocess()
    # A queue of this session's own: messages left by an earlier run (a tick, or one
    # a killed worker held) must never reach this session's database.
    queue = f"test-{uuid.uuid4().hex[:12]}"
    app.conf.task_default_queue = queue
    # the balance lab's queue (gm/settings.py's task routes), this session's too: the one
    # test worker plays both, so the tests run lab work
    lab_queue = f"{queue}-lab"
    lab_default, settings.TABULA_LAB_QUEUE = settings.TABULA_LAB_QUEUE, lab_queue
    url = settings.CELERY_BROKER_URL.replace("redis+socket://", "unix://", 1)
    client = redis.Redis.from_url(url)
    for key in client.scan_iter("unacked*"):
        client.delete(key)  # what earlier killed workers held would be restored otherwise
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "TABULA_QUEUE": queue,
        "TABULA_LAB_QUEUE": lab_queue,
        "TABULA_CLOSE_GRACE_SECONDS": "0",
    }  # the tests queue the ticks they need; a phase is due at its deadline
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "gm", "worker", "--loglevel", "warning",
         "--concurrency", "1", "--without-mingle", "--without-gossip",
         "--queues", f"{queue},{lab_queue}", "--hostname", f"test-{uuid.uuid4().hex[:8]}@%h"],
        cwd=ROOT, env=env, start_new_session=True,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while True:
        try:
            app.send_task("gm.ping", args=["ready"]).get(timeout=5)
            break
        except Exception:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                pytest.fail("the Celery worker did not start")
    yield proc
    app.conf.task_default_queue = settings.CELERY_TASK_DEFAULT_QUEUE
    settings.TABULA_LAB_QUEUE = lab_default
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture(autouse=True)
def _fast_password_hash(settings):
    """Passwords hashed by MD5 in the tests: the production hasher (PBKDF2, 0.28 s a hash on
    this machine) costs every test that creates or logs in a user (issue 33, the test
    command's time drivers); no test is about the hash's strength."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _no_close_grace(settings):
    """A phase is due at its deadline (the grace's own test sets it)."""
    settings.TABULA_CLOSE_GRACE_SECONDS = 0


# Every process-global cache of the site (games/, desks/, lab/): each is emptied before and
# after every test, so none survives one (issue 33 §6; tests/system/test_process_caches.py
# fails when a new one is not listed here).
PROCESS_CACHES = (
    words.catalogue,  # a setup's translations, from its locale files
    rulebook.rulebooks,  # rule prefix -> rulebook, from docs/rules/
    rulebook.rulebook,  # a rendered rulebook
    rulebook.original_numbers,  # where each rule begins in a rulebook's Italian original, by slug
    clock._client,  # the health check's Redis client, by URL and timeout
    backup_schema.row_schema,  # a model's backup row schema
    forum_dates._parse_when,  # a forum time, as read
)


@pytest.fixture(autouse=True)
def _no_process_cache() -> Iterator[None]:
    for cached in PROCESS_CACHES:
        cached.cache_clear()
    yield
    for cached in PROCESS_CACHES:
        cached.cache_clear()


@pytest.fixture(autouse=True)
def _fresh_cache_namespace(settings):
    """Each test gets its own key prefix in the real Redis cache (rate limits...)."""
    settings.CACHES = {
        "default": {**settings.CACHES["default"], "KEY_PREFIX": f"test-{uuid.uuid4().hex}"}
    }


PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


BROWSER_TESTS = ROOT / "tests" / "browser"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The browser tests (tests/browser/) run together, last: their Chromium starts and
    stops once (tests/browser/conftest.py), after every test that the transactional
    database's flush could disturb (pytest-django puts those first)."""
    items.sort(key=lambda item: BROWSER_TESTS in item.path.parents)  # stable: order kept


@pytest.fixture(scope="session")
def live_server(django_db_setup):
    """pytest-django's live server, stopped before the test database is dropped (its
    thread holds a connection to it)."""
    from pytest_django.live_server_helper import LiveServer

    server = LiveServer(os.getenv("DJANGO_LIVE_TEST_SERVER_ADDRESS", "localhost"))
    yield server
    server.stop()


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test database, with any connection still open at the end (one made
    inside Playwright's own context, for instance) closed before the database is dropped."""
    yield
    with django_db_blocker.unblock():
        from django.db import connection

        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
        connection.close()


# The classic village (tests/setups/classic_village/) is a setup package kept outside
# roles/: registered here, the engine and the site play it like the shipped ones.
register_package("tests.setups.classic_village")
# Sorte (tests/setups/coin_toss/): the balance study's setup whose win rates are known.
register_package("tests.setups.coin_toss")
