"""The players' vote (``POST /io/voto/``, the hottest request of the site) on a handler of
its own: Django's WSGI handler and the site's middleware, less what cannot apply to it.

The handler is Django's (``WSGIHandler``: the request, the signals that manage the
database connections, the exception responses, the response log, the headers); its
middleware are the site's own classes in the site's order, built the way Django builds
them, so every check and every header is the same code: the request stamp and the
in-flight registry, security headers, the charset check, the CSP, the session, the
language, the host check, CSRF, the user, messages, X-Frame-Options and htmx. What it
leaves out, and why that changes nothing for this request:

- the URL resolver: the route takes exactly the vote's path, whose view is known;
- WhiteNoise, which answers only requests for static files (never this path);
- django-axes' middleware, which acts only on a request that failed a login;
- the request's ``headers`` mapping, which django-htmx builds from every header of the
  request to read one or two: here ``request.htmx`` reads them from ``META`` (the same
  values; ``HttpHeaders`` is only another view of ``META``).

Anything else (another path or method, the settings' middleware or URLconf changed since
the route was built) goes to Django's own handler unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from urllib.parse import unquote

from django.conf import settings
from django.core.handlers.exception import convert_exception_to_response
from django.core.handlers.wsgi import WSGIHandler
from django.http import HttpRequest, HttpResponse
from django.http.request import HttpHeaders
from django.urls import NoReverseMatch, ResolverMatch, get_resolver
from django.utils.module_loading import import_string
from django_htmx.middleware import HtmxDetails, HtmxMiddleware

# What the vote's handler leaves out of settings.MIDDLEWARE (see above).
LEFT_OUT = {"whitenoise.middleware.WhiteNoiseMiddleware", "axes.middleware.AxesMiddleware"}
HTMX = "django_htmx.middleware.HtmxMiddleware"


class MetaHtmxDetails(HtmxDetails):
    """django-htmx's request details, reading a header from ``META`` (where Django's
    ``request.headers`` reads it) instead of building ``request.headers`` for it."""

    def _get_header_value(self, name: str) -> str | None:
        meta = self.request.META
        value = meta.get(HttpHeaders.to_wsgi_name(name)) or None
        if value and meta.get(HttpHeaders.to_wsgi_name(f"{name}-URI-AutoEncoded")) == "true":
            value = unquote(value)
        return value


class MetaHtmxMiddleware(HtmxMiddleware):
    def __call__(self, request: HttpRequest) -> HttpResponse:
        request.htmx = MetaHtmxDetails(request)
        return self.get_response(request)


class VoteHandler(WSGIHandler):
    """Django's WSGI handler for the vote's path alone (see the module's docstring)."""

    def __init__(self, match: ResolverMatch, middleware: list[str]) -> None:
        self.match = match
        self.middleware = middleware
        super().__init__()

    def load_middleware(self, is_async: bool = False) -> None:
        """Django's ``load_middleware`` (synchronous), over the vote's middleware."""
        self._view_middleware: list[Callable] = []
        self._template_response_middleware: list[Callable] = []
        self._exception_middleware: list[Callable] = []
        handler = convert_exception_to_response(self._get_response)
        for path in reversed(self.middleware):
            factory = MetaHtmxMiddleware if path == HTMX else import_string(path)
            instance = factory(handler)
            if hasattr(instance, "process_view"):
                self._view_middleware.insert(0, instance.process_view)
            if hasattr(instance, "process_template_response"):
                self._template_response_middleware.append(instance.process_template_response)
            if hasattr(instance, "process_exception"):
                self._exception_middleware.append(instance.process_exception)
            handler = convert_exception_to_response(instance)
        self._middleware_chain = handler

    def resolve_request(self, request: HttpRequest) -> ResolverMatch:
        request.resolver_match = self.match
        return self.match


class VoteRoute:
    """A WSGI application: the vote on its own handler, anything else on ``django``."""

    def __init__(self, django: Callable) -> None:
        self.django = django
        self.handler: VoteHandler | None = None
        self.built_for: tuple[list[str], str] | None = None
        self.path = ""

    def build(self) -> None:
        """The vote's handler for the current settings (on first use: the URLconf's views
        import the models); none, and Django's handler for every request, when the
        URLconf has no vote."""
        self.built_for = (list(settings.MIDDLEWARE), settings.ROOT_URLCONF)
        self.handler, self.path = None, ""
        resolver = get_resolver(settings.ROOT_URLCONF)
        try:
            path = "/" + resolver.reverse("player_vote")  # without any script prefix
        except NoReverseMatch:
            return
        middleware = [m for m in settings.MIDDLEWARE if m not in LEFT_OUT]
        self.handler = VoteHandler(resolver.resolve(path), middleware)
        self.path = path

    def takes(self, environ: dict) -> bool:
        """Whether the request is the vote, under the settings the handler was built for."""
        if environ.get("REQUEST_METHOD") != "POST":
            return False
        if self.built_for is None:
            self.build()
        return (
            environ.get("PATH_INFO") == self.path
            and self.handler is not None
            and self.built_for == (settings.MIDDLEWARE, settings.ROOT_URLCONF)
            and not getattr(settings, "WHITENOISE_ROOT", None)
        )

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        if self.takes(environ):
            return self.handler(environ, start_response)
        return self.django(environ, start_response)
