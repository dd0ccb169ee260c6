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
every vote, and that stage's tail is the disk's; and so is the share of the machine's CPU
time the hypervisor took for other guests ("steal", /proc/stat): on this shared machine it
moves from 0 to a quarter of both cores, and a stage near capacity then has less than it
needs. A stage so disturbed (steal over --steal-limit, a flush or a wake-up later than
--stall-limit) is measured again, up to --repeats times: every measurement is printed, the
search goes on from the last one, and the summary gives the maximum sustained rate both
ways, from the stages the machine left alone and from each stage as first measured.

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
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT))
from disk_probe import DiskProbe  # noqa: E402
from scratch import fresh_database  # noqa: E402
from web_load import load_process  # noqa: E402
from web_stage import Meter, Stage, run_stage  # noqa: E402

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
from games.services.phases import current_phase, phase_commit
from games.services.game import game_create, player_link_issue
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


def sustained_first(firsts: list[Stage], given: int, p99_limit: float) -> float:
    """The maximum sustained rate the search would have found from each stage's first
    measurement: the ``given`` rates' stages, then the search's in the order they ran, up
    while they keep up."""
    kept = firsts[:given]
    for stage in firsts[given:]:
        if stage.rate > kept[-1].rate and not kept[-1].keeps_up(p99_limit):
            break  # the search up would have stopped at the stage before
        kept.append(stage)
    return max((s.rate for s in kept if s.keeps_up(p99_limit)), default=0.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rates", default="40,80,100", help="offered votes/s, comma-separated")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each stage")
    parser.add_argument("--step", type=float, default=50.0, help="votes/s added per search stage")
    parser.add_argument("--max-rate", type=float, default=1000.0, help="stop the search here")
    parser.add_argument("--p99-limit", type=float, default=0.5, help="seconds: p99 'explodes'")
    parser.add_argument("--clients", type=int, default=1, help="load-generator processes")
    parser.add_argument(
        "--repeats", type=int, default=2, help="measurements again of a stage the machine disturbed"
    )
    parser.add_argument(
        "--steal-limit",
        type=float,
        default=0.10,
        help="share of CPU time taken by the hypervisor that disturbs a stage",
    )
    parser.add_argument(
        "--stall-limit",
        type=float,
        default=0.1,
        help="seconds: a disk flush or a wake-up this late disturbs a stage",
    )
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
        stages: list[Stage] = []  # each rate's last measurement
        firsts: list[Stage] = []  # and its first

        def stage(rate: float, note: str = "") -> None:
            for attempt in range(args.repeats + 1):
                measured = run_stage(pipes, rate, args.seconds, seed=100 * attempt
                                     + len(stages) + 1, **measure)  # fmt: skip
                if attempt == 0:
                    firsts.append(measured)
                why = measured.disturbance(args.steal_limit, args.stall_limit)
                again = why and attempt < args.repeats
                said = f"(disturbed: {why}; measured again)" if again else f"(disturbed: {why})"
                print(" ".join(filter(None, [measured.line(), note, said if why else ""])),
                      flush=True)  # fmt: skip
                if not again:
                    break
            stages.append(measured)

        for rate in (float(r) for r in args.rates.split(",")):
            stage(rate)
        rate = max(s.rate for s in stages)
        while stages[-1].keeps_up(args.p99_limit) and rate + args.step <= args.max_rate:
            rate += args.step
            stage(rate, "(search)")
        rate = min(s.rate for s in stages)
        while not any(s.keeps_up(args.p99_limit) for s in stages) and rate >= 10:
            rate /= 2  # not even the lowest rate holds: step down to find what does
            stage(rate, "(search down)")
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
    repeated = sum(1 for first, last in zip(firsts, stages, strict=True) if first is not last)
    first_rate = sustained_first(firsts, len(args.rates.split(",")), args.p99_limit)
    print(f"{repeated} of {len(stages)} stages disturbed by the machine and measured again; from "
          f"each stage as first measured: {first_rate:.0f} votes/s")  # fmt: skip
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
