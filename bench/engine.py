"""Engine benchmark: complete random legal games on one core.

    python bench/engine.py [--seconds 5]

Each game is dealt at random and played to its end by the simulator
(roles/engine/simulate.py), which proposes random choices and keeps those the
engine's legality checks accept; the engine validates and resolves every phase.
Then the engine alone replays recorded games (`--replay N` of them per setup, the
submissions the simulator made), validating and resolving every phase as `manage.py
replay` and the site's rebuild do; it checks that it replayed as many games as asked and
that each ended with the recorded winners.
The last lines are `<setup> games/s: N` (simulated) and `<setup> replayed games/s: N`.
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


def simulate(setup: str, seconds: float, kept: int) -> tuple[int, int, float, list]:
    """Random games for ``seconds``; the first ``kept`` are recorded for the replay."""
    games = phases = 0
    logs = []
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds or len(logs) < kept:
        state, log = random_game(setup, games)
        if games < kept:
            logs.append((games, log, state.winners))
        games += 1
        phases += len(log)
    return games, phases, elapsed, logs


def replay(setup: str, logs: list) -> float:
    """Replays the recorded submissions (the engine alone, validating every phase): games/s.
    Fails unless every recorded game was replayed to its recorded winners."""
    rules = ruleset_for(setup)
    names = [f"P{i:02d}" for i in range(rules.setup.players)]
    deals = [(seed, deal_roles(rules.setup, names, random.Random(seed))) for seed, *_ in logs]
    replayed = []
    start = time.perf_counter()
    for (seed, dealt), (_, log, _) in zip(deals, logs, strict=True):
        state, _ = rules.new_game(dealt, seed=seed)
        for label, actions, votes, _ in log:
            rules.play(state, label, actions=actions, votes=votes)
        replayed.append(state.winners)
    elapsed = time.perf_counter() - start
    if replayed != [winners for *_, winners in logs]:
        sys.exit(f"{setup}: the replay did not end as the recorded games did")
    print(f"{setup}: replayed {len(replayed)} games of {len(logs)} asked, each to its "
          "recorded winners")  # fmt: skip
    return len(replayed) / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per setup")
    parser.add_argument("--replay", type=int, default=2000, help="games replayed per setup")
    args = parser.parse_args()
    rates, replays = {}, {}
    for setup in SETUPS:
        random_game(setup, 0)  # warm up imports and caches
        games, phases, elapsed, logs = simulate(setup, args.seconds, args.replay)
        rates[setup] = games / elapsed
        print(f"{setup}: {games} games, {phases / games:.1f} phases/game, "
              f"{phases / elapsed:,.0f} phases/s")  # fmt: skip
        replays[setup] = replay(setup, logs)
    for setup in SETUPS:
        print(f"{setup} games/s: {rates[setup]:.0f}")
    for setup in SETUPS:
        print(f"{setup} replayed games/s: {replays[setup]:.0f}")


if __name__ == "__main__":
    main()
