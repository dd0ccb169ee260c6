"""Submissions in flight: what reached the site before a deadline is waited for.

The first middleware stamps each request with the time it reached the site (or the time a
trusted proxy put in its request-start header) and, for a player's submission, registers
it here while it runs. A phase's close first waits, for at most
``TABULA_SUBMISSION_WAIT_SECONDS``, until no submission stamped before its deadline is
still running and the server has started on requests stamped after it (its queue has
moved past the deadline). Without load nothing is registered and the close goes ahead
at once. Redis down: nothing is waited for (logged), the close is never blocked.
"""

from __future__ import annotations

import datetime as dt
import logging
import random
import time
import uuid
from functools import cache

import redis
from django.conf import settings

from gm.redis_link import Link

log = logging.getLogger(__name__)
RUNNING = "tabula:submissions:running"  # request id → stamp, while it runs
STARTED = "tabula:submissions:started"  # request id → stamp, for a while after it started
KEEP_SECONDS = 60.0  # older entries are a killed web worker's leftovers (timeout: 30 s)
# The share of registrations that also trim STARTED of entries older than KEEP_SECONDS (a
# close counts only recent ones): the set stays small without a third command a vote.
TRIM_SHARE = 1 / 32
# A queue is served in arrival order, give or take the jitter between a request's stamp and
# its place in the queue: a request stamped this much after a deadline, once started, shows
# that everything stamped before the deadline has left the queue.
ORDER_MARGIN = 1.0
BUSY_BEFORE = 10.0  # submissions stamped this close before a deadline make it a busy one
QUIET_SECONDS = 0.5  # how long a busy deadline's registry must look settled


@cache
def _client() -> redis.Redis:
    url = settings.REDIS_URL.replace("redis+socket://", "unix://", 1)
    return redis.Redis.from_url(url, socket_timeout=0.5, socket_connect_timeout=0.5)


@cache
def _link() -> Link:
    """The vote's own connection (one round trip to register, one to unregister)."""
    return Link(_client())


def register(stamp: float) -> str | None:
    """Note a submission stamped ``stamp`` (epoch seconds) as running; its id, or None
    when Redis cannot be reached."""
    key = uuid.uuid4().hex
    try:
        commands = [("ZADD", RUNNING, stamp, key), ("ZADD", STARTED, stamp, key)]
        if random.random() < TRIM_SHARE:  # old entries count for nothing, only take room
            commands.append(("ZREMRANGEBYSCORE", STARTED, "-inf", time.time() - KEEP_SECONDS))
        _link().call(*commands)
    except (redis.RedisError, OSError) as exc:
        log.warning("submission registry unavailable: %s", exc)
        return None
    return key


def unregister(key: str | None) -> None:
    if key is None:
        return
    try:
        _link().call(("ZREM", RUNNING, key))
    except (redis.RedisError, OSError) as exc:
        log.warning("submission registry unavailable: %s", exc)


def settled(deadline: dt.datetime) -> bool:
    """Whether every submission that reached the site before ``deadline`` has been
    handled: none stamped before it is running, and if any is running at all, the server
    has already started on one stamped well after it (a queue is served in arrival order)."""
    at, floor = deadline.timestamp(), time.time() - KEEP_SECONDS
    try:
        pipe = _client().pipeline(transaction=False)
        pipe.zremrangebyscore(RUNNING, "-inf", floor)
        pipe.zcount(RUNNING, floor, f"({at}")
        pipe.zcard(RUNNING)
        pipe.zcount(STARTED, at + ORDER_MARGIN, "+inf")
        _, before, running, after = pipe.execute()
    except redis.RedisError as exc:
        log.warning("submission registry unavailable, closing without waiting: %s", exc)
        return True
    return before == 0 and (running == 0 or after > 0)


def busy_near(deadline: dt.datetime) -> bool:
    """Whether submissions reached the site around ``deadline`` (stamped from
    ``BUSY_BEFORE`` seconds before it): a queue may then still hold some of them."""
    try:
        return bool(_client().zcount(STARTED, deadline.timestamp() - BUSY_BEFORE, "+inf"))
    except redis.RedisError:
        return False


def wait_settled(deadline: dt.datetime) -> None:
    """Wait until the submissions sent before ``deadline`` are in, at most until
    ``TABULA_SUBMISSION_WAIT_SECONDS`` after it. Only what runs is registered, not what
    waits in the server's queue: in a burst every worker can be between two requests
    for an instant, so when submissions came in around the deadline the registry must
    look settled for ``QUIET_SECONDS`` on end (a burst's queue is never idle that long)."""
    limit = deadline.timestamp() + settings.TABULA_SUBMISSION_WAIT_SECONDS
    quiet = QUIET_SECONDS if busy_near(deadline) else 0.0
    settled_since = None
    while True:
        if settled(deadline):
            settled_since = settled_since if settled_since is not None else time.time()
            if time.time() - settled_since >= quiet:
                return
        else:
            settled_since = None
        if time.time() > limit:
            log.warning("closing at %s with submissions still running", deadline.isoformat())
            return
        time.sleep(0.02)
