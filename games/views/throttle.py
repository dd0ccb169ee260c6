"""Rate limits on the cache (Redis) that fail open: when the cache is down a request is
let through and the outage is logged, so an outage never stops a player (issue 9, #8).

A limit is a counter per key and fixed window (``10/m``: ten a minute, counted from the
start of each minute), kept in Django's cache.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import redis
from django.core.cache import cache
from django.http import HttpRequest

logger = logging.getLogger("tabula.throttle")
PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """``"10/m"`` → (10, 60); ``"20/10m"`` → (20, 600)."""
    count, _, period = rate.partition("/")
    multiple = int(period[:-1] or 1)
    return int(count), multiple * PERIODS[period[-1]]


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
    name = f"rl:{group}:{key(group, request)}:{period}:{window}"
    try:
        if increment:
            cache.add(name, 0, timeout=period + 1)
            count = cache.incr(name)
        else:
            count = cache.get(name, 0)
    except (redis.RedisError, OSError):
        logger.warning("rate limit %s skipped: the cache is unreachable", group, exc_info=True)
        return False
    return count > limit
