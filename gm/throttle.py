"""Rate limits on the cache (Redis) that fail open: when the cache is down a request is
let through and the outage is logged, so an outage never stops a player (issue 9, #8).

A limit is a counter per key and fixed window (``10/m``: ten a minute, counted from the
start of each minute), kept under the cache's key prefix. It is one Redis round trip on
a connection kept for the process (gm/redis_link.py): the cache API would take three (an
``add``, then ``incr`` is an ``exists`` and an ``incrby``), each on a client built anew,
which cost a player's vote more than anything else Redis did for it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from functools import cache

import redis
from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest

from gm.redis_link import Link

logger = logging.getLogger("tabula.throttle")
PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """``"10/m"`` → (10, 60); ``"20/10m"`` → (20, 600)."""
    count, _, period = rate.partition("/")
    multiple = int(period[:-1] or 1)
    return int(count), multiple * PERIODS[period[-1]]


@cache
def _redis(location: str) -> redis.Redis:
    return redis.Redis.from_url(location, socket_timeout=0.5, socket_connect_timeout=0.5)


@cache
def _link(location: str) -> Link:
    return Link(_redis(location))


def _location() -> str:
    """The cache's Redis server (its first, the one it writes to)."""
    location = settings.CACHES["default"]["LOCATION"]
    if not isinstance(location, str):
        location = location[0]
    return location.split(",")[0].replace("redis+socket://", "unix://", 1)


def _client() -> redis.Redis:
    return _redis(_location())


def over_limit(
    request: HttpRequest,
    *,
    group: str,
    key: Callable[[str, HttpRequest], str],
    rate: str,
    increment: bool,
) -> bool:
    """Whether ``key`` is over ``rate`` in ``group`` (and count this request when
    ``increment``); False, logged, when the cache cannot be reached."""
    limit, period = parse_rate(rate)
    window = int(time.time() // period)
    name = caches["default"].make_key(f"rl:{group}:{key(group, request)}:{period}:{window}")
    try:
        if increment:
            count = _link(_location()).call(("INCR", name), ("EXPIRE", name, period + 1))[0]
        else:
            count = int(_client().get(name) or 0)
    except (redis.RedisError, OSError):
        logger.warning("rate limit %s skipped: the cache is unreachable", group, exc_info=True)
        return False
    return count > limit
