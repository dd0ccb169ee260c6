"""The test run split over processes (tests/parallel.py): each worker its own Redis
database, a test's parts kept in one process and in order."""

from __future__ import annotations

import os

import pytest
from django.conf import settings

from tests.parallel import CONFIGURED, PartsTogether, worker_redis_url


@pytest.mark.parametrize(
    ("url", "worker", "moved"),
    [
        ("redis://127.0.0.1:6379/15", "gw0", "redis://127.0.0.1:6379/14"),
        ("redis://127.0.0.1:6379/15", "gw1", "redis://127.0.0.1:6379/13"),
        ("redis://127.0.0.1:6379", "gw0", "redis://127.0.0.1:6379/15"),
        ("rediss://:pw@cache:6380/2?ssl_cert_reqs=none", "gw2", "rediss://:pw@cache:6380/15?ssl_cert_reqs=none"),
        ("redis+socket:///work/var/redis-7.sock", "gw1", "redis+socket:///work/var/redis-7.sock?db=14"),
        ("unix:///tmp/r.sock?db=3", "gw0", "unix:///tmp/r.sock?db=2"),
    ],
)  # fmt: skip
def test_each_worker_has_a_redis_database_of_its_own(url, worker, moved):
    assert worker_redis_url(url, worker) == moved


def test_more_workers_than_redis_databases_is_an_error():
    with pytest.raises(pytest.UsageError, match="gw15"):
        worker_redis_url("redis://127.0.0.1:6379/0", "gw15")


def test_this_worker_uses_its_own_redis_database():
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker is None:
        pytest.skip("the run is not split (-n 0)")
    configured = CONFIGURED["REDIS_URL"]
    assert worker_redis_url(configured, worker) == settings.REDIS_URL != configured
    assert settings.CELERY_BROKER_URL == settings.REDIS_URL  # the broker follows it


def test_a_tests_parts_are_one_unit_and_every_other_test_its_own():
    split = PartsTogether._split_scope
    parts = ["t.py::test_a_part_1", "t.py::test_a_part_2"]
    assert {split(None, nodeid) for nodeid in parts} == {"t.py::test_a"}
    assert split(None, "t.py::test_b") != split(None, "t.py::test_c")
    assert split(None, "t.py::test_b[x_part_1]") == "t.py::test_b[x_part_1]"
    browser = ["tests/browser/test_a.py::test_a", "tests/browser/test_b.py::test_b[js]"]
    assert {split(None, nodeid) for nodeid in browser} == {"tests/browser/"}
