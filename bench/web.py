"""Web benchmark: 200 players voting through gunicorn + PostgreSQL, open loop.

    python bench/web.py [--players 200] [--rates 40,80,100] [--seconds 20] [--step 50]

Creates a scratch PostgreSQL database (BENCH_DATABASE_URL, default the local server's
`tabula_bench`), deals enough Wild West Wolf games for the players, opens Day 1 and starts
gunicorn on a free local port exactly as the Dockerfile's CMD runs it (only the address
changes). Every player opens his private link, reads his page like a browser (the vote
form's `phase` field and its legal targets) and then votes as the page does (an htmx POST
of that form), on the connection his last answer left open when the server keeps it (sync
workers close every one: a vote is then a new connection).

Open loop: votes are offered at a fixed rate (Poisson arrivals) whatever the answers; a
vote's latency runs from the instant it was due to the end of its answer, so waiting in
the queue counts. Each player sends one vote at a time (a browser does); a vote due when
every player of a load process is still waiting is counted as "backlog". The load runs in
one uvloop event loop (--clients processes): it shares the machine's cores with the site, so
its CPU a vote is printed next to gunicorn's and PostgreSQL's. Each rate of
--rates is run for --seconds, then the rate is stepped up by --step until a stage no
longer keeps up: a stage keeps up when every vote was acknowledged, none was in backlog,
at least 95 % of them were answered within the stage and p99 stays under --p99-limit
(when not even the first rate keeps up, the rate is halved until one does). The machine's
load average is printed with each stage: on a shared machine it says how much of the
figure is the site; so is the disk's slowest flush meanwhile (bench/disk_probe.py): a vote
is acknowledged once its commit is on the disk, so a flush that stalls for 200 ms stalls
every vote, and that stage's tail is the disk's.

A vote counts only when the page answers "Voto registrato"; a refusal or a server error
is an error. At the end the database is checked: every acknowledged vote is stored for
that phase, nothing else is, and each player's last stored vote is the last one he sent.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT))
from disk_probe import DiskProbe  # noqa: E402
from scratch import fresh_database  # noqa: E402
from web_load import load_process  # noqa: E402

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/tabula_bench"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def site_env(database: str) -> dict[str, str]:
    """The environment the site runs with under the bench: production settings on
    ``database``, plain HTTP on 127.0.0.1."""
    return {**os.environ, "DATABASE_URL": database, "DEBUG": "false", "ALLOWED_HOSTS": "127.0.0.1",
           "SECRET_KEY": "bench-only-" + "x" * 50, "SECURE_SSL_REDIRECT": "false",
           "SESSION_COOKIE_SECURE": "false", "CSRF_COOKIE_SECURE": "false",
           # compose keeps a connection 60 s; here it lives through the run, since the meter
           # cannot read the CPU of a PostgreSQL backend that has exited (one reconnect a
           # worker a minute costs nothing a vote)
           "CONN_MAX_AGE": "900", "DJANGO_READ_DOT_ENV_FILE": "false", "LOG_LEVEL": "WARNING",
           "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/14"),
           # 200 players make the load of thousands: each one votes far more often than the
           # per-player flood limit allows (it is still counted on every vote, in Redis)
           "TABULA_SUBMIT_RATE": "1000000/m",
           "DJANGO_SETTINGS_MODULE": "gm.settings"}  # fmt: skip


def prepare_site(env: dict[str, str], players: int) -> list:
    """The scratch database migrated, ``players`` players dealt into open Day 1 games with
    their links (the tokens, by player), the static files collected."""
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    tokens = json.loads(django_script(env, PREPARE.format(players=players)))
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
                   cwd=ROOT, env=env, check=True)  # fmt: skip
    return tokens


def wait_for_server(port: int, tries: int) -> None:
    """Until the server accepts a connection on ``port`` (``tries`` of 0.2 s at most)."""
    for _ in range(tries):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.2)


def dockerfile_command(port: int) -> list[str]:
    """The Dockerfile's CMD, bound to 127.0.0.1:port instead of 0.0.0.0:8000."""
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")  # continued lines
    line = next(x for x in text.splitlines() if x.startswith("CMD"))
    command = json.loads(line.removeprefix("CMD").strip())
    command[command.index("--bind") + 1] = f"127.0.0.1:{port}"
    assert command[0] == "gunicorn", command
    return [sys.executable, "-m", "gunicorn", *command[1:]]


PREPARE = """
import django, json
django.setup()
from django.contrib.auth import get_user_model
from games.phases import current_phase, phase_commit
from games.services import game_create, player_link_issue
gm, _ = get_user_model().objects.get_or_create(username="bench")
out = []
n = 0
while len(out) < {players}:
    names = [f"g{{n}}p{{i}}" for i in range(16)]
    game = game_create(gm=gm, name=f"bench {{n}}", setup_key="wild-west-wolf",
                       player_names=names, seed=n)
    phase_commit(phase=current_phase(game), user=gm)
    for p in game.players.all():
        out.append([p.pk, player_link_issue(player=p)])
    n += 1
print(json.dumps(out[:{players}]))
"""

CHECK = """
import django, json, sys
django.setup()
from games.models import Submission
sent = {{int(k): v for k, v in json.load(sys.stdin).items()}}
stored = {{}}
for player, phase, target in (Submission.objects.filter(kind="vote").order_by("at", "pk")
                              .values_list("player_id", "phase_id", "target__name")):
    stored.setdefault(player, []).append([phase, target])
problems = []
for player in sorted(set(sent) | set(stored)):
    acked, rows = sent.get(player, []), stored.get(player, [])
    if acked != rows:
        problems.append(f"player {{player}}: sent {{len(acked)}} acknowledged, stored {{len(rows)}}"
                        f" (last sent {{acked[-1:]}}, last stored {{rows[-1:]}})")
print(json.dumps({{"stored": sum(map(len, stored.values())), "problems": problems}}))
"""


def django_script(env: dict[str, str], script: str, stdin: str = "") -> str:
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, check=True,
                            capture_output=True, text=True, input=stdin)  # fmt: skip
    return result.stdout.strip().splitlines()[-1]


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
                f"{self.disk[1]} of {self.disk[2]} over 50 ms")  # fmt: skip

    def cpu_per_vote(self, seconds: float) -> float:
        answered = len(self.latencies) + len(self.errors)
        return seconds * 1000 / answered if answered else 0.0


def cpu_times(pids: list[int], kernel_only: bool = False) -> dict[int, float]:
    """CPU seconds (user + system, or system only) each process has used so far."""
    ticks = os.sysconf("SC_CLK_TCK")
    times = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone
        times[pid] = (int(fields[12]) + (0 if kernel_only else int(fields[11]))) / ticks
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

    def read(self) -> tuple[dict[int, float], ...]:
        """CPU used so far by gunicorn, the database, the load generator, and gunicorn's
        part of it in the kernel (its sockets: a sync worker accepts and closes one a vote)."""
        web, database = self.pids()
        return (cpu_times(web), cpu_times(database), cpu_times(self.load),
                cpu_times(web, kernel_only=True))  # fmt: skip


def used(before: dict[int, float], after: dict[int, float]) -> float:
    return sum(t - before.get(pid, 0.0) for pid, t in after.items())


def run_stage(pipes, rate: float, seconds: float, seed: int, meter: Meter | None = None,
              probe: DiskProbe | None = None) -> Stage:  # fmt: skip
    start = time.time() + 1.0
    before = meter.read() if meter else None
    if probe is not None:
        probe.take()  # what the disk did before the stage counts for nothing
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
        web_kernel=used(before[3], after[3]) if meter else 0.0,
        database_cpu=used(before[1], after[1]) if meter else 0.0,
        load_cpu=used(before[2], after[2]) if meter else 0.0,
        disk=probe.take() if probe else (0.0, 0, 0),
    )  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rates", default="40,80,100", help="offered votes/s, comma-separated")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each stage")
    parser.add_argument("--step", type=float, default=50.0, help="votes/s added per search stage")
    parser.add_argument("--max-rate", type=float, default=1000.0, help="stop the search here")
    parser.add_argument("--p99-limit", type=float, default=0.5, help="seconds: p99 'explodes'")
    parser.add_argument("--clients", type=int, default=1, help="load-generator processes")
    args = parser.parse_args()

    database = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB)
    fresh_database(database)
    env = site_env(database)
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    print(f"preparing {args.players} players in {database} ...", flush=True)
    tokens = prepare_site(env, args.players)
    port = free_port()
    command = dockerfile_command(port)
    print("server:", " ".join(command[2:]), flush=True)
    # the access log is written as in production (to stdout), here to /dev/null
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    processes, pipes = [], []
    probe = DiskProbe(ROOT / "var")  # the machine's disk, which the local database's log is on
    try:
        wait_for_server(port, 100)
        for i in range(args.clients):
            ours, theirs = multiprocessing.Pipe()
            process = multiprocessing.Process(
                target=load_process, args=(port, tokens[i :: args.clients], theirs)
            )
            process.start()
            processes.append(process)
            pipes.append(ours)
        login_errors = [e for pipe in pipes for e in pipe.recv()]
        if login_errors:
            sys.exit(f"{len(login_errors)} players could not log in: {login_errors[:3]}")
        print(f"{args.players} players logged in through their links; {args.seconds:.0f} s "
              f"a stage, open loop", flush=True)  # fmt: skip
        run_stage(pipes, 20, 3, seed=0)  # warm-up, not reported
        meter = Meter(server.pid, database, [p.pid for p in processes])
        measure = {"meter": meter, "probe": probe}
        stages = []
        for n, rate in enumerate(float(r) for r in args.rates.split(",")):
            stages.append(run_stage(pipes, rate, args.seconds, seed=n + 1, **measure))
            print(stages[-1].line(), flush=True)
        rate = max(s.rate for s in stages)
        while stages[-1].keeps_up(args.p99_limit) and rate + args.step <= args.max_rate:
            rate += args.step
            stages.append(run_stage(pipes, rate, args.seconds, seed=len(stages) + 1, **measure))
            print(stages[-1].line(), "(search)", flush=True)
        rate = min(s.rate for s in stages)
        while not any(s.keeps_up(args.p99_limit) for s in stages) and rate >= 10:
            rate /= 2  # not even the lowest rate holds: step down to find what does
            stages.append(run_stage(pipes, rate, args.seconds, seed=len(stages) + 1, **measure))
            print(stages[-1].line(), "(search down)", flush=True)
        for pipe in pipes:
            pipe.send(None)
        acknowledged = {}
        for pipe in pipes:
            acknowledged.update(pipe.recv())
    finally:
        probe.close()
        for process in processes:
            process.join(timeout=30)
        server.terminate()
        server.wait(timeout=30)
    sustained = [s.rate for s in stages if s.keeps_up(args.p99_limit)]
    print(
        f"maximum sustained rate: {max(sustained, default=0):.0f} votes/s "
        f"(every vote acknowledged, no backlog, p99 < {args.p99_limit * 1000:.0f} ms)"
    )
    check = json.loads(django_script(env, CHECK.format(), json.dumps(acknowledged)))
    total = sum(map(len, acknowledged.values()))
    if check["problems"]:
        print(f"DATABASE CHECK FAILED: {len(check['problems'])} players differ, e.g.")
        for problem in check["problems"][:5]:
            print("  ", problem)
        sys.exit(1)
    print(f"database check: stored = acknowledged = {check['stored']} votes (of {total} sent "
          f"and acknowledged); each player's last stored vote is the last he sent")  # fmt: skip


if __name__ == "__main__":
    main()
