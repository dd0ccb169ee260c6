"""Italian first: the language is the one the visitor chose, else Italian (never guessed
from the browser's Accept-Language, since the forum and its players are Italian)."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import translation

from games import inflight


class LanguageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.known = {code for code, _ in settings.LANGUAGES}

    def __call__(self, request: HttpRequest) -> HttpResponse:
        chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        language = chosen if chosen in self.known else settings.LANGUAGE_CODE
        request.LANGUAGE_CODE = language
        with translation.override(language):
            response = self.get_response(request)
        response.headers.setdefault("Content-Language", language)
        return response


class RequestStartMiddleware:
    """First in the chain: stamp every request with the time it reached the site, so a
    submission counts by when it was sent, not by when a busy server got to it (issue 10).

    Behind a proxy that writes a request-start header (nginx:
    ``proxy_set_header X-Request-Start "t=${msec}";``), name it in
    ``TABULA_REQUEST_START_HEADER`` and its time is used (never more than the submission
    wait in the past, never in the future). A player's submission is registered as running
    while it is handled (``games.inflight``), so a deadline's close waits for it.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.submission_paths: set[str] | None = None

    def stamp(self, request: HttpRequest) -> float:
        now = time.time()
        header = settings.TABULA_REQUEST_START_HEADER
        raw = request.headers.get(header, "") if header else ""
        try:
            value = float(raw.strip().removeprefix("t="))
        except ValueError:
            return now
        while value > 1e11:  # milliseconds or microseconds since the epoch
            value /= 1000
        oldest = now - settings.TABULA_SUBMISSION_WAIT_SECONDS
        return now if not oldest <= value <= now else value

    def __call__(self, request: HttpRequest) -> HttpResponse:
        stamp = self.stamp(request)
        request.received_at = dt.datetime.fromtimestamp(stamp, tz=dt.UTC)
        if self.submission_paths is None:
            self.submission_paths = {reverse("player_vote"), reverse("player_action")}
        if request.method != "POST" or request.path not in self.submission_paths:
            return self.get_response(request)
        key = inflight.register(stamp)
        try:
            return self.get_response(request)
        finally:
            inflight.unregister(key)
