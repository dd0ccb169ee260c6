"""Web benchmark: vote submission by 200 concurrent players, gunicorn + PostgreSQL.

    python bench/web.py [--players 200] [--seconds 20] [--think 10]

Creates a scratch PostgreSQL database (DATABASE_URL, default the local server's
`tabula_bench`), deals enough Wild West Wolf games for the players, opens Day 1, starts
gunicorn on a free local port, and lets every player log in through his private link and
then vote and change his vote in a loop (a random think time between votes). Prints the
p50 / p99 / max latency of the vote POSTs and the throughput. Traffic stays on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import http.client
import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT))
from scratch import fresh_database  # noqa: E402

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/tabula_bench"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def prepare(env: dict[str, str], players: int) -> list[tuple[str, list[str]]]:
    """Migrate the scratch database and deal games; return (token, others' names) a player."""
    script = f"""
import django, json, sys
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
        out.append([player_link_issue(player=p), [q for q in names if q != p.name]])
    n += 1
print(json.dumps(out[:{players}]))
"""
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, check=True,
                            capture_output=True, text=True)  # fmt: skip
    import json

    return json.loads(result.stdout.strip().splitlines()[-1])


class Client:
    """One player's browser: a keep-alive connection and a cookie jar."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, body: dict | None = None) -> tuple[int, str]:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
                   "Host": "127.0.0.1"}  # fmt: skip
        data = None
        if body is not None:
            data = urllib.parse.urlencode(body)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
            headers["Referer"] = f"http://127.0.0.1:{self.port}/io/"
        try:
            self.conn.request(method, path, body=data, headers=headers)
            response = self.conn.getresponse()
        except (http.client.HTTPException, OSError):
            self.conn.close()
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            self.conn.request(method, path, body=data, headers=headers)
            response = self.conn.getresponse()
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
        return response.status, response.read().decode("utf-8", "replace")


def player_loop(port, token, names, start_at, end_at, think, latencies, errors, lock):
    client = Client(port)
    client.request("GET", f"/p/{token}/")
    status, _ = client.request("GET", "/io/")
    if status != 200:
        with lock:
            errors.append(f"login {status}")
        return
    rng = random.Random(token)
    time.sleep(max(0.0, start_at - time.time()) + rng.random() * think)  # not all at once
    while time.time() < end_at:
        began = time.perf_counter()
        status, _ = client.request("POST", "/io/voto/", {"target": rng.choice(names)})
        elapsed = time.perf_counter() - began
        with lock:
            if status in (200, 302):
                latencies.append(elapsed)
            else:
                errors.append(f"vote {status}")
        time.sleep(rng.random() * think)


def run_group(job: tuple) -> tuple[list[float], list[str]]:
    """One load process: its players as threads (several processes keep the client's own
    GIL out of the measured latency)."""
    port, group, start_at, end_at, think = job
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    threads = [
        threading.Thread(target=player_loop, args=(port, token, names, start_at, end_at, think,
                                                   latencies, errors, lock))
        for token, names in group
    ]  # fmt: skip
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return latencies, errors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument(
        "--think",
        type=float,
        default=10.0,
        help="max seconds between a player's votes (uniform; mean half of it)",
    )
    parser.add_argument("--workers", type=int, default=4, help="gunicorn processes")
    parser.add_argument("--clients", type=int, default=4, help="load-generator processes")
    args = parser.parse_args()

    database = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB)
    fresh_database(database)
    env = {**os.environ, "DATABASE_URL": database, "DEBUG": "false", "ALLOWED_HOSTS": "127.0.0.1",
           "SECRET_KEY": "bench-only-" + "x" * 50, "SECURE_SSL_REDIRECT": "false",
           "SESSION_COOKIE_SECURE": "false", "CSRF_COOKIE_SECURE": "false",
           "CONN_MAX_AGE": "60", "DJANGO_READ_DOT_ENV_FILE": "false", "LOG_LEVEL": "WARNING",
           "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/14"),
           "DJANGO_SETTINGS_MODULE": "gm.settings"}  # fmt: skip
    print(f"preparing {args.players} players in {database} ...", flush=True)
    players = prepare(env, args.players)
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
                   cwd=ROOT, env=env, check=True)  # fmt: skip
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "gm.wsgi:application", "--bind", f"127.0.0.1:{port}",
         "--workers", str(args.workers), "--worker-class", "gthread", "--threads", "8",
         "--log-level", "warning"],
        cwd=ROOT, env=env,
    )  # fmt: skip
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.2)
        start_at = time.time() + 10  # every player logs in first
        end_at = start_at + args.seconds
        groups = [players[i :: args.clients] for i in range(args.clients)]
        with multiprocessing.Pool(args.clients) as pool:
            results = pool.map(run_group, [(port, g, start_at, end_at, args.think) for g in groups])
        latencies = [x for lats, _ in results for x in lats]
        errors = [e for _, errs in results for e in errs]
        elapsed = args.seconds
    finally:
        server.terminate()
        server.wait(timeout=30)
    if not latencies:
        sys.exit(f"no vote succeeded: {errors[:5]}")
    ordered = sorted(latencies)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    print(f"players: {len(players)}, votes: {len(latencies)}, errors: {len(errors)}"
          + (f" ({', '.join(sorted(set(errors))[:3])})" if errors else ""))  # fmt: skip
    print(f"vote latency p50: {statistics.median(ordered) * 1000:.1f} ms")
    print(f"vote latency p99: {p99 * 1000:.1f} ms")
    print(f"vote latency max: {ordered[-1] * 1000:.1f} ms")
    print(f"throughput: {len(latencies) / elapsed:.0f} votes/s")


if __name__ == "__main__":
    main()
