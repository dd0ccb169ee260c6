"""`bench/deadlines.py --chaos`: deadlines under faults, checked from the database.

Deals ``--games`` games whose nights resolve by themselves, then plays ``--rounds``
rounds: in each, every game's open day is due at a random instant of a ``--spread``-second
window and its night one second later. Two workers (``-c 2``) and the beat (one, as
compose runs it) run on a redis-server of the bench's own (spare port, append-only file
as in compose). Every 10 s a worker is killed by PID (SIGKILL, its pool with it) and a
new one started; in the middle of the second round the Redis server is killed and
restarted. From the database: every phase closed once, none missed, none doubled, each
game's phases in deadline order; the lag from deadline to resolution (the time of the
commit's audit event, the close transaction's last write), p50/p99/max, and the same
past the close's grace.
"""

from __future__ import annotations

import json
import statistics
import threading
import time
from itertools import count, pairwise

from procs import LOG, OwnRedis, kill_group, percentile, run_django, start_celery

GRACE = """
import django
django.setup()
from django.conf import settings
print(settings.TABULA_CLOSE_GRACE_SECONDS)
"""

PREPARE = """
import random
import django
django.setup()
from django.contrib.auth import get_user_model
from games.models import Game
from games.services.phases import current_phase, phase_commit
from games.services.submissions import vote_cast
from games.services.game import game_create
gm, _ = get_user_model().objects.get_or_create(username="bench")
for n in range({games}):
    names = [f"g{{n}}p{{i}}" for i in range(16)]
    game = game_create(gm=gm, name=f"chaos {{n}}", setup_key="wild-west-wolf",
                       player_names=names, seed=n)
    Game.objects.filter(pk=game.pk).update(auto_commit_nights=True)
    phase_commit(phase=current_phase(game), user=gm)
    day = current_phase(game)
    players = list(game.players.all())
    rng = random.Random(n)
    for voter in players[:6]:
        vote_cast(phase=day, player=voter, target=rng.choice([p for p in players if p != voter]))
print("ok")
"""

ROUND = """
import datetime as dt, json, random
import django
django.setup()
from django.contrib.auth import get_user_model
from django.utils import timezone
from games.services.deadlines import phase_extend
from games.models import Game, Phase
gm = get_user_model().objects.get(username="bench")
rng = random.Random({seed})
start = timezone.now() + dt.timedelta(seconds={lead})
out = []
for game in Game.objects.filter(status="running").order_by("pk"):
    open_ = {{p.label[0]: p for p in game.phases.filter(status="open")}}
    if set(open_) != {{"D", "N"}}:
        continue
    day_at = start + dt.timedelta(seconds=rng.uniform(0, {spread}))
    for phase, at in ((open_["D"], day_at), (open_["N"], day_at + dt.timedelta(seconds=1))):
        phase_extend(phase=phase, closes_at=at, user=gm, reason="bench")
        out.append([phase.pk, game.pk, phase.label, at.timestamp()])
if timezone.now() > start:
    raise SystemExit("setting the deadlines took longer than the lead: raise --lead")
print(json.dumps(out))
"""

MEASURE = """
import json
import django
django.setup()
from django.db.models import Count, Max
from games.models import AuditEvent, Phase
ids = json.loads('{ids}')
rows, by_key = {{}}, {{}}
for p in Phase.objects.filter(pk__in=ids):
    rows[p.pk] = by_key[p.game_id, p.label] = [
        p.status, p.closed_at and p.closed_at.timestamp(),
        p.committed_at and p.committed_at.timestamp(), p.game_id, p.label, 0, 0, None]
games = {{row[3] for row in rows.values()}}
for kind, slot in (("deadline", 5), ("commit", 6)):
    for e in (AuditEvent.objects.filter(kind=kind, game__in=games)
              .values("game_id", "detail__phase").annotate(n=Count("pk"), last=Max("at"))):
        row = by_key.get((e["game_id"], e["detail__phase"]))
        if row is not None:
            row[slot] = e["n"]
            if kind == "commit":  # written last in the close's transaction: its commit time
                row[7] = e["last"].timestamp()
print(json.dumps(rows))
"""


class Chaos:
    """Two workers, one killed by PID every ``every`` seconds and replaced at once."""

    def __init__(self, env: dict[str, str], every: float) -> None:
        self.env, self.every = env, every
        self.names = count()
        self.workers = [self._worker(), self._worker()]
        self.kills = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _worker(self):
        return start_celery(self.env, "worker", "--loglevel", "error", "--concurrency", "2",
                            "-n", f"chaos{next(self.names)}@%h", log=LOG)  # fmt: skip

    def _run(self) -> None:
        victim = 0
        while not self.stop.wait(self.every):
            kill_group(self.workers[victim])
            self.kills += 1
            self.workers[victim] = self._worker()
            victim = 1 - victim

    def close(self) -> None:
        self.stop.set()
        if self.thread.is_alive():
            self.thread.join()
        for worker in self.workers:
            kill_group(worker)


def chaos(env: dict[str, str], args) -> None:
    redis = OwnRedis()
    redis.start()
    env = {**env, "REDIS_URL": redis.url}
    print(f"preparing {args.games} games (own Redis on port {redis.port}) ...", flush=True)
    run_django(env, PREPARE.format(games=args.games))
    grace = float(run_django(env, GRACE))
    beat = start_celery(env, "beat", "--loglevel", "error", "-s", f"{redis.dir}/beat", log=LOG)
    crew = Chaos(env, args.kill_every)
    time.sleep(8)  # the workers start
    if not args.no_faults:
        crew.thread.start()
    phases: dict[int, tuple[int, str, float]] = {}
    rows: dict = {}
    try:
        for round_no in range(args.rounds):
            batch = json.loads(run_django(env, ROUND.format(seed=round_no, lead=args.lead,
                                                            spread=args.spread)))  # fmt: skip
            for pk, game, label, at in batch:
                phases[pk] = (game, label, at)
            first = min(at for *_, at in batch)
            print(f"round {round_no + 1}: {len(batch)} phases due from "
                  f"{first - time.time():.1f} s ahead", flush=True)  # fmt: skip
            if round_no == min(1, args.rounds - 1) and not args.no_faults:
                time.sleep(max(0.0, first + args.spread / 2 - time.time()))
                redis.kill()
                time.sleep(1)
                redis.start()
                print("redis-server killed and restarted", flush=True)
            limit = max(at for *_, at in batch) + args.patience
            ids = [pk for pk, *_ in batch]
            while time.time() < limit:
                time.sleep(2)
                rows.update({int(k): v for k, v in json.loads(
                    run_django(env, MEASURE.format(ids=json.dumps(ids)))).items()})  # fmt: skip
                if all(rows[pk][0] == "committed" for pk in ids):
                    break
    finally:
        crew.close()
        kill_group(beat)
        redis.stop()
    report(phases, rows, crew.kills, 0 if args.no_faults else 1, grace)


def report(phases: dict, rows: dict, kills: int, restarts: int, grace: float) -> None:
    lags, missed, doubled = [], [], []
    for pk, (_game, label, at) in phases.items():
        status, _closed, committed, _, _, closes, commits, commit_event = rows[pk]
        if status != "committed":
            missed.append(f"{label}#{pk} {status}")
            continue
        lags.append((commit_event or committed) - at)
        if closes != 1 or commits != 1:
            doubled.append(f"{label}#{pk} closed {closes}x, committed {commits}x")
    by_game: dict[int, list] = {}
    for pk, (game, _label, at) in phases.items():
        if rows[pk][1] is not None:
            by_game.setdefault(game, []).append((at, rows[pk][1]))
    out_of_order = 0
    for closes in by_game.values():
        closes.sort()
        pairs = pairwise(closes)
        out_of_order += sum(1 for (a_at, a_closed), (b_at, b_closed) in pairs
                            if b_closed < a_closed and b_at > a_at)  # fmt: skip
    print(f"worker kills: {kills}, Redis restarts: {restarts}")
    print(f"phases: {len(phases)}, resolved: {len(lags)}, missed: {len(missed)}, "
          f"closed or committed more than once: {len(doubled)}, "
          f"closed out of deadline order (same game): {out_of_order}")  # fmt: skip
    for line in (missed + doubled)[:10]:
        print("  ", line)
    if lags:
        lags.sort()
        for name, lag in (("p50", statistics.median(lags)), ("p99", percentile(lags, 0.99)),
                          ("max", lags[-1])):  # fmt: skip
            print(f"lag {name}: {lag:.2f} s ({lag - grace:.2f} s past the {grace:g} s grace)")
