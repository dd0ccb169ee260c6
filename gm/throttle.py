"""Rate limits on the cache (Redis) that fail open: when the cache is down a request is
let through and the outage is logged, so an outage never stops a player (issue 9, #8)."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.http import HttpRequest
from django_ratelimit.core import is_ratelimited

logger = logging.getLogger("tabula.throttle")


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
    try:
        return is_ratelimited(request, group=group, key=key, rate=rate, increment=increment)
    except Exception:
        logger.warning("rate limit %s skipped: the cache is unreachable", group, exc_info=True)
        return False
