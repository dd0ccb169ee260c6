"""Project-level views: the health check."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from gm.health import broker_status, clock_status, database_status


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """Database and broker reachability and the clock's heartbeat, as JSON: 200 when all
    three are well, else 503."""
    checks = {"database": database_status(), "broker": broker_status(), "clock": clock_status()}
    healthy = all(value == "ok" for value in checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "unavailable", **checks}, status=200 if healthy else 503
    )
