"""Balance study benchmark: games/s per core and in total, end to end (the games, their
counting and the figures with their intervals), for both shipped setups and both player
models, on every core (`--jobs`, default: all of them).

    python bench/simulate.py [--games 100000] [--jobs J] [--setup S]… [--model M]…

Each study goes through the same code as `manage.py simulate` (roles/simulate_cli.py);
the benchmark fails unless the figures count exactly the games asked for (the aggregated
count, and the factions' wins and the game lengths adding up to it). The last lines are
`<setup> <model>: N games/s total, M games/s per core, C games per CPU-second` (on a
shared machine the wall clock counts the other work too; the CPU time counts only ours).
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from roles.balance.parallel import run_parallel
from roles.balance.study import Study, Variant
from roles.balance.study_report import summary

SETUPS = ("wild-west-wolf", "inquisizione")
MODELS = ("random", "informed")


def cpu_seconds() -> float:
    """CPU time of this process and of its reaped children (the pool's workers)."""
    own, children = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def measure(setup: str, model: str, games: int, jobs: int) -> tuple[float, float]:
    """One study, timed end to end; returns games/s in total (wall clock) and games per
    CPU-second (what one core does when it is not shared with other work)."""
    cpu = cpu_seconds()
    start = time.perf_counter()
    aggregate = run_parallel(Study(Variant(setup), games, model, seed=1), jobs)
    figures = summary(aggregate, setup)
    elapsed = time.perf_counter() - start
    cpu = cpu_seconds() - cpu
    lengths = sum(figures["length"]["days"].values())
    if not aggregate.games == figures["games"] == lengths == games:
        sys.exit(f"{setup} {model}: aggregated {aggregate.games} games, {lengths} lengths, "
                 f"asked {games}")  # fmt: skip
    print(f"{setup} {model}: {games} games aggregated of {games} asked in {elapsed:.1f} s "
          f"({cpu:.1f} CPU-s; load average {os.getloadavg()[0]:.1f})", flush=True)  # fmt: skip
    return games / elapsed, games / cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000, help="games per study")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--setup", action="append", choices=SETUPS, help="(default: both)")
    parser.add_argument("--model", action="append", choices=MODELS, help="(default: both)")
    args = parser.parse_args()
    setups, models = args.setup or SETUPS, args.model or MODELS
    rates = {(s, m): measure(s, m, args.games, args.jobs) for s in setups for m in models}
    print(f"{args.jobs} processes on {os.cpu_count()} cores; load average before the last "
          f"study: {os.getloadavg()[0]:.1f}")  # fmt: skip
    for (setup, model), (rate, per_cpu) in rates.items():
        print(f"{setup} {model}: {rate:.0f} games/s total, {rate / args.jobs:.0f} games/s per "
              f"core, {per_cpu:.0f} games per CPU-second")  # fmt: skip


if __name__ == "__main__":
    main()
