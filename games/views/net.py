"""The client's real address behind the configured number of trusted proxies.

Behind an HTTPS proxy every request comes from the proxy's address; the proxy appends
the address it received the request from to ``X-Forwarded-For``. With ``N`` trusted
proxies in front of the site, the client is the N-th entry from the right: entries to
the left of it were written by the client itself and prove nothing.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def _address(value: str) -> str | None:
    try:
        return str(ipaddress.ip_address(value.strip()))
    except ValueError:
        return None


def client_ip(request: HttpRequest) -> str:
    """The address the trusted proxies saw the request come from (REMOTE_ADDR with none)."""
    remote = _address(request.META.get("REMOTE_ADDR", "")) or "0.0.0.0"
    trusted = settings.TRUSTED_PROXY_COUNT
    if trusted <= 0:
        return remote
    hops = [h for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if h.strip()]
    if len(hops) < trusted:  # the request did not come through every proxy: do not guess
        return remote
    return _address(hops[-trusted]) or remote
