"""The CSP header built once per process (gm.csp) is django-csp's header, and follows the
settings, the views' decorators and nonces as django-csp does."""

from __future__ import annotations

import pytest
from csp.constants import NONCE, SELF
from csp.exceptions import CSPNonceError
from csp.middleware import CSPMiddleware
from django.http import HttpResponse
from django.test import RequestFactory, override_settings

from gm.csp import CachedCSPMiddleware


def _through(middleware_class: type, response: HttpResponse, *, nonce: bool = False,
             path: str = "/io/") -> tuple[HttpResponse, object]:  # fmt: skip
    request = RequestFactory().get(path)
    middleware = middleware_class(lambda _request: response)
    middleware.process_request(request)
    if nonce:
        str(request.csp_nonce)
    return middleware.process_response(request, response), request


def test_plain_response_gets_django_csps_header():
    cached, _ = _through(CachedCSPMiddleware, HttpResponse("x"))
    plain, _ = _through(CSPMiddleware, HttpResponse("x"))
    assert cached["Content-Security-Policy"] == plain["Content-Security-Policy"]
    assert "default-src 'self'" in cached["Content-Security-Policy"]
    assert "Content-Security-Policy-Report-Only" not in cached


def test_header_follows_a_settings_change():
    before, _ = _through(CachedCSPMiddleware, HttpResponse("x"))
    policy = {"DIRECTIVES": {"default-src": [SELF, "https://cdn.example"]},
              "EXCLUDE_URL_PREFIXES": ["/skip/"]}  # fmt: skip
    with override_settings(CONTENT_SECURITY_POLICY_REPORT_ONLY=policy):
        during, _ = _through(CachedCSPMiddleware, HttpResponse("x"))
        skipped, _ = _through(CachedCSPMiddleware, HttpResponse("x"), path="/skip/a")
    after, _ = _through(CachedCSPMiddleware, HttpResponse("x"))
    assert "cdn.example" in during["Content-Security-Policy-Report-Only"]
    assert "Content-Security-Policy-Report-Only" not in skipped
    assert "Content-Security-Policy-Report-Only" not in before
    assert "Content-Security-Policy-Report-Only" not in after
    assert after["Content-Security-Policy"] == before["Content-Security-Policy"]


def test_decorated_response_and_nonce_go_through_django_csp():
    response = HttpResponse("x")
    response._csp_update = {"img-src": ["https://img.example"]}
    updated, _ = _through(CachedCSPMiddleware, response)
    assert "https://img.example" in updated["Content-Security-Policy"]
    policy = {"DIRECTIVES": {"default-src": [SELF], "script-src": [SELF, NONCE]}}
    with override_settings(CONTENT_SECURITY_POLICY=policy):
        with_nonce, request = _through(CachedCSPMiddleware, HttpResponse("x"), nonce=True)
    assert f"'nonce-{request._csp_nonce}'" in with_nonce["Content-Security-Policy"]
    exempt = HttpResponse("x")
    exempt._csp_exempt = True
    assert "Content-Security-Policy" not in _through(CachedCSPMiddleware, exempt)[0]


def test_nonce_asked_after_the_header_is_an_error():
    _, request = _through(CachedCSPMiddleware, HttpResponse("x"))
    with pytest.raises(CSPNonceError):
        str(request.csp_nonce)
