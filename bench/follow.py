"""The 22:00 rush of followed threads (issue 32): 50 games whose votes are given in the
forum thread, each thread followed by the site, one shared deadline.

    python bench/follow.py [--games 50] [--seconds 120]

A local test forum (a threaded HTTP server in this process, on loopback: the one address
TABULA_FOLLOW_ALLOW_PRIVATE lets through) serves each game's thread in one of the four
engines' markup (tests/games/forum_server.py), 16 players posting votes and chatter that
appear over time up to and past the deadline, 20 posts a page. The site runs as
production runs it: one Celery worker and Celery beat (the one clock) on a Redis server of
the bench's own; every game follows its thread and resolves its day by itself when
nothing needs settling. The deadline falls on a whole minute (a forum that shows minutes
writes a post in the deadline's minute as late), ``--seconds`` or a little more after the
start.

Printed: the requests the forum served (all, and per thread per minute before the
deadline); per thread, how long after the deadline the result was ready (the final read
stored and the day committed: p50, p99, max) and the requests in the 60 s after the
deadline beyond the final read; the days whose count differs from the votes planted
before the deadline, and those not ready. Targets: every result ready within 60 s of the
deadline, at most one request per thread in those 60 s beyond the final read, 0 wrong.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT))
from procs import OwnRedis, free_port, kill_group, percentile, start_celery  # noqa: E402
from scratch import fresh_database  # noqa: E402
from site_tools import django_script, site_env  # noqa: E402

from tests.games.forum_server import ENGINES, Post, Thread  # noqa: E402

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/tabula_follow_bench"
PLAYERS = 16

PREPARE = """
import django, json, datetime as dt
django.setup()
from django.contrib.auth import get_user_model
from games.models import Phase
from games.services.follow import follow_start
from games.services.game import game_create
from games.services.phases import current_phase, phase_commit
from games.services.topic_settings import topic_settings_update
gm, _ = get_user_model().objects.get_or_create(username="narratore")
deadline = dt.datetime.fromtimestamp({deadline}, dt.UTC)
out = []
for n in range({games}):
    names = [f"g{{n}}p{{i}}" for i in range({players})]
    game = game_create(gm=gm, name=f"follow {{n}}", setup_key="wild-west-wolf",
                       player_names=names, seed=n)
    phase_commit(phase=current_phase(game), user=gm)
    day = current_phase(game)
    day.opened_at = deadline - dt.timedelta(hours=3)
    day.closes_at = deadline
    day.save(update_fields=["opened_at", "closes_at"])
    topic_settings_update(game=game, user=gm, votes_from_topic=True,
                          vote_lines=["Voto Nome"], withdraw_lines=["#ritiro"], aliases="",
                          gm_names=["Narratore"])
    follow_start(game=game, user=gm, url="http://127.0.0.1:{port}/t/" + str(n),
                 auto_commit=True)
    out.append(game.pk)
print(json.dumps(out))
"""

CHECK = """
import django, json
django.setup()
from games.models import FollowedThread, Phase, Submission, ThreadRead
result = {{}}
for thread in FollowedThread.objects.select_related("game"):
    n = int(thread.url.rsplit("/", 1)[1])
    day = Phase.objects.get(game=thread.game, label="D1")
    final = ThreadRead.objects.filter(thread=thread, final=True).order_by("at").first()
    votes = {{}}
    for sub in Submission.objects.filter(phase=day, kind="vote").order_by("at", "pk"):
        votes[sub.player.name] = sub.target.name if sub.target else None
    result[n] = {{"status": day.status,
                 "committed": day.committed_at.timestamp() if day.committed_at else None,
                 "final": final.at.timestamp() if final else None,
                 "note": final.note if final else "",
                 "votes": {{k: v for k, v in votes.items() if v}}}}
print(json.dumps(result))
"""


class Forum:
    """The test forum: each game's thread, its posts appearing at their time; every
    request logged (thread, monotonic time)."""

    def __init__(self, games: int, deadline: float, start: float, rng: random.Random) -> None:
        self.threads: dict[int, Thread] = {}
        self.planted: dict[int, dict[str, str]] = {}
        self.log: list[tuple[int, float]] = []
        self.lock = threading.Lock()
        for n in range(games):
            thread = Thread(list(ENGINES)[n % len(ENGINES)], per_page=20)
            names = [f"g{n}p{i}" for i in range(PLAYERS)]
            moments = sorted(rng.uniform(start - 600, deadline + 40) for _ in range(45))
            standing = {}
            for at in moments:
                author = rng.choice(names)
                if rng.random() < 0.6:
                    target = rng.choice([name for name in names if name != author])
                    lines = [f"Voto {target}", "perché sì"]
                    if at < deadline:  # in time (the deadline is on a whole minute)
                        standing[author] = target
                else:
                    lines = ["ciao a tutti", "sospetto di qualcuno"]
                moment = dt.datetime.fromtimestamp(at, dt.UTC)
                thread.posts.append(Post(author, moment, lines, pid=1000 * n + len(thread.posts)))
            self.threads[n], self.planted[n] = thread, standing

    def page(self, n: int, number: int) -> str:
        """The thread as it is now: only the posts already written."""
        full = self.threads[n]
        now = dt.datetime.now(dt.UTC)
        visible = Thread(full.engine, full.per_page, [p for p in full.posts if p.at <= now])
        return visible.page(min(number, visible.pages()), f"/t/{n}")

    def serve(self, port: int) -> ThreadingHTTPServer:
        forum = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                parts = urlsplit(self.path)
                if parts.path == "/robots.txt":
                    body, status = b"User-agent: *\nAllow: /\n", 200
                elif parts.path.startswith("/t/"):
                    n = int(parts.path.rsplit("/", 1)[1])
                    number = int(parse_qs(parts.query).get("page", ["1"])[0])
                    with forum.lock:
                        forum.log.append((n, time.time()))
                    body, status = forum.page(n, number).encode(), 200
                else:
                    body, status = b"", 404
                self.send_response(status)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                return

        server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        return server


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--seed", type=int, default=22)
    args = parser.parse_args()
    database = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB)
    fresh_database(database)
    redis = OwnRedis()
    redis.start()
    port = free_port()
    env = {**site_env(database), "REDIS_URL": redis.url,
           "TABULA_FOLLOW_ALLOW_PRIVATE": f"127.0.0.1:{port}"}  # fmt: skip
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    start = time.time()
    deadline = (int(start + args.seconds) // 60 + 1) * 60.0  # on a whole minute
    forum = Forum(args.games, deadline, start, random.Random(args.seed))
    server = forum.serve(port)
    django_script(env, PREPARE.format(games=args.games, players=PLAYERS, deadline=deadline,
                                      port=port))  # fmt: skip
    worker = start_celery(env, "worker", "--concurrency", "4", "--without-mingle",
                          "--without-gossip", "--loglevel", "warning")  # fmt: skip
    (ROOT / "var").mkdir(exist_ok=True)  # the beat's schedule file (a fresh checkout has none)
    beat = start_celery(env, "beat", "--loglevel", "warning",
                        "--schedule", str(ROOT / "var" / "follow-beat-schedule"))  # fmt: skip
    try:
        print(f"{args.games} followed threads, deadline in {deadline - time.time():.0f} s")
        time.sleep(max(0.0, deadline + 75 - time.time()))
        check = {int(k): v for k, v in json.loads(django_script(env, CHECK.format())).items()}
    finally:
        kill_group(beat)
        kill_group(worker)
        server.shutdown()
        redis.stop()
    report(args, forum, check, deadline, start)


def report(args: argparse.Namespace, forum: Forum, check: dict, deadline: float,
           start: float) -> None:  # fmt: skip
    before = [t for n, t in forum.log if t < deadline]
    minutes = max(1e-9, (deadline - start) / 60)
    print(f"requests served: {len(forum.log)}; before the deadline "
          f"{len(before) / args.games / minutes:.2f} per thread per minute")  # fmt: skip
    ready, extra, wrong, missing = [], [], [], []
    for n in range(args.games):
        row = check.get(n)
        if row is None or row["final"] is None or row["status"] != "committed":
            missing.append(n)
            continue
        ready.append(max(row["final"], row["committed"]) - deadline)
        window = [t for m, t in forum.log if m == n and deadline < t <= deadline + 60]
        extra.append(max(0, len(window) - 1))  # beyond the final read
        if row["votes"] != forum.planted[n]:
            wrong.append(n)
    ready.sort()
    if ready:
        print(f"result ready after the deadline, s: p50 {percentile(ready, 0.5):.1f}, "
              f"p99 {percentile(ready, 0.99):.1f}, max {ready[-1]:.1f} "
              f"({sum(r <= 60 for r in ready)} of {args.games} within 60 s)")  # fmt: skip
        print(f"requests per thread in the 60 s after the deadline beyond the final read: "
              f"max {max(extra)}, total {sum(extra)}")  # fmt: skip
    print(f"days not ready: {len(missing)} {missing[:10]}; counts differing from the votes "
          f"planted: {len(wrong)} {wrong[:10]}")  # fmt: skip


if __name__ == "__main__":
    main()
