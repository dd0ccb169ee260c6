"""Italian first: the language is the one the visitor chose, else Italian (never guessed
from the browser's Accept-Language, since the forum and its players are Italian)."""

from __future__ import annotations

import codecs
import datetime as dt
import time
from collections.abc import Callable, Iterable

from django.conf import settings
from django.core.exceptions import (
    BadRequest,
    RequestDataTooBig,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.core.handlers.wsgi import get_bytes_from_wsgi
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, QueryDict
from django.http.multipartparser import MultiPartParserError
from django.utils import translation
from django.utils.http import parse_header_parameters


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
    wait in the past, never in the future). The clock closes a phase a few seconds' grace
    after its deadline (``TABULA_CLOSE_GRACE_SECONDS``), so a submission stamped in time
    that is still on its way reaches the database before the close.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

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
        return self.get_response(request)


class RequestCharsetMiddleware:
    """A request body Django cannot decode is refused with 400, not a 500 (issue 9, #3): a
    charset that is not a text encoding (``rot13``, ``base64``), one whose decoder fails
    (``idna``), a broken multipart body. (Django itself refuses a urlencoded body that is
    not UTF-8, and ignores unknown charsets; the query string is checked before Django,
    by ``refuse_undecodable`` around the WSGI application.)

    Django refuses a urlencoded body declared in any charset but ``utf-8`` (``latin-1``,
    ``UTF8``, ``us-ascii``) with ``BadRequest``; left to Django, its 400 page's CSRF check
    reads the body again and the exception escapes as a 500 (issue 27 §5), so it is
    answered here too, as is a body past Django's size or field limits (the same 400, in
    the site's own words)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        charset = request.content_params.get("charset") if request.content_params else None
        try:
            if charset and not _is_text_encoding(charset):
                raise UnicodeError(charset)
            if request.method == "POST":
                request.POST  # noqa: B018 (decoded now, where a failure can be answered)
        except (UnicodeError, MultiPartParserError, BadRequest):
            return HttpResponseBadRequest(UNREADABLE, content_type="text/plain; charset=utf-8")
        except (RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent):
            return HttpResponseBadRequest(TOO_BIG, content_type="text/plain; charset=utf-8")
        return self.get_response(request)


UNREADABLE = "Richiesta illeggibile: usa la codifica UTF-8."
TOO_BIG = "Richiesta troppo grande: accorcia il testo e riprova. Non è stato salvato niente."


def _is_text_encoding(charset: str) -> bool:
    try:
        return codecs.lookup(charset)._is_text_encoding
    except LookupError:
        return True  # Django ignores an unknown charset and reads UTF-8


def _undecodable(environ: dict) -> bool:
    """Whether Django would fail building the request: it decodes the query string with
    the declared charset as soon as it reads the Content-Type (a 500 before any middleware)."""
    _type, params = parse_header_parameters(environ.get("CONTENT_TYPE", ""))
    charset = params.get("charset")
    if not charset:
        return False
    if not _is_text_encoding(charset):
        return True
    try:  # what Django will do with it
        QueryDict(get_bytes_from_wsgi(environ, "QUERY_STRING", ""), encoding=charset)
    except Exception:
        return True
    return False


def refuse_undecodable(application: Callable) -> Callable:
    """The WSGI ``application``, answering 400 to requests Django could not even build."""

    def wrapped(environ: dict, start_response: Callable) -> Iterable[bytes]:
        if _undecodable(environ):
            body = UNREADABLE.encode()
            start_response("400 Bad Request", [("Content-Type", "text/plain; charset=utf-8"),
                                               ("Content-Length", str(len(body)))])  # fmt: skip
            return [body]
        return application(environ, start_response)

    return wrapped
