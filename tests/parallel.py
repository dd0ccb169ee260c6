"""The test run on several processes (pytest-xdist, ``dev.py test`` asks for it).

Each worker gets a Redis database of its own, chosen here before Django reads its
settings, so one worker's broker queues, heartbeats and cached counters never meet
another's. The PostgreSQL database is per worker already (pytest-django names it
``test_<name>_gwN``) and so are the session's Celery worker, live server and Chromium
(session fixtures). The tests go out one by one in collection order, except:

- the browser tests (tests/browser/), which go together to one process, where their
  Chromium and its event loop start and stop once (tests/browser/conftest.py); that
  unit, the largest, goes out first, so one process drives Chromium while the other
  runs the tests that keep a core busy, and joins them when it is done;
- a test in parts (``test_x_part_1``, ``test_x_part_2``), whose parts run in order in
  one process: what part 1 leaves is what part 2 checks."""

from __future__ import annotations

import os
import re

import pytest
from xdist.scheduler import LoadScopeScheduling

REDIS_DATABASES = 16  # a stock Redis server's
CONFIGURED: dict[str, str] = {}  # the REDIS_URL this process was given, before the move
PART = re.compile(r"_part_\d+$")
BROWSER = "tests/browser/"


def worker_redis_url(url: str, worker: str) -> str:
    """``url`` moved to the Redis database of xdist worker ``worker`` (gw0, gw1...): the
    databases below the configured one, so the serial run's stays the serial run's."""
    number = int(worker.removeprefix("gw"))
    if number >= REDIS_DATABASES - 1:
        raise pytest.UsageError(f"{worker}: more test workers than Redis databases")
    if url.startswith(("redis+socket://", "unix://")):
        match = re.search(r"[?&]db=(\d+)", url)
        base = int(match.group(1)) if match else 0
        database = (base - 1 - number) % REDIS_DATABASES
        if match:
            return url[: match.start(1)] + str(database) + url[match.end(1) :]
        return f"{url}{'&' if '?' in url else '?'}db={database}"
    match = re.fullmatch(r"(rediss?://[^/?]*)(?:/(\d*))?(\?.*)?", url)
    if match is None:
        raise pytest.UsageError(f"REDIS_URL {url!r} is not a redis:// URL")
    base = int(match.group(2) or 0)
    database = (base - 1 - number) % REDIS_DATABASES
    return f"{match.group(1)}/{database}{match.group(3) or ''}"


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests() -> None:
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker and os.environ.get("REDIS_URL"):
        CONFIGURED["REDIS_URL"] = os.environ["REDIS_URL"]
        os.environ["REDIS_URL"] = worker_redis_url(os.environ["REDIS_URL"], worker)


class PartsTogether(LoadScopeScheduling):
    """One test a unit, a test's parts one unit, the browser tests one unit; the largest
    units first, then collection order."""

    def _split_scope(self, nodeid: str) -> str:
        if nodeid.startswith(BROWSER):
            return BROWSER
        return PART.sub("", nodeid)


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> PartsTogether | None:
    if config.getvalue("dist") != "load":
        return None  # a distribution the command line chose
    config.option.loadscopereorder = True  # the largest units first: the browser tests
    return PartsTogether(config, log)
