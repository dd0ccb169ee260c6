"""Instructions per game, counted by callgrind (stable on a shared machine, unlike time).

    python bench/instructions.py [--games 200] [--setup S]…

For each setup, runs this file under ``valgrind --tool=callgrind`` playing a few games and
then many more, and prints the difference divided by the extra games: the instructions of
one simulated game (random model), one informed game, and one replayed game (the engine
alone validating and resolving the recorded submissions, as bench/engine.py replays).
Needs valgrind; the figures exclude Python's start-up and imports.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

SETUPS = ("wild-west-wolf", "inquisizione")
KINDS = ("sim", "informed", "replay")


def play(setup: str, kind: str, games: int) -> None:
    """The measured work: ``games`` games of ``kind`` (after one warm-up game)."""
    from roles.balance.informed import InformedModel
    from roles.engine.registry import ruleset_for
    from roles.engine.setups import deal_roles
    from roles.engine.simulate import random_game

    model = InformedModel if kind == "informed" else None
    random_game(setup, 10_000, model=model)
    if kind != "replay":
        for seed in range(games):
            random_game(setup, seed, model=model)
        return
    rules = ruleset_for(setup)
    names = [f"P{i:02d}" for i in range(rules.setup.players)]
    logs = [(seed, random_game(setup, seed)[1]) for seed in range(games)]
    deals = [(seed, deal_roles(rules.setup, names, random.Random(seed))) for seed, _ in logs]
    if sys.argv[-1] == "simulate-only":
        return
    for (seed, dealt), (_, log) in zip(deals, logs, strict=True):
        state, _ = rules.new_game(dealt, seed=seed)
        for label, actions, votes, _ in log:
            rules.play(state, label, actions=actions, votes=votes)


def count(setup: str, kind: str, games: int, *extra: str) -> int:
    return callgrind(__file__, "--run", setup, kind, str(games), *extra)


def callgrind(script: str, *args: str, options: tuple[str, ...] = ()) -> int:
    """The instructions ``python script args...`` runs under callgrind (with its
    ``options``, e.g. a ``--toggle-collect``), with ``PYTHONHASHSEED=0``."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        subprocess.run(
            ["valgrind", "--tool=callgrind", *options, f"--callgrind-out-file={out}",
             sys.executable, script, *args],
            check=True, capture_output=True, env={**os.environ, "PYTHONHASHSEED": "0"},
        )  # fmt: skip
        summary = re.search(rb"^summary: (\d+)", out.read_bytes(), re.M)
        assert summary is not None
        return int(summary.group(1))


def main() -> None:
    if sys.argv[1:2] == ["--run"]:
        play(sys.argv[2], sys.argv[3], int(sys.argv[4]))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="the extra games measured")
    parser.add_argument("--setup", action="append", choices=SETUPS, help="(default: both)")
    parser.add_argument("--kind", action="append", choices=KINDS, help="(default: all)")
    args = parser.parse_args()
    few = 20
    for setup in args.setup or SETUPS:
        for kind in args.kind or KINDS:
            if kind == "replay":  # the replay of N games less the simulation of those N
                many = count(setup, kind, few + args.games)
                base = count(setup, kind, few + args.games, "simulate-only")
                games = few + args.games
                per_game = (many - base) / games
            else:
                per_game = (count(setup, kind, few + args.games) - count(setup, kind, few)) / (
                    args.games
                )
            print(f"{setup} {kind}: {per_game / 1e6:.3f}M instructions per game", flush=True)


if __name__ == "__main__":
    main()
