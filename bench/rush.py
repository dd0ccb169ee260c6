"""The 22:00 rush of a 50-game community (issue 33): the load the product really sees.

    python bench/rush.py [--games 50] [--seconds 60]

Deals ``--games`` games on a scratch PostgreSQL database (BENCH_DATABASE_URL, default the
local server's `tabula_rush`), half Wild West Wolf (16 players) and half Inquisizione
(19), ~875 players for 50 games, and opens their Day 1 with ONE shared deadline,
``--seconds`` after the load starts. The site runs as production runs it: gunicorn exactly
as the Dockerfile's CMD says, one Celery worker and Celery beat (the one clock) on a Redis
server of the bench's own. Every player opens his private link and his page like a
browser, then votes 1 to 3 times (the vote form's htmx POST, a target read from the
page); the votes come at a rate rising toward the deadline (a density growing linearly
in time: ~30 votes/s on average, ~55/s in the last 10 s), and a few land after it.

Printed: the votes sent, acknowledged ("Voto registrato") and refused after the deadline;
the vote's latency (median, p99, max, from its due instant, so queueing counts); then,
from the database: every acknowledged vote stored (none lost), the days committed at the
deadline and how long after it each was committed with its post ready (p50, p99, max),
the days missed (not committed) and doubled (two commits). Targets: vote p99 < 100 ms,
0 lost, every day committed and its post ready within 5 s of the deadline (p99), 0 missed
or doubled.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import subprocess
import sys
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT))
from procs import OwnRedis, free_port, kill_group, percentile, start_celery  # noqa: E402
from scratch import fresh_database  # noqa: E402
from site_tools import (  # noqa: E402
    Browser,
    django_script,
    dockerfile_command,
    site_env,
    wait_for_server,
)

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/tabula_rush"
PHASE_FIELD = re.compile(r'action="/io/voto/".*?name="phase" value="(\d+)"', re.S)
TARGETS = re.compile(r'<select name="target">(.*?)</select>', re.S)
OPTION = re.compile(r'<option value="([^"]+)"')
ACKNOWLEDGED = 'class="notice ok"'

PREPARE = """
import django, json, datetime as dt
django.setup()
from django.contrib.auth import get_user_model
from django.utils import timezone
from games.models import Phase
from games.services.phases import current_phase, phase_commit
from games.services.game import game_create, player_link_issue
gm, _ = get_user_model().objects.get_or_create(username="rush")
out = []
for n in range({games}):
    setup, size = ("wild-west-wolf", 16) if n % 2 == 0 else ("inquisizione", 19)
    names = [f"g{{n}}p{{i}}" for i in range(size)]
    game = game_create(gm=gm, name=f"rush {{n}}", setup_key=setup, player_names=names, seed=n)
    phase_commit(phase=current_phase(game), user=gm)
    for p in game.players.all():
        out.append([p.pk, player_link_issue(player=p)])
print(json.dumps(out))
"""

DEADLINE = """
import django, json, datetime as dt
django.setup()
from games.models import Phase
at = dt.datetime.fromtimestamp({at}, dt.UTC)
days = Phase.objects.filter(game__name__startswith="rush ", label="D1")
print(json.dumps(days.update(closes_at=at)))
"""

CHECK = """
import django, json, sys
django.setup()
from games.models import AuditEvent, Phase, Submission
acked = json.load(sys.stdin)
days = list(Phase.objects.filter(game__name__startswith="rush ", label="D1"))
stored = Submission.every.filter(phase__in=days, kind="vote").count()
lags, missed, doubled, no_post = [], 0, 0, 0
for day in days:
    commits = AuditEvent.objects.filter(game_id=day.game_id, kind="commit",
                                        detail__phase="D1").count()
    if day.status != "committed" or day.committed_at is None:
        missed += 1
        continue
    doubled += commits > 1
    no_post += not day.outcome.get("posts")
    lags.append((day.committed_at - day.closes_at).total_seconds())
print(json.dumps({{"stored": stored, "acked": acked, "days": len(days), "lags": sorted(lags),
                   "missed": missed, "doubled": doubled, "no_post": no_post}}))
"""


UNACKED: list[str] = []  # answered, not acknowledged: kept for the report


class Voter:
    """A player's browser: his session, his page's vote form (phase, targets)."""

    def __init__(self, port: int, token: str) -> None:
        self.browser = Browser(port)
        self.token = token
        self.lock = threading.Lock()  # one request at a time, as a browser sends them
        self.phase, self.targets = "", []

    def log_in(self) -> None:
        self.browser.request("GET", f"/p/{self.token}/")
        _, page = self.browser.request("GET", "/io/")
        match = PHASE_FIELD.search(page)
        select = TARGETS.search(page[match.end() :]) if match else None
        self.phase = match.group(1) if match else ""
        self.targets = [t for t in OPTION.findall(select.group(1)) if t] if select else []

    def vote(self, due: float, rng: random.Random) -> tuple[float, bool, str]:
        with self.lock:
            wait = due - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            status, body = self.browser.request(
                "POST", "/io/voto/", {"phase": self.phase, "target": rng.choice(self.targets)}
            )
            latency = time.monotonic() - due
        ok = status == 200 and ACKNOWLEDGED in body
        if not ok and status == 200:
            UNACKED.append(body)
        return latency, ok, body if status != 200 else ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=22)
    args = parser.parse_args()
    database = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB)
    fresh_database(database)
    redis = OwnRedis()
    redis.start()
    env = {**site_env(database), "REDIS_URL": redis.url, "TABULA_SUBMIT_RATE": "10/m"}
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
                   cwd=ROOT, env=env, check=True)  # fmt: skip
    tokens = json.loads(django_script(env, PREPARE.format(games=args.games)))
    port = free_port()
    server = subprocess.Popen(dockerfile_command(port), cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    worker = start_celery(env, "worker", "--concurrency", "1", "--without-mingle",
                          "--without-gossip", "--loglevel", "warning",
                          log=str(ROOT / "var" / "rush-worker.log"))  # fmt: skip
    beat = start_celery(env, "beat", "--loglevel", "warning",
                        "--schedule", str(ROOT / "var" / "rush-beat-schedule"),
                        log=str(ROOT / "var" / "rush-beat.log"))  # fmt: skip
    try:
        wait_for_server(port, 150)
        voters = [Voter(port, token) for _pk, token in tokens]
        with ThreadPoolExecutor(8) as pool:
            list(pool.map(Voter.log_in, voters))
        voters = [v for v in voters if v.phase and v.targets]
        rng = random.Random(args.seed)
        start = time.monotonic() + 2.0
        deadline_wall = time.time() + 2.0 + args.seconds
        django_script(env, DEADLINE.format(at=deadline_wall))
        plan = sorted(
            (start + args.seconds * math.sqrt(rng.random()) + rng.uniform(0, 0.5), i)
            for i, v in enumerate(voters)
            for _ in range(rng.randint(1, 3))
        )  # a density rising linearly toward the deadline; a few land just after it
        results: list[tuple[float, bool, str]] = []
        with ThreadPoolExecutor(96) as pool:
            futures = [pool.submit(voters[i].vote, due, random.Random(n))
                       for n, (due, i) in enumerate(plan)]  # fmt: skip
            results = [f.result() for f in futures]
        late = [r for r, (due, _i) in zip(results, plan, strict=True)
                if due - start > args.seconds]  # fmt: skip
        acked = sum(1 for _lat, ok, _err in results if ok)
        errors = [err[:120] for _lat, ok, err in results if err]
        latencies = sorted(lat * 1000 for lat, _ok, _err in results)
        last10 = sum(1 for due, _i in plan if args.seconds - 10 <= due - start <= args.seconds)
        print(f"{len(voters)} players in {args.games} games; {len(plan)} votes sent "
              f"({len(plan) / args.seconds:.0f}/s on average, {last10 / 10:.0f}/s in the last "
              f"10 s), {acked} acknowledged, {len(late)} due after the deadline, "
              f"{len(errors)} server errors")  # fmt: skip
        print(
            f"vote latency ms: p50 {percentile(latencies, 0.5):.0f}, "
            f"p99 {percentile(latencies, 0.99):.0f}, max {latencies[-1]:.0f}"
        )
        time.sleep(max(0.0, deadline_wall + 30 - time.time()))  # the clock's closes
        check = json.loads(django_script(env, CHECK.format(), json.dumps(acked)))
        lags = check["lags"]
        print(
            f"stored {check['stored']} of {acked} acknowledged votes "
            f"(lost: {max(0, acked - check['stored'])})"
        )
        if not lags:
            print(f"no day committed: {check['missed']} of {check['days']} missed")
        else:
            print(
                f"days committed after the deadline, s: p50 {percentile(lags, 0.5):.2f}, "
                f"p99 {percentile(lags, 0.99):.2f}, max {lags[-1]:.2f}; "
                f"{len(lags)} of {check['days']} committed, missed {check['missed']}, "
                f"doubled {check['doubled']}, without their post {check['no_post']}"
            )
        for err in errors[:3]:
            print("error:", err)
        if UNACKED:
            reasons = Counter(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body)).strip()[:160]
                              for body in UNACKED)  # fmt: skip
            print(f"{len(UNACKED)} answered without 'Voto registrato':")
            for reason, count in reasons.most_common(5):
                print(f"  {count} x {reason}")
    finally:
        for proc in (beat, worker):
            kill_group(proc)
        server.terminate()
        server.wait(10)
        redis.stop()


if __name__ == "__main__":
    main()
