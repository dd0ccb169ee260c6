"""Instructions of the replays alone, counted by callgrind around them only.

    python bench/replay_instructions.py [--games 200] [--setup S]…

bench/instructions.py counts whole processes and divides their difference: start-up and
imports cost a few million instructions more or less from one run to the next (Python's
method cache and address-hashed sets depend on where things land in memory), so its
replay figure moves by a few percent between runs of the same code. Here the same
replays (the games bench/instructions.py replays, dealt the same way) run inside
``functools.reduce``, and callgrind counts only that call (``--toggle-collect``): the
figure repeats to within 0.01 %, so a change of 1 % shows. Needs valgrind.
"""

from __future__ import annotations

import argparse
import functools
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from instructions import callgrind

SETUPS = ("wild-west-wolf", "inquisizione")


def replay(setup: str, games: int) -> None:
    """The measured call: ``games`` recorded games replayed (after one warm-up replay)."""
    from roles.engine.registry import ruleset_for
    from roles.engine.setups import deal_roles
    from roles.engine.simulate import random_game

    rules = ruleset_for(setup)
    names = [f"P{i:02d}" for i in range(rules.setup.players)]
    random_game(setup, 10_000)
    recorded = []
    for seed in range(games):
        final, log = random_game(setup, seed)
        recorded.append((seed, deal_roles(rules.setup, names, random.Random(seed)), log,
                         final.winners))  # fmt: skip

    def play(count: int, game: tuple) -> int:
        """One replay; the count of the games replayed to their recorded winners."""
        seed, dealt, log, winners = game
        state, _ = rules.new_game(dealt, seed=seed)
        for label, actions, votes, _ in log:
            rules.play(state, label, actions=actions, votes=votes)
        return count + (state.winners == winners)

    play(0, recorded[0])  # warm-up, not counted
    done = functools.reduce(play, recorded, 0)
    if done != games:  # the figure would not be the replay of these games
        sys.exit(f"{setup}: {games - done} of {games} games did not replay to their winners")


def count(setup: str, games: int) -> int:
    return callgrind(__file__, "--run", setup, str(games),
                     options=("--toggle-collect=functools_reduce",))  # fmt: skip


def main() -> None:
    if sys.argv[1:2] == ["--run"]:
        replay(sys.argv[2], int(sys.argv[3]))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="the games replayed")
    parser.add_argument("--setup", action="append", choices=SETUPS, help="(default: both)")
    args = parser.parse_args()
    for setup in args.setup or SETUPS:
        per_game = count(setup, args.games) / args.games
        print(f"{setup} replay only: {per_game / 1e6:.4f}M instructions per game", flush=True)


if __name__ == "__main__":
    main()
