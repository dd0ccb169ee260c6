"""Engine benchmark: complete random legal games on one core.

    python bench/engine.py [--seconds 5]

Each game is dealt at random and played to its end by the simulator
(roles/engine/simulate.py), which proposes random choices and keeps those the
engine's legality checks accept; the engine validates and resolves every phase.
The last lines are `<setup> games/s: N`, one per setup.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from roles.engine.registry import ruleset_for
from roles.engine.setups import deal_roles
from roles.engine.simulate import random_game

SETUPS = ("wild-west-wolf", "inquisizione")


KEPT = 300  # games whose submissions are kept for the engine-alone figure


def simulate(setup: str, seconds: float) -> tuple[int, int, float, list]:
    games = phases = 0
    logs = []
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        _, log = random_game(setup, games)
        if games < KEPT:
            logs.append((games, log))
        games += 1
        phases += len(log)
    return games, phases, elapsed, logs


def engine_only(setup: str, logs: list) -> float:
    """Replays the recorded submissions: the engine's share of the work."""
    rules = ruleset_for(setup)
    names = [f"P{i:02d}" for i in range(rules.setup.players)]
    deals = [(seed, deal_roles(rules.setup, names, random.Random(seed))) for seed, _ in logs]
    start = time.perf_counter()
    for (seed, dealt), (_, log) in zip(deals, logs, strict=True):
        state, _ = rules.new_game(dealt, seed=seed)
        for label, actions, votes, _ in log:
            rules.play(state, label, actions=actions, votes=votes)
    return len(logs) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per setup")
    args = parser.parse_args()
    rates = {}
    for setup in SETUPS:
        random_game(setup, 0)  # warm up imports and caches
        games, phases, elapsed, logs = simulate(setup, args.seconds)
        rates[setup] = games / elapsed
        print(f"{setup}: {games} games, {phases / games:.1f} phases/game, "
              f"{phases / elapsed:,.0f} phases/s; engine alone (replaying the same "
              f"submissions) {engine_only(setup, logs):,.0f} games/s")  # fmt: skip
    for setup in SETUPS:
        print(f"{setup} games/s: {rates[setup]:.0f}")


if __name__ == "__main__":
    main()
