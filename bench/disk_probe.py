"""The disk's flush stalls while a bench stage runs, the other cause of a vote's tail.

An acknowledged vote is durable: its statement commits, and PostgreSQL's commit waits for
the write-ahead log to reach the disk (``fdatasync``). On a shared virtual machine that
flush usually takes ~0.1 ms, now and then hundreds (seen here: 261 ms twice in 20 s on an
idle machine), and while it lasts every vote's commit waits: the whole site stalls, then
drains its queue, and a stage's p99 is the disk's, not the site's. This probe writes and
flushes 8 kB every ``interval`` seconds to a file in ``folder`` (put it on the disk of the
database's write-ahead log: the bench's local server shares the machine's disk) and keeps
the slowest flush, so each stage can say what the disk did meanwhile. It also keeps how
late its thread woke up (it asks to every ``interval``): a pause of the whole machine (the
hypervisor's, or every core busy) shows there, whatever the disk does.
"""

from __future__ import annotations

import os
import tempfile
import threading
import time
from pathlib import Path


class DiskProbe:
    """A thread flushing a small write now and then; ``take()`` gives the slowest flush
    (seconds), the flushes over ``slow`` seconds and all of them since the last ``take()``;
    ``late()`` the most its thread woke up late meanwhile (seconds)."""

    def __init__(self, folder: Path, interval: float = 0.05, slow: float = 0.05) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.fd, self.path = tempfile.mkstemp(prefix="disk-probe-", dir=folder)
        self.interval, self.slow = interval, slow
        self.lock = threading.Lock()
        self.worst, self.stalls, self.flushes, self.latest = 0.0, 0, 0, 0.0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        block = b"\0" * 8192
        asleep = time.perf_counter()
        while not self.stop.wait(self.interval):
            start = time.perf_counter()
            os.pwrite(self.fd, block, 0)
            os.fdatasync(self.fd)
            took = time.perf_counter() - start
            with self.lock:
                self.latest = max(self.latest, start - asleep - self.interval)
                self.flushes += 1
                self.worst = max(self.worst, took)
                self.stalls += took > self.slow
            asleep = time.perf_counter()

    def take(self) -> tuple[float, int, int]:
        """The slowest flush, the slow ones and all of them since the last call."""
        with self.lock:
            taken = (self.worst, self.stalls, self.flushes)
            self.worst, self.stalls, self.flushes = 0.0, 0, 0
        return taken

    def late(self) -> float:
        """The most the thread woke up late since the last call (seconds)."""
        with self.lock:
            taken, self.latest = self.latest, 0.0
        return max(taken, 0.0)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=5)
        os.close(self.fd)
        os.unlink(self.path)
