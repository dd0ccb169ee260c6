"""Il Ribelle! referee benchmark: random legal BANG! logs on one core.

    python bench/ribelle.py [--seconds 5]

Each game is dealt (4, 6, 8, 9 or 10 players) and played to its end by
roles/ribelle/simulate.py, every event checked by the referee; then the recorded logs are
replayed through the file format (what `manage.py replay` and the site's desk do on every
page: the whole log rebuilt). Prints `ribelle games/s: N` and `ribelle replayed events/s: N`.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from roles.ribelle.replay import run_ribelle
from roles.ribelle.simulate import random_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    games = events = ended = 0
    logs = []
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < args.seconds:
        roles, log, state = random_game(games)
        games, events, ended = games + 1, events + len(log), ended + state.over
        if len(logs) < 500:
            logs.append((roles, log, state.winners))
    assert ended == games, "every random game must reach an end"
    start = time.perf_counter()
    replayed = 0
    for roles, log, winners in logs:
        report = run_ribelle({"setup": "ribelle", "players": roles, "events": log})
        assert report["winners"] == winners  # the replay is the same game
        replayed += len(report["events"])
    replay_elapsed = time.perf_counter() - start
    print(f"ribelle games: {games}, events: {events} ({events / games:.1f} per game)")
    print(f"ribelle games/s: {games / elapsed:.0f}")
    print(f"ribelle replayed events/s: {replayed / replay_elapsed:.0f}")


if __name__ == "__main__":
    main()
