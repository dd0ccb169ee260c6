"""The Celery processes a test starts of its own (a beat, a worker), and their stop."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

from tests.conftest import ROOT


def stop(proc: subprocess.Popen) -> None:
    """Stop a process started in a session of its own, with its children."""
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


@contextmanager
def celery_beat(env: dict[str, str]) -> Iterator[subprocess.Popen]:
    """A `celery beat` with ``env``, its schedule file in a folder of its own, stopped after."""
    with tempfile.TemporaryDirectory() as var:
        beat = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "gm", "beat", "--loglevel", "warning",
             "--schedule", f"{var}/beat"],
            cwd=ROOT, env=env, start_new_session=True,
        )  # fmt: skip
        try:
            yield beat
        finally:
            stop(beat)
