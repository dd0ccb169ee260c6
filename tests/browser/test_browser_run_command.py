"""The README's run command brings up the site: the GM logs in and sees the demo game.

It starts `python3 dev.py run` for real (embedded Redis, a fresh SQLite file, web
server, worker and beat), drives the login in the system Chromium, then stops it
with Ctrl-C (SIGINT) and checks that everything it started is gone.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import psutil
import pytest

from tests.browser.pages import log_in
from tests.conftest import ROOT

pytestmark = [pytest.mark.slow, pytest.mark.browser]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_healthy(url: str, proc: subprocess.Popen, seconds: float = 180) -> dict:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"dev.py run exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                return json.load(response)
        except OSError:
            time.sleep(0.5)
    pytest.fail("the site did not come up")


def test_run_command_serves_the_demo_game_to_the_gm(tmp_path, browser):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DJANGO_SETTINGS_MODULE"}}
    env.update(
        DATABASE_URL=f"sqlite:///{tmp_path / 'run.sqlite3'}",
        TABULA_GM_PASSWORD="pw-run-test-42",
        TABULA_PORT=str(port),
    )
    proc = subprocess.Popen(
        [sys.executable, "dev.py", "run"], cwd=ROOT, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    children: list[psutil.Process] = []
    try:
        health = wait_healthy(f"http://127.0.0.1:{port}/healthz", proc)
        assert health == {"status": "ok", "database": "ok", "broker": "ok", "clock": "ok"}
        children = psutil.Process(proc.pid).children(recursive=True)
        commands = " ".join(" ".join(c.cmdline()) for c in children)
        assert "worker" in commands
        assert "beat" in commands
        assert "redis-server" in commands

        page = browser.new_page()
        log_in(page, f"http://127.0.0.1:{port}", "gm", "pw-run-test-42")
        page.click("text=Demo — Wild West Wolf")
        assert page.locator("table.sheet tbody tr").count() == 16
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            output, _ = proc.communicate(timeout=40)
        except subprocess.TimeoutExpired:
            # dev.py did not stop its children: kill them too, or they keep the output
            # pipe open and the test waits forever.
            with contextlib.suppress(psutil.NoSuchProcess):
                children += psutil.Process(proc.pid).children(recursive=True)
            for child in children:
                with contextlib.suppress(psutil.NoSuchProcess):
                    child.kill()
            proc.kill()
            output, _ = proc.communicate(timeout=40)
    assert proc.returncode == 0, output
    assert "GM account" in output
    for child in children:
        assert not child.is_running() or child.status() == psutil.STATUS_ZOMBIE, child.cmdline()
