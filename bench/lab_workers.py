"""`bench/lab_workers.py`: the balance lab's speed comes from Celery workers.

The same study (``--games`` games of ``--setup``, the random model, one seed) is run twice
on the lab's queue through a Redis server of the bench's own: once with one worker
process, once with two (each ``-c 1 -O fair --prefetch-multiplier 1``, as compose's
``lab-worker`` would be scaled). The time is from the study's start (the request's
service, which queues its publishing task) to its ``done`` status in the database; the
bench checks the figures really hold ``--games`` games from every chunk and that both runs
found the same figures (the chunks fix the seeds). Prints both times and the speed-up
(issue 33's target: two workers at least 1.8x faster than one).

    DATABASE_URL=postgres://... python bench/lab_workers.py [--games 100000] [--setup S]
"""

from __future__ import annotations

import argparse
import json
import os
import time

from procs import LOG, OwnRedis, kill_group, run_django, start_celery

RUN = """
import json, time
import django
django.setup()
from django.contrib.auth import get_user_model
from lab.models import BalanceStudy
from lab.services import balance_study_start
from roles.balance.study import Variant
gm, _ = get_user_model().objects.get_or_create(username="bench-lab-{tag}")
BalanceStudy.objects.filter(gm=gm).delete()
start = time.monotonic()
study = balance_study_start(gm=gm, variant=Variant({setup!r}), games={games},
                            model="random", seed=7)
while True:
    study.refresh_from_db()
    if study.status not in BalanceStudy.ACTIVE:
        break
    if time.monotonic() - start > {limit}:
        raise SystemExit("the study did not finish in time")
    time.sleep(0.05)
elapsed = time.monotonic() - start
chunks = study.parts.count()
games = sum(part["games"] for part in study.parts.values_list("aggregate", flat=True))
print(json.dumps({{"status": study.status, "seconds": elapsed, "chunks": chunks,
                  "chunks_total": study.chunks_total, "games": games,
                  "figures": study.figures["first"] if study.figures else None}}))
"""


def run(env: dict[str, str], workers: int, setup: str, games: int, limit: int) -> dict:
    procs = [
        start_celery(env, "worker", "-Q", env["TABULA_LAB_QUEUE"], "-c", "1", "-O", "fair",
                     "--prefetch-multiplier", "1", "-n", f"lab{n}@%h", "--without-gossip",
                     "--without-mingle", "--without-heartbeat", "-l", "warning", log=LOG)
        for n in range(workers)
    ]  # fmt: skip
    try:
        time.sleep(4)  # the workers connect before the study starts, in both runs alike
        code = RUN.format(tag=workers, setup=setup, games=games, limit=limit)
        return json.loads(run_django(env, code))
    finally:
        for proc in procs:
            kill_group(proc)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--setup", default="wild-west-wolf")
    parser.add_argument("--limit", type=int, default=900, help="seconds before giving up")
    args = parser.parse_args()
    redis = OwnRedis()
    redis.start()
    env = {
        **os.environ,
        "REDIS_URL": redis.url,
        "TABULA_LAB_QUEUE": "lab",
        "DJANGO_SETTINGS_MODULE": "gm.settings",
    }
    try:
        results = {n: run(env, n, args.setup, args.games, args.limit) for n in (1, 2)}
    finally:
        redis.stop()
    for n, result in results.items():
        assert result["status"] == "done", result
        assert result["chunks"] == result["chunks_total"], result
        assert result["games"] == args.games, result
        print(f"{n} worker{'s' if n > 1 else ''}: {args.games} games of {args.setup} in "
              f"{result['seconds']:.1f} s ({args.games / result['seconds']:.0f} games/s), "
              f"{result['chunks']} chunks stored")  # fmt: skip
    assert results[1]["figures"] == results[2]["figures"], "the two runs disagree"
    print(f"speed-up with two workers: {results[1]['seconds'] / results[2]['seconds']:.2f}x "
          "(target >= 1.8x); same figures in both runs")  # fmt: skip


if __name__ == "__main__":
    main()
