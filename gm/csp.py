"""django-csp's middleware with the policy built once per process (issue 9: the vote's
answer paid for building the same header text on every request).

The header only varies with the settings, a view's ``csp_*`` decorators (attributes on
the response) and a nonce (when a template asked for ``request.csp_nonce``). A response
with none of these gets the text built from the settings, kept until a setting changes;
any other goes through django-csp unchanged.
"""

from __future__ import annotations

from functools import cache

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject, CSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpRequest
from django.http.response import HttpResponseBase

PER_RESPONSE = (  # what django-csp's decorators put on a response
    "_csp_config", "_csp_update", "_csp_replace",
    "_csp_config_ro", "_csp_update_ro", "_csp_replace_ro",
)  # fmt: skip


@cache
def _plain() -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """(header, text, excluded path prefixes) for the policy and the report-only one,
    from the settings alone."""
    out = []
    for header, name, report_only in (
        (HEADER, "CONTENT_SECURITY_POLICY", False),
        (HEADER_REPORT_ONLY, "CONTENT_SECURITY_POLICY_REPORT_ONLY", True),
    ):
        text = build_policy(report_only=report_only)
        policy = getattr(settings, name, None) or {}
        if text:
            out.append((header, text, tuple(policy.get("EXCLUDE_URL_PREFIXES", None) or ())))
    return tuple(out)


@receiver(setting_changed)
def _forget(setting: str, **_kwargs: object) -> None:
    if setting.startswith("CONTENT_SECURITY_POLICY"):
        _plain.cache_clear()


class CachedCSPMiddleware(CSPMiddleware):
    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if (
            getattr(request, "_csp_nonce", None) is not None
            or any(getattr(response, name, None) is not None for name in PER_RESPONSE)
            or (settings.DEBUG and response.status_code in (404, 500))
        ):
            return super().process_response(request, response)
        for header, text, prefixes in _plain():
            exempt = getattr(response, "_csp_exempt_ro" if header == HEADER_REPORT_ONLY
                             else "_csp_exempt", False)  # fmt: skip
            excluded = bool(prefixes) and request.path_info.startswith(prefixes)
            if exempt is False and header not in response and not excluded:
                response[header] = text
        # as django-csp: asking for a nonce once the header is out is an error
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)
        return response
