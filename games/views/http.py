"""Response helpers shared by the GM's pages."""

from __future__ import annotations

from django.http import HttpResponse
from django.utils.cache import add_never_cache_headers


def links_response(response: HttpResponse) -> HttpResponse:
    """A page showing private links just issued: the only place a link exists in clear
    (issue 9, #4), so no cache keeps it. (Its own URL holds no token, so the site's
    same-origin Referrer-Policy stands: "no-referrer" would make the browser send
    "Origin: null" with the page's forms, which CSRF checking refuses.)"""
    add_never_cache_headers(response)
    return response
