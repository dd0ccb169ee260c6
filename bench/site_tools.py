"""What the site benchmarks share: the site's environment as production runs it, the
Dockerfile's gunicorn command, a Django script run in a process of its own, and a
player's browser (his cookies, one request at a time)."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def site_env(database: str) -> dict[str, str]:
    """The environment the site runs with under the bench: production settings on
    ``database``, plain HTTP on 127.0.0.1."""
    return {**os.environ, "DATABASE_URL": database, "DEBUG": "false", "ALLOWED_HOSTS": "127.0.0.1",
           "SECRET_KEY": "bench-only-" + "x" * 50, "SECURE_SSL_REDIRECT": "false",
           "SESSION_COOKIE_SECURE": "false", "CSRF_COOKIE_SECURE": "false",
           "CONN_MAX_AGE": "900", "DJANGO_READ_DOT_ENV_FILE": "false", "LOG_LEVEL": "WARNING",
           "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/14"),
           "DJANGO_SETTINGS_MODULE": "gm.settings"}  # fmt: skip


def dockerfile_command(port: int) -> list[str]:
    """The Dockerfile's CMD, bound to 127.0.0.1:port instead of 0.0.0.0:8000."""
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")  # continued lines
    line = next(x for x in text.splitlines() if x.startswith("CMD"))
    command = json.loads(line.removeprefix("CMD").strip())
    command[command.index("--bind") + 1] = f"127.0.0.1:{port}"
    assert command[0] == "gunicorn", command
    return [sys.executable, "-m", "gunicorn", *command[1:]]


def wait_for_server(port: int, tries: int) -> None:
    """Until the server accepts a connection on ``port`` (``tries`` of 0.2 s at most)."""
    for _ in range(tries):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.2)


def django_script(env: dict[str, str], script: str, stdin: str = "") -> str:
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, check=True,
                            capture_output=True, text=True, input=stdin)  # fmt: skip
    return result.stdout.strip().splitlines()[-1]


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
