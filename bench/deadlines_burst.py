"""`bench/deadlines.py --burst`: votes straddling a deadline, over HTTP, checked from the
database.

Deals ``--games`` games (16 players each), logs every player in through his private link,
then sends ``--votes`` vote POSTs at instants spread over ``--before`` seconds before the
vote close and ``--after`` seconds after it, against gunicorn started exactly as the
Dockerfile's CMD runs it (production settings, PostgreSQL), with a Celery worker and beat
closing the days on a redis-server of the bench's own. Each vote has its own (player,
target) pair, so the database says which ones were stored. Prints accepted-before,
refused-after, lost (sent before the deadline, not stored: must be 0), accepted-late
(sent after it, stored: must be 0).

In production an HTTPS proxy stands in front of gunicorn and stamps each request where it
arrives (``X-Request-Start``, named by ``TABULA_REQUEST_START_HEADER``); the bench plays
that proxy: it stamps each vote with the instant it sends it. ``--no-proxy-header``
measures without it (the stamp is then the first middleware's, after gunicorn's queue).
"""

from __future__ import annotations

import http.client
import json
import multiprocessing
import random
import re
import shlex
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor

from procs import LOG, ROOT, OwnRedis, free_port, kill_group, run_django, start_celery, wait_port

PREPARE = """
import json
import multiprocessing
import django
django.setup()
from django.contrib.auth import get_user_model
from games.services.phases import current_phase, phase_commit
from games.services.game import game_create, player_link_issue
gm, _ = get_user_model().objects.get_or_create(username="bench")
out = []
for n in range({games}):
    names = [f"g{{n}}p{{i}}" for i in range(16)]
    game = game_create(gm=gm, name=f"burst {{n}}", setup_key="wild-west-wolf",
                       player_names=names, seed=n)
    phase_commit(phase=current_phase(game), user=gm)
    day = current_phase(game)
    for p in game.players.all():
        out.append([day.pk, p.name, player_link_issue(player=p), [q for q in names if q != p.name]])
print(json.dumps(out))
"""

DEADLINE = """
import datetime as dt, json
import django
django.setup()
from django.contrib.auth import get_user_model
from django.utils import timezone
from games.services.deadlines import phase_extend
from games.models import Phase
gm = get_user_model().objects.get(username="bench")
at = (timezone.now() + dt.timedelta(seconds={lead})).replace(microsecond=0)
for day in Phase.objects.filter(pk__in={days}):
    phase_extend(phase=day, closes_at=at, user=gm, reason="bench")
print(json.dumps(at.timestamp()))
"""

MEASURE = """
import json
import multiprocessing
import django
django.setup()
from games.models import Phase, Submission
days = Phase.objects.filter(pk__in={days})
subs = Submission.objects.filter(phase__in=days).select_related("player", "target")
print(json.dumps({{
    "committed": sum(d.status == "committed" for d in days),
    "counted": sum(len(d.inputs.get("votes", [])) for d in days),
    "stored": [[s.player.name, s.target.name if s.target else "", s.at.timestamp()] for s in subs],
}}))
"""


def gunicorn_command(port: int) -> list[str]:
    """The Dockerfile's CMD, bound to a local port instead of 0.0.0.0:8000."""
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")  # continued lines
    cmd = json.loads(re.search(r"^CMD\s+(\[.*\])\s*$", text, re.M).group(1))
    cmd[cmd.index("--bind") + 1] = f"127.0.0.1:{port}"
    assert cmd[0] == "gunicorn", cmd
    return [sys.executable, "-m", "gunicorn", *cmd[1:]]


class Player:
    stamp = True  # play the proxy: X-Request-Start on every request

    def __init__(self, port: int, token: str) -> None:
        self.port, self.token, self.cookies = port, token, {}

    def request(self, method: str, path: str, body: dict | None = None) -> tuple[int, str, float]:
        """(status, body, the instant the connection reached the server's queue)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        conn.connect()  # in the server's accept queue from here: the proxy's stamp
        arrived = time.time()
        headers = {"Host": "127.0.0.1", "Cookie": "; ".join(f"{k}={v}" for k, v in
                                                          self.cookies.items())}  # fmt: skip
        if self.stamp:
            headers["X-Request-Start"] = f"t={arrived:.6f}"
        data = None
        if body is not None:
            data = urllib.parse.urlencode(body)
            headers.update({"Content-Type": "application/x-www-form-urlencoded",
                            "X-CSRFToken": self.cookies.get("csrftoken", ""),
                            "HX-Request": "true"})  # fmt: skip
        try:
            conn.request(method, path, body=data, headers=headers)
            response = conn.getresponse()
            for header, value in response.getheaders():
                if header.lower() == "set-cookie":
                    name, _, rest = value.partition("=")
                    self.cookies[name] = rest.split(";", 1)[0]
            return response.status, response.read().decode("utf-8", "replace"), arrived
        finally:
            conn.close()

    def login(self) -> None:
        self.request("GET", f"/p/{self.token}/")
        status, *_ = self.request("GET", "/io/")
        if status != 200 or "csrftoken" not in self.cookies:
            raise SystemExit(f"login failed: {status}")


def burst(env: dict[str, str], args) -> None:
    redis = OwnRedis()
    redis.start()
    static = tempfile.mkdtemp(prefix="tabula-bench-static-")
    Player.stamp = not args.no_proxy_header
    header = "X-Request-Start" if Player.stamp else ""
    env = {
        **env,
        "REDIS_URL": redis.url,
        "DEBUG": "false",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECRET_KEY": "bench-only-" + "x" * 50,
        "SECURE_SSL_REDIRECT": "false",
        "SESSION_COOKIE_SECURE": "false",
        "CSRF_COOKIE_SECURE": "false",
        "DJANGO_READ_DOT_ENV_FILE": "false",
        "LOG_LEVEL": "WARNING",
        "STATIC_ROOT": static,
        "TABULA_REQUEST_START_HEADER": header,
    }
    print(f"preparing {args.games} games ...", flush=True)
    seats = json.loads(run_django(env, PREPARE.format(games=args.games)))
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
                   cwd=ROOT, env=env, check=True)  # fmt: skip
    port = free_port()
    command = gunicorn_command(port)
    print("server:", shlex.join(command[2:]), "| request stamp:",
          "the proxy's X-Request-Start (played by the bench)" if header
          else "the first middleware (no proxy)", flush=True)  # fmt: skip
    server = subprocess.Popen(command, cwd=ROOT, env=env)
    worker = start_celery(env, "worker", "--loglevel", "warning", "--concurrency", "2", log=LOG)
    beat = start_celery(env, "beat", "--loglevel", "error", "-s", f"{redis.dir}/beat", log=LOG)
    try:
        wait_port(port)
        players = [Player(port, token) for _, _, token, _ in seats]
        with ThreadPoolExecutor(16) as pool:
            list(pool.map(Player.login, players))
        days = sorted({day for day, *_ in seats})
        deadline = json.loads(run_django(env, DEADLINE.format(lead=args.lead, days=days)))
        plan = vote_plan(seats, players, deadline, args)
        outcomes = send(plan)
        limit = time.time() + 90
        while time.time() < limit:
            measured = json.loads(run_django(env, MEASURE.format(days=days)))
            if measured["committed"] == len(days):
                break
            time.sleep(2)
    finally:
        for proc in (beat, worker):
            kill_group(proc, 15)
        server.terminate()
        server.wait(timeout=30)
        redis.stop()
    report(outcomes, measured, deadline, len(days))


def vote_plan(seats, players, deadline: float, args) -> list[tuple]:
    """(send time, player, day, target): each player's targets all different."""
    rng = random.Random(1)
    left = {i: rng.sample(others, len(others)) for i, (_, _, _, others) in enumerate(seats)}
    plan = []
    for _ in range(args.votes):
        i = rng.choice([k for k, v in left.items() if v])
        at = deadline + rng.uniform(-args.before, args.after)
        plan.append((at, players[i], seats[i][0], seats[i][1], left[i].pop()))
    return sorted(plan, key=lambda v: v[0])


def send_share(plan: list[tuple]) -> list[tuple]:
    """One client process: a thread per vote, each waiting for its instant."""
    outcomes: list[tuple] = []
    lock = threading.Lock()

    def one(vote: tuple) -> None:
        at, player, day, name, target = vote
        time.sleep(max(0.0, at - time.time()))
        sent = time.time()
        try:
            status, body, sent = player.request(
                "POST", "/io/voto/", {"phase": day, "target": target}
            )
        except OSError as exc:
            status, body = 0, repr(exc)
        acked = status == 200 and "Voto registrato" in body
        said = re.search(r'role="alert">([^<]{0,160})', body)
        with lock:
            outcomes.append((sent, name, target, acked, status, said.group(1).strip() if said
                             else ""))  # fmt: skip

    threads = [threading.Thread(target=one, args=(vote,)) for vote in plan]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def send(plan: list[tuple], processes: int = 4) -> list[tuple]:
    """Several client processes, so the client's own GIL does not reorder the votes."""
    with multiprocessing.get_context("fork").Pool(processes) as pool:
        shares = pool.map(send_share, [plan[i::processes] for i in range(processes)])
    return [outcome for share in shares for outcome in share]


def report(outcomes: list[tuple], measured: dict, deadline: float, days: int) -> None:
    stored = {(name, target): at for name, target, at in measured["stored"]}
    before = [o for o in outcomes if o[0] < deadline]
    after = [o for o in outcomes if o[0] >= deadline]
    accepted_before = [o for o in before if (o[1], o[2]) in stored]
    lost = [o for o in before if (o[1], o[2]) not in stored]
    accepted_late = [o for o in after if (o[1], o[2]) in stored]
    acked_not_stored = [o for o in outcomes if o[3] and (o[1], o[2]) not in stored]
    stamped_late = [at for at in stored.values() if at >= deadline]
    errors = sorted({o[4] for o in outcomes if o[4] not in (200,)})
    refusals = sorted({o[5] for o in lost if o[5]})
    print(f"votes sent: {len(outcomes)} ({len(before)} before the deadline, {len(after)} after)")
    print(f"accepted-before: {len(accepted_before)}")
    print(f"refused-after: {len(after) - len(accepted_late)}")
    print(
        f"lost (sent before, not stored): {len(lost)}"
        + (
            f" (sent up to {deadline - min(o[0] for o in lost):.2f} s early; {refusals[:3]})"
            if lost
            else ""
        )
    )
    print(f"accepted-late (sent after, stored): {len(accepted_late)}")
    print(
        f"database: stored {len(stored)}, stored with a time after the deadline "
        f"{len(stamped_late)}, acknowledged but not stored {len(acked_not_stored)}, "
        f"days committed {measured['committed']}/{days}, votes counted by the "
        f"resolution {measured['counted']}" + (f"; HTTP errors {errors}" if errors else "")
    )
