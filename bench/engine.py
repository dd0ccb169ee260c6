"""Engine benchmark: complete random legal games on one core.

    python bench/engine.py [--seconds 5] [--replay 2000] [--passes 5]

Each game is dealt at random and played to its end by the simulator
(roles/engine/simulate.py), which proposes random choices and keeps those the
engine's legality checks accept; the engine validates and resolves every phase.
Then the engine alone replays recorded games (`--replay N` of them per setup, the
submissions the simulator made), validating and resolving every phase as `manage.py
replay` and the site's rebuild do, ``--passes`` times over (each pass about 0.2 s of CPU:
one pass is at the mercy of whatever else the shared machine runs at that moment, so
every pass is printed and the median is the figure); it checks that each pass replayed
as many games as asked, each phase with the recorded deaths, results and vote, and each
game to the recorded winners.
Time is CPU time (``--seconds`` of it per setup), and each rate is given per wall second
and per CPU second (the machine is shared: the CPU figure is the one to compare).
The last lines are `<setup> games/s: ...` (simulated) and `<setup> replayed games/s: ...`.

How it is measured, and why. The bench keeps thousands of recorded games (their logs and
deals): Python's cyclic garbage collector, triggered by the engine's allocations, would
otherwise traverse all of them at each older-generation collection, and most of the
replay's time went there (the bench's data, not the engine's work). So the recorded inputs
are frozen (``gc.freeze()``: moved out of the collector's generations) as they are kept,
and the replay times exactly each game's ``rules.new_game`` and ``rules.play`` calls
(CPU time around them, summed), comparing the game's outcomes with the recorded ones
right after it, outside the timed part, and dropping them (nothing accumulates). The
collector stays on: the collections the engine's own allocations cause are counted.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from roles.engine.model import PhaseOutcome
from roles.engine.registry import ruleset_for
from roles.engine.setups import deal_roles
from roles.engine.simulate import random_game

SETUPS = ("wild-west-wolf", "inquisizione")


def simulate(setup: str, seconds: float, kept: int) -> tuple[int, int, float, float, list]:
    """Random games for ``seconds`` of CPU time; the first ``kept`` are recorded for the
    replay. Returns games, phases, wall seconds, CPU seconds and the recorded games."""
    games = phases = 0
    logs = []
    start, cpu_start = time.perf_counter(), time.process_time()
    while (cpu := time.process_time() - cpu_start) < seconds or len(logs) < kept:
        state, log = random_game(setup, games)
        if games < kept:
            logs.append((games, log, state.winners))
            gc.freeze()  # the kept game is the bench's data: later collections skip it
        games += 1
        phases += len(log)
    return games, phases, time.perf_counter() - start, cpu, logs


def replay(setup: str, logs: list, passes: int) -> tuple[float, float]:
    """Replays the recorded submissions ``passes`` times (the engine alone, validating every
    phase): the median pass's games per wall second and per CPU second, timing only the
    engine's calls. Fails unless every recorded game was replayed, in every pass, phase by
    phase, to its recorded deaths, results and winners."""
    rules = ruleset_for(setup)
    names = [f"P{i:02d}" for i in range(rules.setup.players)]
    deals = [(seed, deal_roles(rules.setup, names, random.Random(seed))) for seed, *_ in logs]
    gc.freeze()  # the recorded inputs (logs, deals): a collection does not walk them
    rates = [_replay_pass(setup, rules, deals, logs) for _ in range(passes)]
    walls = sorted(wall for wall, _, _ in rates)
    cpus = sorted(cpu for _, cpu, _ in rates)
    print(f"{setup}: replayed {len(logs)} games of {len(logs)} asked ({rates[0][2]} phases) "
          f"in each of {passes} passes, each phase as recorded and each game to its recorded "
          "winners; games per CPU second, pass by pass: "
          + ", ".join(f"{cpu:,.0f}" for _, cpu, _ in rates))  # fmt: skip
    return walls[len(walls) // 2], cpus[len(cpus) // 2]


def _replay_pass(setup: str, rules: Any, deals: list, logs: list) -> tuple[float, float, int]:
    """One replay of every recorded game, checked: games per wall and per CPU second, and
    the phases replayed."""
    wall = cpu = 0.0
    replayed = phases = 0
    perf, process = time.perf_counter, time.process_time
    for (seed, dealt), (_, log, winners) in zip(deals, logs, strict=True):
        start, cpu_start = perf(), process()
        state, _ = rules.new_game(dealt, seed=seed)
        outcomes = [rules.play(state, label, actions=actions, votes=votes)
                    for label, actions, votes, _ in log]  # fmt: skip
        cpu += process() - cpu_start
        wall += perf() - start
        if state.winners != winners:
            sys.exit(f"{setup}: replayed game {seed} did not end as the recorded one did")
        if len(outcomes) != len(log) or any(
            _facts(mine) != _facts(theirs) for mine, (*_, theirs) in zip(outcomes, log, strict=True)
        ):
            sys.exit(f"{setup}: a phase of replayed game {seed} differs from the recorded one")
        replayed += 1
        phases += len(outcomes)
        del state, outcomes
    if replayed != len(logs):
        sys.exit(f"{setup}: replayed {replayed} games of {len(logs)} asked")
    return replayed / wall, replayed / cpu, phases


def _facts(outcome: PhaseOutcome) -> tuple:
    """What a phase decided: its deaths, its results and its execution."""
    execution = outcome.execution.as_dict() if outcome.execution else None
    return (
        outcome.phase,
        [d.as_dict() for d in outcome.deaths],
        [r.as_dict() for r in outcome.results],
        execution,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per setup")
    parser.add_argument("--replay", type=int, default=2000, help="games replayed per setup")
    parser.add_argument("--passes", type=int, default=5,
                        help="replays of those games (the median pass is reported)")  # fmt: skip
    args = parser.parse_args()
    rates, replays = {}, {}
    for setup in SETUPS:
        random_game(setup, 0)  # warm up imports and caches
        games, phases, elapsed, cpu, logs = simulate(setup, args.seconds, args.replay)
        rates[setup] = (games / elapsed, games / cpu)
        print(f"{setup}: {games} games, {phases / games:.1f} phases/game, "
              f"{phases / cpu:,.0f} phases per CPU second")  # fmt: skip
        replays[setup] = replay(setup, logs, args.passes)
    for setup in SETUPS:
        wall, cpu = rates[setup]
        print(f"{setup} games/s: {wall:.0f} wall, {cpu:.0f} per CPU second")
    for setup in SETUPS:
        wall, cpu = replays[setup]
        print(f"{setup} replayed games/s: {wall:.0f} wall, {cpu:.0f} per CPU second "
              f"(median of {args.passes} passes)")  # fmt: skip


if __name__ == "__main__":
    main()
