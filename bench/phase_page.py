"""GM phase-page benchmark: a day with 2,000 submissions.

    python bench/phase_page.py [--submissions 2000] [--loads 30]

Creates a scratch PostgreSQL database (BENCH_DATABASE_URL, default the local server's
`tabula_bench_phase`), deals a Wild West Wolf game, opens Day 1 and stores 2,000 vote
events of its 16 players: about 125 a player, four times what the cap on vote changes
lets them send (games/services/vote_cap.py: 30 changes a player a phase; lifted here so the
benchmark can store them and keep voting). Then, in one Django process with production
settings (DEBUG off), it loads the GM's phase page --loads times and prints the median,
p99 and max; the same for the 20-second htmx refresh of the board when nothing changed
and when a vote came in, and the whole page right after each new vote (the vote stored
first, not timed). Nothing is kept between requests: each page works the board and the
preview out from every row.

It checks that it measured the real page: the submission count the page shows equals the
database's, and walking every page of the submission list finds each stored submission
exactly once.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import os
import random
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT))
from scratch import fresh_database  # noqa: E402

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/tabula_bench_phase"
ROW = re.compile(r'<tr id="submission-(\d+)"')
TOTAL = re.compile(r'data-submissions="(\d+)"')


def timed(call, loads: int) -> tuple[tuple[list[float], list[float]], object]:
    """Wall-clock and CPU seconds (this process: Django, not PostgreSQL) of each call."""
    times, cpu, response = [], [], None
    for _ in range(loads):
        began, began_cpu = time.perf_counter(), time.process_time()
        response = call()
        times.append(time.perf_counter() - began)
        cpu.append(time.process_time() - began_cpu)
    return (times, cpu), response


def timed_after(prepare, call, loads: int) -> tuple[list[float], list[float]]:
    """``timed`` of ``call``, each time right after ``prepare`` (not timed)."""
    times, cpu = [], []
    for _ in range(loads):
        prepare()
        began, began_cpu = time.perf_counter(), time.process_time()
        call()
        times.append(time.perf_counter() - began)
        cpu.append(time.process_time() - began_cpu)
    return times, cpu


def figures(measured: tuple[list[float], list[float]]) -> str:
    times, cpu = measured
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (f"median {statistics.median(ordered) * 1000:7.1f} ms, p99 {p99 * 1000:7.1f} ms, "
            f"max {ordered[-1] * 1000:7.1f} ms; CPU median {statistics.median(cpu) * 1000:6.1f} ms"
            f", load {os.getloadavg()[0]:.1f}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--submissions", type=int, default=2000)
    parser.add_argument("--loads", type=int, default=30)
    args = parser.parse_args()
    database = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB)
    fresh_database(database)
    os.environ.update({
        "DATABASE_URL": database, "DEBUG": "false", "ALLOWED_HOSTS": "testserver",
        "SECRET_KEY": "bench-only-" + "x" * 50, "SECURE_SSL_REDIRECT": "false",
        "SESSION_COOKIE_SECURE": "false", "CSRF_COOKIE_SECURE": "false",
        "DJANGO_READ_DOT_ENV_FILE": "false", "LOG_LEVEL": "WARNING",
        "DJANGO_SETTINGS_MODULE": "gm.settings",
        "TABULA_VOTE_CHANGES_MAX": "1000000",
    })  # fmt: skip
    os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/14")
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client
    from django.urls import reverse
    from django.utils import timezone

    import gm.wsgi
    from games.models import Submission
    from games.services.game import game_create
    from games.services.phases import current_phase, phase_commit
    from games.services.submissions import vote_cast

    call_command("migrate", verbosity=0)
    call_command("collectstatic", "--noinput", verbosity=0)  # DEBUG off: the manifest
    gm = get_user_model().objects.create_user("bench-gm", password="x")
    names = [f"p{i}" for i in range(16)]
    game = game_create(gm=gm, name="bench", setup_key="wild-west-wolf", player_names=names,
                       seed=1)  # fmt: skip
    phase_commit(phase=current_phase(game), user=gm)
    day = current_phase(game)
    players = list(game.players.all())
    rng = random.Random(1)
    start = timezone.now() - dt.timedelta(hours=6)
    Submission.objects.bulk_create(
        Submission(phase=day, player=voter, kind=Submission.Kind.VOTE,
                   target=rng.choice([p for p in players if p != voter] + [None]),
                   at=start + dt.timedelta(seconds=4 * i))
        for i, voter in enumerate(rng.choice(players) for _ in range(args.submissions))
    )  # fmt: skip
    stored = Submission.objects.filter(phase=day).count()
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; "
          f"day D1 with {stored} submissions")  # fmt: skip

    # The bench's own setup (migrations, the static manifest, the rows above) is no part of
    # a gunicorn worker: frozen as gm/wsgi.py freezes the worker's start.
    gc.collect()
    gc.freeze()
    client = Client()
    client.force_login(gm)
    url = reverse("games:phase", args=[game.pk])
    first = client.get(url)
    assert first.status_code == 200, first.status_code
    html = first.content.decode()
    shown = TOTAL.search(html)
    if shown is None:  # the page before issue 9: one unpaginated table
        table = html.split("<h2>Invii</h2>", 1)[1].split("</table>", 1)[0]
        rows = table.count("<tr><td>")
        if rows != stored:
            sys.exit(f"the page lists {rows} submissions, the database has {stored}")
        print(f"verified (old page): its table lists all {stored} submissions")
        times, _ = timed(lambda: client.get(url), args.loads)
        print(f"phase page ({args.loads} loads):           {figures(times)}")
        return
    if int(shown.group(1)) != stored:
        sys.exit(f"the page shows {shown.group(1)} submissions, the database has {stored}")
    listed, page = set(), html
    while True:  # every page of the list, each submission once
        rows = [int(pk) for pk in ROW.findall(page)]
        if not rows or listed & set(rows):
            break
        listed.update(rows)
        more = re.search(r'href="\?page=(\d+)#submissions" rel="next"', page)
        if more is None:
            break
        page = client.get(f"{url}?page={more.group(1)}").content.decode()
    ids = set(Submission.objects.filter(phase=day).values_list("pk", flat=True))
    if listed != ids:
        sys.exit(f"the list shows {len(listed)} submissions, the database has {len(ids)}")
    print(f"verified: the page shows {stored} submissions and its pages list each once")

    times, _ = timed(lambda: client.get(url), args.loads)
    print(f"phase page ({args.loads} loads):           {figures(times)}")
    version = re.search(r'hx-get="[^"]*part=board&amp;v=([^"&]+)"', html)
    if version is None:
        sys.exit("the board's refresh carries no version")
    refresh = f"{url}?part=board&v={version.group(1)}"
    times, response = timed(lambda: client.get(refresh, headers={"HX-Request": "true"}),
                            args.loads)  # fmt: skip
    assert response.status_code == 204, response.status_code
    print(f"board refresh, nothing new (204):   {figures(times)}")

    def changed():
        vote_cast(phase=day, player=players[0], target=rng.choice(players[1:]))
        response = client.get(refresh, headers={"HX-Request": "true"})
        assert response.status_code == 200
        assert 'id="board"' in response.content.decode()
        return response

    times, _ = timed(changed, args.loads)
    print(f"board refresh after a vote (200):   {figures(times)} (the vote included)")

    def vote():
        vote_cast(phase=day, player=players[0], target=rng.choice(players[1:]))

    def load():
        response = client.get(url)
        assert response.status_code == 200
        return response

    times = timed_after(vote, load, args.loads)
    print(f"phase page after a vote:            {figures(times)} (the vote not included)")
    stored = Submission.objects.filter(phase=day).count()
    if f'data-submissions="{stored}"' not in load().content.decode():
        sys.exit(f"the page after the votes does not show the {stored} submissions stored")
    print(f"verified: after {stored - int(shown.group(1))} votes the page shows {stored} "
          "submissions")  # fmt: skip


if __name__ == "__main__":
    main()
