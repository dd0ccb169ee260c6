"""The one HTTP door to a forum (issue 32): a GM gives an address and the site fetches
it, so every request here is treated as hostile. Only http(s); the host resolved once
and refused when any of its addresses is loopback, private, link-local, reserved,
multicast or unspecified, then connected to that very address (``PinnedBackend``: the
name is never resolved again, so a rebinding DNS cannot answer a private address the
second time), at every redirect hop (followed by hand, at most ``MAX_HOPS``); a time
limit and a size limit on every answer (streamed, and dropped past the limit); a
User-Agent naming the site; conditional requests (ETag / Last-Modified); robots.txt
respected. No database here: games/services/follow.py decides when to read and keeps
what was read."""

from __future__ import annotations

import ipaddress
import socket
import time
import urllib.robotparser
from collections.abc import Iterable
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Any
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit, urlunsplit

import httpcore
import httpx
import re2
from django.conf import settings
from django.core.cache import cache

MAX_HOPS = 5
ROBOTS_LIFE = 3600  # seconds a host's robots.txt is kept
ROBOTS_MAX_BYTES = 200_000
REDIRECTS = {301, 302, 303, 307, 308}
# A page asking for a login or a captcha instead of the thread (the GM is told plainly).
GATE = re2.compile(
    r'(?i)(type=["\']?password|g-recaptcha|h-captcha|cf-turnstile|cf-challenge|'
    r"name=[\"']?login|id=[\"']?login)"
)
DISCOURSE_TOPIC = re2.compile(r"^(/t/(?:[^/]+/)?)([0-9]+)(?:/[0-9]+)?/?$")

# The readable forms of a thread a GM may choose: the address as given, phpBB's print
# view, Discourse's /raw/ text.
FORMS = ("page", "phpbb_print", "discourse_raw")
RAW_PAGE_SIZE = 100  # posts of a page of Discourse's raw topic (``raw_next_page``)


class FetchError(Exception):
    """A read that gave nothing to count: ``code`` is a message id shown to the GM
    (``follow.private``, ``follow.login``...); ``status`` the HTTP status when there was
    one; ``retry_after``: seconds the forum asked us to wait; ``lasting``: the same
    request will fail again (the GM must act), not a passing trouble."""

    def __init__(
        self,
        code: str,
        *,
        status: int = 0,
        detail: str = "",
        retry_after: float | None = None,
        lasting: bool = True,
    ) -> None:
        super().__init__(code)
        self.code, self.status, self.detail = code, status, detail
        self.retry_after, self.lasting = retry_after, lasting


@dataclass
class Fetched:
    url: str  # after redirects
    status: int  # 200, or 304 (nothing new: ``text`` is empty)
    text: str
    etag: str = ""
    last_modified: str = ""


def readable_url(url: str, form: str) -> str:
    """The address to fetch for ``url`` in the readable ``form`` the GM chose."""
    parts = urlsplit(url)
    if form == "phpbb_print" and "view=print" not in parts.query:
        query = f"{parts.query}&view=print" if parts.query else "view=print"
        return urlunsplit(parts._replace(query=query))
    if form == "discourse_raw" and (found := DISCOURSE_TOPIC.match(parts.path)):
        return urlunsplit(parts._replace(path=f"/raw/{found.group(2)}", query=""))
    return url


def raw_page(url: str) -> int:
    """The page of a Discourse ``/raw/<topic id>`` address (``?page=``; 1 without it)."""
    for key, value in parse_qsl(urlsplit(url).query):
        if key == "page" and value.isdigit():
            return max(1, int(value))
    return 1


def raw_next_page(url: str, posts: int) -> str | None:
    """The next page of a Discourse raw topic read at ``url``, when that page was full
    (``posts`` on it): None when the thread may not go past it yet.

    Discourse pages its raw topic: PostsController#markdown_num answers ``/raw/<topic
    id>`` with a TopicView of ``limit: MARKDOWN_TOPIC_PAGE_SIZE`` (100) and the request's
    ``page``, and TopicView#filter_posts_paged takes the posts at offset limit * (page - 1)
    (page 1 when none is given): a page past the end is an empty 200 (discourse/discourse,
    app/controllers/posts_controller.rb and lib/topic_view.rb). So a full page may have
    a next one, and only the last page is read again."""
    if posts < RAW_PAGE_SIZE:
        return None
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "page"]
    query.append(("page", str(raw_page(url) + 1)))
    return urlunsplit(parts._replace(query=urlencode(query)))


def _target(url: str) -> tuple[str, int]:
    """The host (as it is connected to: IDNA, no brackets) and port of ``url``, if it is
    an http(s) address without credentials (FetchError)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise FetchError("follow.scheme", detail=url[:200])
    if parts.username or parts.password:
        raise FetchError("follow.scheme", detail=parts.hostname)
    try:
        host, port = httpx.URL(url).raw_host.decode("ascii"), parts.port
    except (httpx.InvalidURL, ValueError) as exc:  # a bad name or port
        raise FetchError("follow.scheme", detail=url[:200]) from exc
    return host, port or (443 if parts.scheme == "https" else 80)


def _addresses(host: str, port: int) -> list[str]:
    """The addresses ``host`` is reached at, resolved once: refused when any answer is
    not a public address (FetchError), except the test forum's host:port."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as exc:
        raise FetchError("follow.no_host", detail=host, lasting=False) from exc
    if not infos:
        raise FetchError("follow.no_host", detail=host, lasting=False)
    if f"{host}:{port}" not in settings.TABULA_FOLLOW_ALLOW_PRIVATE:  # the test forum only
        for info in infos:
            address = ipaddress.ip_address(str(info[4][0]).split("%")[0])
            if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
                address = address.ipv4_mapped
            if not address.is_global or address.is_multicast or address.is_reserved:
                raise FetchError("follow.private", detail=host)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def checked(url: str) -> str:
    """``url`` if it may be fetched: http(s), a host, a public address (FetchError)."""
    _addresses(*_target(url))
    return url


class PinnedBackend(httpcore.SyncBackend):
    """httpcore's network backend, connecting a host only to the addresses checked for it
    (``pin``), never resolving its name again: a DNS that answers a public address to
    the check and a private one to the connection (rebinding) reaches nothing. Only the
    TCP connection changes: the request's Host header and TLS (SNI and the certificate
    checked against the name: httpcore's ``start_tls`` gets the origin's host as
    ``server_hostname``) still name the host."""

    def __init__(self) -> None:
        super().__init__()
        self.pins: dict[tuple[str, int], list[str]] = {}

    def pin(self, url: str) -> None:
        """Resolve ``url``'s host once, check it, and connect it there from now on."""
        host, port = _target(url)
        self.pins[host, port] = _addresses(host, port)

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        """A connection to the first of the checked addresses that answers, in the
        resolver's order (as ``socket.create_connection`` tries a name's addresses: a
        forum with an IPv6 address is still reached from a host without IPv6)."""
        addresses = self.pins.get((host, port))
        if not addresses:  # never checked: never connected
            raise httpcore.ConnectError(f"{host}:{port} was not checked")
        for address in addresses[:-1]:
            try:
                return super().connect_tcp(address, port, timeout, local_address, socket_options)
            except (httpcore.ConnectError, httpcore.ConnectTimeout):
                continue
        return super().connect_tcp(addresses[-1], port, timeout, local_address, socket_options)


class PinnedTransport(httpx.HTTPTransport):
    """httpx's own transport on a pool whose connections go through ``backend``
    (httpcore's ConnectionPool takes a ``network_backend``; httpx's transport does not
    expose it, so its pool is replaced, with httpx's default TLS context)."""

    def __init__(self, backend: PinnedBackend) -> None:
        context = httpx.create_ssl_context(trust_env=False)
        super().__init__(verify=context, trust_env=False)
        self._pool = httpcore.ConnectionPool(ssl_context=context, network_backend=backend)


def _client() -> tuple[httpx.Client, PinnedBackend]:
    limit = settings.TABULA_FOLLOW_TIMEOUT_SECONDS
    backend = PinnedBackend()
    client = httpx.Client(
        timeout=httpx.Timeout(limit, connect=min(limit, 5.0)),
        follow_redirects=False,
        headers={"User-Agent": settings.TABULA_FOLLOW_USER_AGENT},
        transport=PinnedTransport(backend),
        trust_env=False,  # no proxy from the environment: the checked address is the one reached
    )
    return client, backend


def _retry_after(value: str | None) -> float | None:
    if not value:
        return None
    if value.strip().isdigit():
        return float(value.strip())
    try:
        return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError):
        return None


def _body(response: httpx.Response, started: float, limit: int) -> bytes:
    """The answer's bytes, read until ``limit`` (then FetchError: too large) or the time
    limit of the whole request (then FetchError: too slow)."""
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise FetchError("follow.too_large", status=response.status_code, detail=declared)
    chunks, size = [], 0
    for chunk in response.iter_bytes():
        size += len(chunk)
        if size > limit:
            raise FetchError("follow.too_large", status=response.status_code, detail=str(limit))
        if time.monotonic() - started > settings.TABULA_FOLLOW_TIMEOUT_SECONDS:
            raise FetchError("follow.slow", status=response.status_code, lasting=False)
        chunks.append(chunk)
    return b"".join(chunks)


def _get(
    client: httpx.Client,
    backend: PinnedBackend,
    url: str,
    headers: dict[str, str],
    limit: int,
) -> tuple[httpx.Response, bytes, str]:
    """GET ``url``, following redirects by hand, each hop resolved once, checked and
    pinned; the answer, its body and the final address."""
    started = time.monotonic()
    for _hop in range(MAX_HOPS + 1):
        backend.pin(url)
        try:
            with client.stream("GET", url, headers=headers) as response:
                if response.status_code in REDIRECTS and "location" in response.headers:
                    url = urljoin(url, response.headers["location"])
                    continue
                return response, _body(response, started, limit), url
        except httpx.TimeoutException as exc:
            raise FetchError("follow.slow", lasting=False) from exc
        except httpx.HTTPError as exc:
            raise FetchError("follow.network", detail=type(exc).__name__, lasting=False) from exc
    raise FetchError("follow.redirects", detail=url[:200])


def robots_allow(client: httpx.Client, backend: PinnedBackend, url: str) -> bool:
    """Whether the host's robots.txt lets our User-Agent read ``url`` (kept an hour; a
    missing or unreadable robots.txt allows, as the convention says)."""
    parts = urlsplit(url)
    robots = urlunsplit((parts.scheme, parts.netloc, "/robots.txt", "", ""))
    key = f"follow:robots:{robots}"
    text = cache.get(key)
    if text is None:
        try:
            response, body, _url = _get(client, backend, robots, {}, ROBOTS_MAX_BYTES)
            text = body.decode("utf-8", "replace") if response.status_code == 200 else ""
        except FetchError as exc:
            if exc.code == "follow.private":
                raise
            text = ""
        cache.set(key, text, ROBOTS_LIFE)
    parser = urllib.robotparser.RobotFileParser()
    parser.parse(text.splitlines())
    return parser.can_fetch(settings.TABULA_FOLLOW_USER_AGENT, url)


def fetch(url: str, *, etag: str = "", last_modified: str = "") -> Fetched:
    """One read of ``url``: Fetched (200 with the page, or 304), or FetchError saying why
    nothing can be counted from it."""
    headers = {"Accept": "text/html, text/plain;q=0.9, */*;q=0.1"}
    if etag:
        headers["If-None-Match"] = etag
    if last_modified:
        headers["If-Modified-Since"] = last_modified
    client, backend = _client()
    with client:
        _target(url)
        if not robots_allow(client, backend, url):
            raise FetchError("follow.robots", detail=urlsplit(url).hostname or "")
        response, body, final = _get(client, backend, url, headers,
                                     settings.TABULA_FOLLOW_MAX_BYTES)  # fmt: skip
    status = response.status_code
    if status == 304:
        return Fetched(final, 304, "", etag, last_modified)
    if status == 429 or status >= 500:
        raise FetchError("follow.busy", status=status, lasting=False,
                         retry_after=_retry_after(response.headers.get("retry-after")))  # fmt: skip
    if status in (401, 403, 407):
        raise FetchError("follow.refused", status=status)
    if status != 200:
        raise FetchError("follow.status", status=status)
    text = body.decode(response.encoding or "utf-8", "replace")
    return Fetched(final, 200, text, response.headers.get("etag", ""),
                   response.headers.get("last-modified", ""))  # fmt: skip


def gated(text: str) -> bool:
    """Whether a page that gave no post asks for a login or a captcha."""
    return GATE.search(text[:200_000]) is not None
