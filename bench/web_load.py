"""The load generator of bench/web.py: each player's browser (his link, his page, the
vote form's htmx POST), in one uvloop event loop a process, offering votes open loop."""

from __future__ import annotations

import asyncio
import http.client
import random
import re
import time
import urllib.parse
from dataclasses import dataclass, field

import uvloop

VOTE_FORM = re.compile(r'<form[^>]*action="/io/voto/".*?</form>', re.S)
PHASE_FIELD = re.compile(r'name="phase" value="(\d+)"')
OPTION = re.compile(r'<option value="([^"]+)"')
PAGE_TOKEN = re.compile(r'"X-CSRFToken": "(\w+)"')  # the page's hx-headers, sent by htmx
ACKNOWLEDGED = 'class="notice ok"'
REFUSED = 'class="notice error"'


class Browser:
    """One player's browser: a keep-alive connection and a cookie jar."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, body: dict | None = None) -> tuple[int, str]:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
                   "Host": "127.0.0.1"}  # fmt: skip
        data = None
        if body is not None:
            data = urllib.parse.urlencode(body)
            headers.update({
                "Content-Type": "application/x-www-form-urlencoded",
                "X-CSRFToken": self.cookies.get("csrftoken", ""),
                "Referer": f"http://127.0.0.1:{self.port}/io/",
                "HX-Request": "true", "HX-Target": "forms",
            })  # fmt: skip
        try:
            self.conn.request(method, path, body=data, headers=headers)
            response = self.conn.getresponse()
        except (http.client.HTTPException, OSError):
            self.conn.close()
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            self.conn.request(method, path, body=data, headers=headers)
            response = self.conn.getresponse()
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
        return response.status, response.read().decode("utf-8", "replace")


@dataclass
class Player:
    pk: int
    token: str
    browser: Browser
    phase: str = ""
    csrf: str = ""  # the CSRF token htmx sends (the page's, from its hx-headers)
    targets: list[str] = field(default_factory=list)
    acknowledged: list[list] = field(default_factory=list)  # [phase id, target] in order
    inbox: list = field(default_factory=list)
    link: Link | None = None  # the vote's connection, while the server keeps it

    def log_in(self) -> str:
        """Open the private link, then read the page's vote form; '' or what went wrong."""
        status, _ = self.browser.request("GET", f"/p/{self.token}/")
        if status != 302:
            return f"link {status}"
        status, page = self.browser.request("GET", "/io/")
        form = VOTE_FORM.search(page)
        if status != 200 or form is None:
            return f"page {status}, no vote form"
        self.phase = PHASE_FIELD.search(form.group(0)).group(1)
        self.csrf = PAGE_TOKEN.search(page).group(1)
        self.targets = [t for t in OPTION.findall(form.group(0)) if t]
        return ""

    def vote_request(self, target: str) -> bytes:
        """The bytes of the page's htmx POST of the vote form (what a browser sends)."""
        body = urllib.parse.urlencode({"phase": self.phase, "target": target}).encode()
        cookies = "; ".join(f"{k}={v}" for k, v in self.browser.cookies.items())
        port = self.browser.port
        head = (f"POST /io/voto/ HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {cookies}\r\n"
                f"Content-Type: application/x-www-form-urlencoded\r\n"
                f"X-CSRFToken: {self.csrf}\r\n"
                f"Referer: http://127.0.0.1:{port}/io/\r\nHX-Request: true\r\n"
                f"HX-Target: forms\r\nContent-Length: {len(body)}\r\n\r\n")  # fmt: skip
        return head.encode() + body

    async def vote(self, target: str) -> str:
        """Send the vote form; '' when the page acknowledged it, else what it answered.
        On the connection the last answer left open (a browser keeps it), else a new one
        (gunicorn's sync workers close it after each answer), read by a bare protocol
        (asyncio's streams cost the shared cores more)."""
        request = self.vote_request(target)
        try:
            link = self.link
            if link is None or link.closed:
                link = self.link = await Link.open(self.browser.port)
            head, page = await link.send(request)
        except (OSError, EOFError) as exc:
            return f"transport {type(exc).__name__}"
        status = int(head[9:12])
        if status == 200 and ACKNOWLEDGED.encode() in page:
            self.acknowledged.append([int(self.phase), target])
            return ""
        if status == 200 and REFUSED.encode() in page:
            return "refused"
        return f"HTTP {status}"


class Link(asyncio.Protocol):
    """A connection carrying one request at a time; ``send`` gives the answer's head and
    body. It stays open while the server keeps it (no ``Connection: close``)."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.closed = False
        self.done: asyncio.Future | None = None
        self.data, self.end, self.split = bytearray(), -1, 0

    @classmethod
    async def open(cls, port: int) -> Link:
        loop = asyncio.get_running_loop()
        _, link = await loop.create_connection(cls, "127.0.0.1", port)
        return link

    def send(self, request: bytes) -> asyncio.Future:
        self.done = asyncio.get_running_loop().create_future()
        self.data, self.end = bytearray(), -1
        self.transport.write(request)
        return self.done

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.data += data
        if self.end < 0:
            split = self.data.find(b"\r\n\r\n")
            if split < 0:
                return
            head = bytes(self.data[:split])
            length = re.search(rb"(?i)\r\ncontent-length: *(\d+)", head)
            self.end = split + 4 + int(length.group(1)) if length else 1 << 62
            self.split = split
            if not length or re.search(rb"(?i)\r\nconnection: *close", head):
                self.closed = True  # the server ends it after this answer
        if len(self.data) >= self.end:
            self._finish()
            if self.closed:
                self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if self.end >= 0 and (self.end == 1 << 62 or len(self.data) >= self.end):
            self._finish()
        elif self.done is not None and not self.done.done():
            self.done.set_exception(exc or EOFError("connection closed before the answer"))

    def _finish(self) -> None:
        if self.done is not None and not self.done.done():
            data = bytes(self.data)
            self.done.set_result((data[: self.split + 4], data[self.split + 4 :]))


def stage_in_process(players: list[Player], rate: float, start: float, seconds: float,
                     seed: int) -> dict:  # fmt: skip
    """Offer votes at ``rate`` (Poisson) from ``start`` for ``seconds`` to these players:
    one event loop (uvloop's: it shares the site's cores), one task a vote."""
    return uvloop.run(_stage(players, rate, start, seconds, seed))


async def _stage(players: list[Player], rate: float, start: float, seconds: float,
                 seed: int) -> dict:  # fmt: skip
    rng = random.Random(seed)
    idle = list(players)
    records: list[tuple[float, float, str]] = []  # (due, answered, error)
    tasks = []

    async def send(player: Player, target: str, due: float) -> None:
        error = await player.vote(target)
        records.append((due, time.time(), error))
        idle.append(player)

    due, end, backlog = start, start + seconds, 0
    while True:
        due += rng.expovariate(rate)
        if due >= end:
            break
        await asyncio.sleep(max(0.0, due - time.time()))
        if not idle:
            backlog += 1
            continue
        player = idle.pop(rng.randrange(len(idle)))
        tasks.append(asyncio.create_task(send(player, rng.choice(player.targets), due)))
    await asyncio.gather(*tasks)
    for player in players:  # a connection belongs to this stage's event loop, which ends here
        if player.link is not None:
            player.link.transport.close()
            player.link = None
    return {"records": records, "backlog": backlog}


def load_process(port: int, tokens: list[tuple[int, str]], conn) -> None:
    """A load process: logs its players in, then runs the stages it is sent."""
    players = [Player(pk, token, Browser(port)) for pk, token in tokens]
    errors = [e for e in (p.log_in() for p in players) if e]
    conn.send(errors)
    while (job := conn.recv()) is not None:
        conn.send(stage_in_process(players, *job))
    conn.send({p.pk: p.acknowledged for p in players})
