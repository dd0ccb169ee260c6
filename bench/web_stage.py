"""One stage of bench/web.py: votes offered at one rate for a while, and what the site and
the machine did meanwhile (latencies, errors, backlog; the CPU of gunicorn, PostgreSQL and
the load generator; the disk's flushes, the hypervisor's steal, a thread's late wake-ups)."""

from __future__ import annotations

import os
import statistics
import subprocess
import time
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

from disk_probe import DiskProbe


@dataclass
class Stage:
    rate: float
    seconds: float
    latencies: list[float]
    errors: list[str]
    backlog: int
    answered_in_time: int
    load: float  # the machine's 1-minute load average at the end of the stage
    web_cpu: float = 0.0  # CPU seconds used by gunicorn during the stage
    web_kernel: float = 0.0  # the part of it spent in the kernel
    database_cpu: float = 0.0  # and by the bench database's PostgreSQL backends
    load_cpu: float = 0.0  # and by this bench's load generator (on the same cores)
    disk: tuple[float, int, int] = (0.0, 0, 0)  # slowest flush (s), flushes > 50 ms, flushes
    steal: float = 0.0  # the share of the machine's CPU time taken by the hypervisor
    late: float = 0.0  # the most a sleeping thread woke up late (s): a pause of the machine

    @property
    def offered(self) -> int:
        return len(self.latencies) + len(self.errors) + self.backlog

    def percentile(self, q: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else float("inf")

    def keeps_up(self, p99_limit: float) -> bool:
        return (not self.errors and not self.backlog and self.latencies
                and self.answered_in_time >= 0.95 * self.offered
                and self.percentile(0.99) < p99_limit)  # fmt: skip

    def line(self) -> str:
        errors = ""
        if self.errors:
            kinds = sorted({e for e in self.errors})
            errors = f", errors {len(self.errors)} ({', '.join(kinds[:3])})"
        return (f"{self.rate:5.0f} votes/s offered: {self.offered} votes, "
                f"{len(self.latencies) / self.seconds:5.1f}/s acknowledged, "
                f"p50 {statistics.median(self.latencies) * 1000 if self.latencies else 0:6.1f} ms"
                f"  p99 {self.percentile(0.99) * 1000:7.1f} ms"
                f"  max {max(self.latencies, default=0) * 1000:7.1f} ms"
                f", backlog {self.backlog}{errors}, load {self.load:.1f}"
                f"; CPU a vote: gunicorn {self.cpu_per_vote(self.web_cpu):.1f} ms "
                f"(kernel {self.cpu_per_vote(self.web_kernel):.1f}), "
                f"PostgreSQL {self.cpu_per_vote(self.database_cpu):.1f} ms, "
                f"load generator {self.cpu_per_vote(self.load_cpu):.1f} ms"
                f"; disk flush max {self.disk[0] * 1000:.0f} ms, "
                f"{self.disk[1]} of {self.disk[2]} over 50 ms; steal {self.steal:.0%}, "
                f"wake-up late max {self.late * 1000:.0f} ms")  # fmt: skip

    def disturbance(self, steal: float, stall: float) -> str:
        """What the machine did to this stage beyond what the site asked of it ('' when
        nothing): the hypervisor took more than ``steal`` of its CPU time, or a flush of the
        disk or a sleeping thread's wake-up took longer than ``stall`` seconds."""
        found = []
        if self.steal > steal:
            found.append(f"steal {self.steal:.0%}")
        if self.disk[0] > stall:
            found.append(f"a disk flush of {self.disk[0] * 1000:.0f} ms")
        if self.late > stall:
            found.append(f"a wake-up {self.late * 1000:.0f} ms late")
        return ", ".join(found)

    def cpu_per_vote(self, seconds: float) -> float:
        answered = len(self.latencies) + len(self.errors)
        return seconds * 1000 / answered if answered else 0.0


def cpu_times(pids: list[int]) -> dict[int, tuple[float, float]]:
    """CPU seconds each process has used so far: in all (user + system), and in the kernel."""
    ticks = os.sysconf("SC_CLK_TCK")
    times = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone
        user, system = int(fields[11]) / ticks, int(fields[12]) / ticks
        times[pid] = (user + system, system)
    return times


class Meter:
    """CPU used by the site's processes (gunicorn's and the bench database's PostgreSQL
    backends): on a shared machine, the cost of a vote that the load does not inflate."""

    def __init__(self, server: int, database: str, load: list[int]) -> None:
        self.server, self.database, self.load = server, database, load

    def pids(self) -> tuple[list[int], list[int]]:
        web = [self.server]
        for task in Path(f"/proc/{self.server}/task").iterdir():
            web += [int(p) for p in (task / "children").read_text().split()]
        name = urllib.parse.urlparse(self.database).path.lstrip("/")
        admin = self.database.rsplit("/", 1)[0] + "/postgres"
        query = f"SELECT pid FROM pg_stat_activity WHERE datname = '{name}'"
        out = subprocess.run(["psql", admin, "-Atc", query], capture_output=True, text=True)
        return web, [int(p) for p in out.stdout.split()]

    def read(self) -> tuple[dict[int, tuple[float, float]], ...]:
        """CPU used so far by gunicorn, the database and the load generator (``cpu_times``:
        gunicorn's kernel part is its sockets, a sync worker accepts and closes one a vote)."""
        web, database = self.pids()
        return cpu_times(web), cpu_times(database), cpu_times(self.load)


def machine_times() -> list[int]:
    """The machine's CPU time so far by kind (/proc/stat's first line: user, nice, system,
    idle, iowait, irq, softirq, steal, ...), in ticks."""
    with open("/proc/stat") as stat:
        return [int(x) for x in stat.readline().split()[1:]]


def steal_share(before: list[int], after: list[int]) -> float:
    """The share of the machine's CPU time between two readings that went to other guests."""
    spent = [b - a for a, b in zip(before, after, strict=True)]
    guest = sum(spent[8:])  # guest time is counted in user time already
    total = sum(spent) - guest
    return spent[7] / total if total > 0 else 0.0


def used(before: dict[int, tuple[float, float]], after: dict[int, tuple[float, float]],
         kernel: bool = False) -> float:  # fmt: skip
    """CPU seconds the processes used between two readings (in the kernel: ``kernel``)."""
    part = int(kernel)
    return sum(t[part] - before.get(pid, (0.0, 0.0))[part] for pid, t in after.items())


def run_stage(pipes, rate: float, seconds: float, seed: int, meter: Meter | None = None,
              probe: DiskProbe | None = None) -> Stage:  # fmt: skip
    start = time.time() + 1.0
    before = meter.read() if meter else None
    if probe is not None:
        probe.take()  # what the disk did before the stage counts for nothing
        probe.late()
    machine = machine_times()
    for i, pipe in enumerate(pipes):
        pipe.send((rate / len(pipes), start, seconds, seed * 100 + i))
    parts = [pipe.recv() for pipe in pipes]
    after = meter.read() if meter else None
    records = [r for part in parts for r in part["records"]]
    end = start + seconds
    return Stage(
        rate, seconds,
        latencies=[answered - due for due, answered, error in records if not error],
        errors=[error for _, _, error in records if error],
        backlog=sum(part["backlog"] for part in parts),
        answered_in_time=sum(1 for _, answered, error in records if not error and answered <= end),
        load=os.getloadavg()[0],
        web_cpu=used(before[0], after[0]) if meter else 0.0,
        web_kernel=used(before[0], after[0], kernel=True) if meter else 0.0,
        database_cpu=used(before[1], after[1]) if meter else 0.0,
        load_cpu=used(before[2], after[2]) if meter else 0.0,
        disk=probe.take() if probe else (0.0, 0, 0),
        steal=steal_share(machine, machine_times()),
        late=probe.late() if probe else 0.0,
    )  # fmt: skip
