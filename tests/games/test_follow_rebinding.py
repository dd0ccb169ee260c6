"""Issue 32, the fetch guard against DNS rebinding: a forum's name is resolved once, every
answer checked, and the connection made to that very address (PinnedBackend), at every
redirect hop; the Host header still names the forum. A resolver that answers a public
address first and the loopback afterwards never gets the site to the loopback server."""

from __future__ import annotations

import shutil
import socket
import ssl
import subprocess
from pathlib import Path

import httpcore
import httpx
import pytest
from django.core.cache import cache
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from games.services.follow_http import FetchError, fetch
from tests.games.follow_tools import ago
from tests.games.forum_server import Thread

PUBLIC = "93.184.215.14"
REAL_GETADDRINFO = socket.getaddrinfo
REAL_CONNECT = httpcore.SyncBackend.connect_tcp
OPENSSL = shutil.which("openssl")


class Rebinding:
    """A DNS for the names in ``answers``: each name answers its list in turn (the last
    one for ever after); any other name, an address literal included, as the system does."""

    def __init__(self, answers: dict[str, list[str]]) -> None:
        self.answers, self.asked = answers, []

    def __call__(self, host, port, *args, **kwargs):
        if host not in self.answers:
            return REAL_GETADDRINFO(host, port, *args, **kwargs)
        self.asked.append(host)
        queue = self.answers[host]
        answer = queue.pop(0) if len(queue) > 1 else queue[0]  # "a" or "a,b": its addresses
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))
                for address in answer.split(",")]  # fmt: skip


@pytest.fixture
def connections(monkeypatch) -> list[str]:
    """The addresses the site opens a TCP connection to: the loopback (the test forum)
    for real, any other refused at once (no test goes out to the internet)."""
    opened = []

    def connect(self, host, port, timeout=None, local_address=None, socket_options=None):
        opened.append(host)
        if not host.startswith("127."):
            raise httpcore.ConnectError(f"{host}: not in a test")
        return REAL_CONNECT(self, host, port, timeout, local_address, socket_options)

    monkeypatch.setattr(httpcore.SyncBackend, "connect_tcp", connect)
    return opened


def test_a_rebinding_dns_never_gets_the_site_to_the_loopback(
    forum, settings, monkeypatch, connections
):
    """Public to the check, 127.0.0.1 to whatever asks next: the site asked once and
    connected to the public address it checked, never to the test forum behind the name."""
    name = "forum.rebind.test"
    dns = Rebinding({name: [PUBLIC, "127.0.0.1"]})
    monkeypatch.setattr(socket, "getaddrinfo", dns)
    forum.expect_request("/t").respond_with_data("<html>secret</html>", content_type="text/html")
    url = f"http://{name}:{forum.port}/t"
    cache.set(f"follow:robots:http://{name}:{forum.port}/robots.txt", "", 3600)
    with pytest.raises(FetchError) as failed:
        fetch(url)
    assert failed.value.code == "follow.network"
    assert dns.asked == [name]  # resolved once: the connection did not ask again
    assert connections == [PUBLIC]
    assert [request.path for request, _response in forum.log] == []


def test_each_redirect_hop_is_resolved_once_and_pinned(forum, monkeypatch, connections):
    """The test forum (allowed) sends the site to a name that rebinds: that hop too is
    connected to the address checked, never to the loopback the name answers next."""
    name = "cdn.rebind.test"
    dns = Rebinding({name: [PUBLIC, "127.0.0.1"]})
    monkeypatch.setattr(socket, "getaddrinfo", dns)
    forum.expect_request("/t").respond_with_data(
        "", status=302, headers={"Location": f"http://{name}:{forum.port}/inside"}
    )
    forum.expect_request("/inside").respond_with_data("<html>secret</html>")
    with pytest.raises(FetchError) as failed:
        fetch(forum.url_for("/t"))
    assert failed.value.code == "follow.network"
    assert dns.asked == [name]
    assert PUBLIC in connections
    assert "/inside" not in [request.path for request, _response in forum.log]


def test_the_pinned_connection_keeps_the_forums_name(forum, settings, monkeypatch):
    """A forum reached at its checked address still gets its own name in the Host header
    (and would in TLS: httpcore's start_tls names the origin's host)."""
    name = "forum.pinned.test"
    dns = Rebinding({name: ["127.0.0.1"]})
    monkeypatch.setattr(socket, "getaddrinfo", dns)
    settings.TABULA_FOLLOW_ALLOW_PRIVATE = [f"{name}:{forum.port}"]  # the test forum's name
    thread = Thread("phpbb")
    thread.add("Sam", ago(30), "Voto Gino")
    hosts = []

    def page(request: Request) -> Response:
        hosts.append(request.headers.get("Host"))
        return Response(thread.page(1, "/t"), content_type="text/html; charset=utf-8")

    forum.expect_request("/t").respond_with_handler(page)
    fetched = fetch(f"http://{name}:{forum.port}/t")
    assert (fetched.status, "Voto Gino" in fetched.text) == (200, True)
    assert hosts == [f"{name}:{forum.port}"]
    assert dns.asked == [name, name]  # robots.txt, then the page: one resolution each


def test_the_checked_addresses_are_tried_in_turn(forum, settings, monkeypatch, connections):
    """A name with two addresses, the first unreachable (an IPv6 forum seen from a host
    without IPv6, say): the second checked address is tried, as the system would."""
    name = "forum.dual.test"
    monkeypatch.setattr(socket, "getaddrinfo", Rebinding({name: [f"{PUBLIC},127.0.0.1"]}))
    settings.TABULA_FOLLOW_ALLOW_PRIVATE = [f"{name}:{forum.port}"]
    forum.expect_request("/t").respond_with_data("<html>ok</html>", content_type="text/html")
    assert fetch(f"http://{name}:{forum.port}/t").status == 200
    assert connections == [PUBLIC, "127.0.0.1", PUBLIC, "127.0.0.1"]  # robots.txt, the page


def _certificates(folder: Path, name: str) -> tuple[Path, Path, Path]:
    """A test CA and a certificate for ``name`` signed by it (the openssl command):
    the CA's file, the certificate and its key."""
    ca_key, ca, key, csr, cert = (
        folder / n for n in ("ca.key", "ca.pem", "k.pem", "r.csr", "c.pem")
    )
    ext = folder / "ext.cnf"
    ext.write_text(f"subjectAltName=DNS:{name}\n")
    for command in (
        ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", ca_key, "-out", ca,
         "-days", "1", "-subj", "/CN=Tabula test CA"],
        ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", csr,
         "-subj", f"/CN={name}"],
        ["x509", "-req", "-in", csr, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial", "-out", cert,
         "-days", "1", "-extfile", ext],
    ):  # fmt: skip
        subprocess.run([OPENSSL, *map(str, command)], check=True, capture_output=True)
    return ca, cert, key


@pytest.mark.skipif(OPENSSL is None, reason="the openssl command makes the test certificates")
def test_tls_names_the_forum_while_the_connection_goes_to_the_checked_address(
    tmp_path, settings, monkeypatch
):
    """HTTPS to a forum pinned to its checked address: SNI and the certificate are
    checked against the forum's name (a certificate for it passes; the same server under
    another name fails the check), never against the address connected to."""
    name, other = "forum.tls.test", "other.tls.test"
    ca, cert, key = _certificates(tmp_path, name)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    server = HTTPServer(host="127.0.0.1", ssl_context=context)
    server.expect_request("/robots.txt").respond_with_data("User-agent: *\nAllow: /\n")
    server.expect_request("/t").respond_with_data("<html>ok</html>", content_type="text/html")
    server.start()
    try:
        monkeypatch.setattr(socket, "getaddrinfo",
                            Rebinding({name: ["127.0.0.1"], other: ["127.0.0.1"]}))  # fmt: skip
        monkeypatch.setattr(httpx, "create_ssl_context",
                            lambda **_kw: ssl.create_default_context(cafile=str(ca)))  # fmt: skip
        settings.TABULA_FOLLOW_ALLOW_PRIVATE = [f"{name}:{server.port}", f"{other}:{server.port}"]
        assert fetch(f"https://{name}:{server.port}/t").status == 200
        with pytest.raises(FetchError) as refused:
            fetch(f"https://{other}:{server.port}/t")
        assert refused.value.code == "follow.network"
        causes, cause = [], refused.value
        while cause is not None:
            causes.append(type(cause))
            cause = cause.__cause__ or cause.__context__
        assert ssl.SSLCertVerificationError in causes  # the name, checked
    finally:
        server.clear()
        server.stop()
