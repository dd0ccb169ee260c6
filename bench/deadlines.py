"""Deadline benchmark: 100 games whose vote closes at the same minute.

    python bench/deadlines.py [--games 100] [--lead 20]
    python bench/deadlines.py --chaos [--games 200] [--rounds 3]   (bench/deadlines_chaos.py)
    python bench/deadlines.py --chaos --no-faults                  (the same, without faults)
    python bench/deadlines.py --burst [--votes 500]                (bench/deadlines_burst.py)

Creates a scratch PostgreSQL database (BENCH_DATABASE_URL, default the local server's
`tabula_bench_deadlines`), deals the games, opens Day 1 with a few votes each, sets every
vote close to the same instant (`--lead` seconds ahead), and starts a real Celery worker
and beat on Redis (a queue of its own). It waits for every day to be resolved and prints
the lag from deadline to resolution, p50, p99 and max, and the same past the close's grace
(``TABULA_CLOSE_GRACE_SECONDS``: the clock closes a phase that long after its deadline).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from scratch import fresh_database  # noqa: E402

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/tabula_bench_deadlines"

PREPARE = """
import datetime as dt, json, random
import django
django.setup()
from django.contrib.auth import get_user_model
from django.utils import timezone
from games.models import Phase
from games.services.phases import current_phase, phase_commit
from games.services.submissions import vote_cast
from games.services.game import game_create
gm, _ = get_user_model().objects.get_or_create(username="bench")
deadline = timezone.now() + dt.timedelta(seconds={lead})
for n in range({games}):
    names = [f"g{{n}}p{{i}}" for i in range(16)]
    game = game_create(gm=gm, name=f"bench {{n}}", setup_key="wild-west-wolf",
                       player_names=names, seed=n)
    phase_commit(phase=current_phase(game), user=gm)
    day = current_phase(game)
    players = list(game.players.all())
    for voter in players[:6]:
        vote_cast(phase=day, player=voter, target=random.choice([p for p in players if p != voter]))
    Phase.objects.filter(pk=day.pk).update(closes_at=deadline)
print(json.dumps(deadline.isoformat()))
"""

MEASURE = """
import json
import django
django.setup()
from games.models import Phase
days = Phase.objects.filter(label="D1")
done = [(p.committed_at - p.closes_at).total_seconds() for p in days if p.committed_at]
print(json.dumps({"total": days.count(), "lags": done}))
"""


def run(env: dict[str, str], code: str) -> str:
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True,
                            capture_output=True, text=True)  # fmt: skip
    return result.stdout.strip().splitlines()[-1]


def main() -> None:
    import json

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--lead", type=float, default=None, help="seconds to the deadline")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--chaos", action="store_true", help="worker kills and a Redis restart")
    mode.add_argument("--burst", action="store_true", help="votes over HTTP across a deadline")
    parser.add_argument("--rounds", type=int, default=3, help="--chaos: rounds of deadlines")
    parser.add_argument("--spread", type=float, default=5.0, help="--chaos: seconds")
    parser.add_argument("--kill-every", type=float, default=10.0, help="--chaos: seconds")
    parser.add_argument("--no-faults", action="store_true",
                        help="--chaos: the same rounds without a kill or a restart")  # fmt: skip
    parser.add_argument("--patience", type=float, default=90.0,
                        help="--chaos: seconds after a round's last deadline before a phase "
                        "still open counts as missed")  # fmt: skip
    parser.add_argument("--votes", type=int, default=500, help="--burst")
    parser.add_argument("--before", type=float, default=1.5, help="--burst: seconds")
    parser.add_argument("--after", type=float, default=0.5, help="--burst: seconds")
    parser.add_argument(
        "--no-proxy-header",
        action="store_true",
        help="--burst: no X-Request-Start (stamped by the first middleware)",
    )
    args = parser.parse_args()
    defaults = (200, 60.0) if args.chaos else (10, 8.0) if args.burst else (100, 20.0)
    args.games = args.games or defaults[0]
    args.lead = args.lead or defaults[1]
    database = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB)
    fresh_database(database)
    if args.chaos or args.burst:
        env = {**os.environ, "DATABASE_URL": database, "DJANGO_SETTINGS_MODULE": "gm.settings",
               "CONN_MAX_AGE": "60", "DEBUG": "false", "SECRET_KEY": "bench-only-" + "x" * 50,
               "DJANGO_READ_DOT_ENV_FILE": "false", "LOG_LEVEL": "WARNING"}  # fmt: skip
        subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env,
                       check=True)  # fmt: skip
        from deadlines_burst import burst
        from deadlines_chaos import chaos

        (chaos if args.chaos else burst)(env, args)
        return
    queue = f"bench-{uuid.uuid4().hex[:8]}"
    env = {**os.environ, "DATABASE_URL": database, "DJANGO_SETTINGS_MODULE": "gm.settings",
           "TABULA_QUEUE": queue,
           "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/13"),
           "CONN_MAX_AGE": "60"}  # fmt: skip
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    print(f"preparing {args.games} games, vote close in {args.lead:.0f} s ...", flush=True)
    started = time.monotonic()
    run(env, PREPARE.format(games=args.games, lead=args.lead))
    if time.monotonic() - started > args.lead:
        sys.exit("preparing took longer than the lead: raise --lead")
    celery = [sys.executable, "-m", "celery", "-A", "gm"]
    schedule = ROOT / "var" / f"beat-{queue}"
    (ROOT / "var").mkdir(exist_ok=True)
    worker_args = ["worker", "-l", "warning", "-c", "2", "-Q", queue, "--without-mingle",
                   "--without-gossip"]  # fmt: skip
    worker = subprocess.Popen([*celery, *worker_args], cwd=ROOT, env=env)
    beat = subprocess.Popen([*celery, "beat", "-l", "warning", "-s", str(schedule)],
                            cwd=ROOT, env=env)  # fmt: skip
    try:
        result = {"total": args.games, "lags": []}
        limit = time.monotonic() + args.lead + 180
        while time.monotonic() < limit:
            time.sleep(2)
            result = json.loads(run(env, MEASURE))
            if len(result["lags"]) == result["total"]:
                break
    finally:
        for proc in (beat, worker):
            proc.terminate()
        for proc in (beat, worker):
            proc.wait(timeout=60)
        schedule.unlink(missing_ok=True)
    lags = sorted(result["lags"])
    if not lags:
        sys.exit("no day was resolved")
    p99 = lags[min(len(lags) - 1, int(len(lags) * 0.99))]
    print(f"days resolved: {len(lags)} of {result['total']}")
    grace = grace_seconds(env)
    for name, lag in (("p50", statistics.median(lags)), ("p99", p99), ("max", lags[-1])):
        print(f"lag {name}: {lag:.2f} s ({lag - grace:.2f} s past the {grace:g} s grace)")


def grace_seconds(env: dict[str, str]) -> float:
    """The close's grace after a deadline, as the site's settings read it."""
    code = "import django; django.setup(); from django.conf import settings; "
    return float(run(env, code + "print(settings.TABULA_CLOSE_GRACE_SECONDS)"))


if __name__ == "__main__":
    main()
