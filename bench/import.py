"""Thread import benchmark (issue 12): parse and preview a 40-page phpBB thread (2,000
posts copied as text) for a 16-player day, on one core.

    python bench/import.py [--pages 40] [--per-page 50] [--runs 5]

Creates a scratch PostgreSQL database (BENCH_DATABASE_URL, default the local server's
`tabula_bench_import`), deals a game and opens Day 1, writes the thread with planted
votes, changes, withdrawals, quotes of earlier votes and chatter, then times
``topic_import_preview`` (parsing, name matching, the engine's legality check and the
classification against the database) and checks it found exactly the planted votes.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from scratch import fresh_database  # noqa: E402

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/tabula_bench_import"
DAYS = ["lun", "mar", "mer", "gio", "ven", "sab", "dom"]
MONTHS = ["gen", "feb", "mar", "apr", "mag", "giu", "lug", "ago", "set", "ott", "nov", "dic"]
CHATTER = ["Non mi convince per niente.", "Ieri sera parlava troppo.", "Secondo me è lupo.",
           "Aspettiamo lo sceriffo.", "Ok, ci penso.", "Chi non parla?"]  # fmt: skip


def stamp(moment) -> str:
    return (f"{DAYS[moment.weekday()]} {moment.day:02d} {MONTHS[moment.month - 1]} "
            f"{moment.year}, {moment:%H:%M}")  # fmt: skip


def thread(names, start, posts, per_page, rng):
    """The pages as the browser copies them, and the votes planted (voter, target|None)."""
    import datetime as dt

    lines, planted, bodies = [], [], []
    step = dt.timedelta(hours=9) / posts
    for n in range(posts):
        if n % per_page == 0:
            page = n // per_page + 1
            lines += ["Lupus in Tabula", "Giorno 1 — si vota", "Rispondi",
                      f"{posts} messaggi • Pagina {page} di {posts // per_page}"]  # fmt: skip
        author = rng.choice(names)
        at = start + step * n
        body = [rng.choice(CHATTER)]
        roll = rng.random()
        if roll < 0.25 and bodies:  # a quote of an earlier post, vote and all
            quoted_author, quoted = rng.choice(bodies)
            body = [f"{quoted_author} ha scritto: ↑{stamp(at)}", *quoted, "", *body]
        if roll < 0.5:
            target = rng.choice([x for x in names if x != author])
            body.append(rng.choice(["[b]Voto: {}[/b]", "#voto {}", "Voto {}"]).format(target))
            planted.append((author, target))
        elif roll < 0.55:
            body.append("Tolgo il voto")
            planted.append((author, None))
        bodies.append((author, body))
        lines += [author, "Messaggi: 120", "Iscritto il: ven 03 gen 2020, 10:12",
                  "Re: Giorno 1 — si vota", f"Messaggio da {author} » {stamp(at)}",
                  *body, "Top"]  # fmt: skip
    return "\n".join(lines), planted


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pages", type=int, default=40)
    parser.add_argument("--per-page", type=int, default=50)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB)
    fresh_database(url)
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gm.settings")
    import datetime as dt

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from games.services.game import game_create
    from games.services.phases import current_phase, phase_commit
    from games.services.topic_preview import topic_import_preview

    gm, _ = get_user_model().objects.get_or_create(username="bench")
    names = [f"Giocatore{i:02d}" for i in range(16)]
    game = game_create(gm=gm, name="bench", setup_key="wild-west-wolf", player_names=names,
                       seed=1)  # fmt: skip
    phase_commit(phase=current_phase(game), user=gm)
    day = current_phase(game)
    start = day.opened_at - dt.timedelta(hours=10)
    day.opened_at = start
    day.save(update_fields=["opened_at"])
    posts = args.pages * args.per_page
    text, planted = thread(names, start.astimezone(dt.UTC).astimezone(
        __import__("zoneinfo").ZoneInfo(game.time_zone)) + dt.timedelta(minutes=5),
        posts, args.per_page, random.Random(7))  # fmt: skip
    timings = []
    if os.environ.get("BENCH_PROFILE"):
        import cProfile

        cProfile.runctx("topic_import_preview(phase=day, text=text)", globals(), locals(),
                        sort="cumtime")  # fmt: skip
    for _ in range(args.runs):
        began = time.perf_counter()
        preview = topic_import_preview(phase=day, text=text)
        timings.append(time.perf_counter() - began)
    found = [(r.post.author, r.target.name if r.target else None) for r in preview.rows]
    assert preview.posts == posts, (preview.posts, posts)
    if found != planted:
        diff = next(i for i, (a, b) in enumerate(zip(found, planted, strict=False)) if a != b)
        print(len(found), len(planted), found[diff - 2 : diff + 3], planted[diff - 2 : diff + 3])
    assert found == planted, "the preview did not find exactly the planted votes"
    assert all(r.voter is not None for r in preview.rows)
    size = len(text.encode()) / 1e6
    print(f"{args.pages} pages, {posts} posts ({size:.1f} MB), {len(planted)} planted votes "
          f"found, {preview.count('new', 'changed', 'withdrawn')} to store")  # fmt: skip
    print(f"parse + preview: best {min(timings):.3f} s, median "
          f"{sorted(timings)[len(timings) // 2]:.3f} s over {args.runs} runs")  # fmt: skip


if __name__ == "__main__":
    main()
