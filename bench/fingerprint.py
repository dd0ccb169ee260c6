"""Fingerprint of what the engine decides, to prove a speed change changes nothing.

    python bench/fingerprint.py [--games 2000] [--verbose]

Prints one digest per part, then a total: simulated games of both setups (random and
informed models; every phase's actions, votes, deaths, results, execution with its
decisive voter, trace rendered and stored, departures, the final state), games with each
boolean option flipped, balance-study chunks, and every scenario under tests/scenarios/
replayed as JSON, --text and --trace. Run it before and after a change (from each
checkout) and compare the lines: equal digests, the same games seed for seed.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from roles.balance.informed import InformedModel  # noqa: E402
from roles.balance.study import Study, Variant, run_chunk  # noqa: E402
from roles.balance.study_report import summary  # noqa: E402
from roles.engine.errors import RuleViolation  # noqa: E402
from roles.engine.model import Action, GameState, PhaseOutcome, Vote  # noqa: E402
from roles.engine.registry import ruleset_for  # noqa: E402
from roles.engine.setups import deal_roles  # noqa: E402
from roles.engine.simulate import random_game  # noqa: E402
from roles.replay_cli import replay  # noqa: E402

SETUPS = ("wild-west-wolf", "inquisizione")


def _outcome(outcome: PhaseOutcome) -> list[Any]:
    execution = outcome.execution
    return [
        outcome.phase,
        [(d.player, d.cause) for d in outcome.deaths],
        [(r.to, r.kind, r.about, repr(r.value)) for r in outcome.results],
        None
        if execution is None
        else (execution.executed, list(execution.totals.items()), execution.decisive_voter),
        [(str(line), line.as_dict()) for line in outcome.trace],
        list(outcome.departed),
        [(v.voter, v.target, v.at, v.secret, v.abstain) for v in outcome.public_votes],
    ]


def _state(state: GameState) -> list[Any]:
    return [
        [
            (p.name, p.seat, p.role, p.dealt_role, p.faction, p.counts_as, p.alive, p.departed)
            for p in state.players
        ],
        state.phase_index,
        sorted(state.used),
        sorted(state.draws.items()),
        sorted((k, (v.night, v.last, v.every)) for k, v in state.targets.items()),
        sorted((k, (v.kind, v.phase, v.player, repr(v.value))) for k, v in state.statuses.items()),
        state.death_order,
        sorted(state.death_phase.items()),
        sorted(state.goal_met),
        state.winners,
        state.winning_factions,
    ]


def game_record(state: GameState, log: list[Any]) -> str:
    phases = [
        [
            label,
            [(a.actor, a.target, a.during, a.fake_role, a.vision) for a in actions],
            [(v.voter, v.target, v.at, v.secret, v.abstain) for v in votes],
            _outcome(outcome),
        ]
        for label, actions, votes, outcome in log
    ]
    return json.dumps([phases, _state(state)], default=repr)


def games(setup: str, count: int, **kwargs: Any) -> str:
    digest = hashlib.sha256()
    for seed in range(count):
        try:
            state, log = random_game(setup, seed, **kwargs)
        except RuleViolation as exc:  # an option the random votes break (no vote change)
            digest.update(f"refused {exc}".encode())
            continue
        digest.update(game_record(state, log).encode())
    return digest.hexdigest()


def probes(setup: str, count: int, options: dict[str, Any] | None = None) -> str:
    """Every check_action and check_vote a phase could be asked (each actor on each name,
    with the fields his card takes), on the states of simulated games: the slot or the
    refusal, word for word."""
    rules = ruleset_for(setup)
    digest = hashlib.sha256()
    names = [f"P{i:02d}" for i in range(rules.setup.players)]
    for seed in range(count):
        try:
            _, log = random_game(setup, seed, options=options)
        except RuleViolation:
            continue
        dealt = deal_roles(rules.setup, names, random.Random(seed))
        state, _ = rules.new_game(dealt, seed=seed, options=options)
        for label, actions, votes, _ in log:
            lines = []
            for actor in state.players:
                for ability in rules.abilities_of(actor):
                    lines.append(repr(rules.can_use(state, label, actor, ability)))
                for action in _candidates(rules, actor.dealt_role, actor.name, names):
                    try:
                        lines.append(repr(rules.check_action(state, label, action)))
                    except RuleViolation as exc:
                        lines.append(f"{exc}|{exc.code}|{sorted(exc.params)}")
                for target in [None, *names]:
                    for secret in (False, True):
                        vote = Vote(actor.name, target, 0, secret)
                        try:
                            rules.check_vote(state, label, vote)
                            lines.append("ok")
                        except RuleViolation as exc:
                            lines.append(f"{exc}|{exc.code}")
            digest.update("\n".join(lines).encode())
            rules.play(state, label, actions=actions, votes=votes)
    return digest.hexdigest()


def _candidates(rules: Any, role: str, actor: str, names: list[str]) -> list[Action]:
    targets: list[str | None] = [None, *names]
    actions = [Action(actor, t) for t in targets]
    for ability in rules.card_abilities(role):
        for phase in rules.phase_choices(ability):
            actions += [Action(actor, t, during=phase) for t in targets]
        if ability.key == "vision":
            actions += [Action(actor, t, vision=True) for t in targets]
        if not ability.needs_target:
            actions += [Action(actor, None, fake_role=r) for r in (*rules.setup.cards, "x")]
    return actions


def flipped_options(setup: str) -> list[dict[str, Any]]:
    rules = ruleset_for(setup)
    return [
        {name: not value}
        for name, value in sorted(rules.setup.options.items())
        if isinstance(value, bool)
    ] + [
        {name: choice}
        for name, choices in sorted(rules.setup.option_choices.items())
        for choice in choices
        if choice != rules.setup.options.get(name)
    ]


def scenarios() -> str:
    digest = hashlib.sha256()
    for path in sorted((ROOT / "tests" / "scenarios").rglob("*.yaml")):
        for flags in ({}, {"text": True}, {"trace": True}, {"text": True, "trace": True}):
            out, err = io.StringIO(), io.StringIO()
            code = replay(str(path), out=out, err=err, **flags)
            digest.update(f"{path.name}{flags}{code}\n{out.getvalue()}\n{err.getvalue()}".encode())
    return digest.hexdigest()


def studies(count: int) -> str:
    digest = hashlib.sha256()
    for setup in SETUPS:
        for model in ("random", "informed"):
            study = Study(Variant(setup), count, model, seed=7)
            aggregate = run_chunk(study, 0)
            for index in range(1, study.chunks):
                aggregate.merge(run_chunk(study, index))
            data = {"aggregate": aggregate.as_dict(), "summary": summary(aggregate, setup)}
            digest.update(json.dumps(data, sort_keys=True, default=repr).encode())
    return digest.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games per setup and model")
    args = parser.parse_args()
    parts: list[tuple[str, Callable[[], str]]] = []
    for setup in SETUPS:
        parts.append((f"{setup} random", lambda s=setup: games(s, args.games)))
        parts.append(
            (f"{setup} informed", lambda s=setup: games(s, args.games, model=InformedModel))
        )
        parts.append((f"{setup} probes", lambda s=setup: probes(s, max(args.games // 20, 20))))
        for option in flipped_options(setup):
            parts.append((f"{setup} probes {option}",
                          lambda s=setup, o=option: probes(s, 8, o)))  # fmt: skip
            parts.append((f"{setup} {option}",
                          lambda s=setup, o=option: games(s, max(args.games // 10, 50),
                                                          options=o)))  # fmt: skip
    parts.append(("scenarios", scenarios))
    parts.append(("studies", lambda: studies(max(args.games, 1000))))
    total = hashlib.sha256()
    for name, part in parts:
        value = part()
        total.update(f"{name}={value}\n".encode())
        print(f"{name}: {value[:16]}", flush=True)
    print(f"total: {total.hexdigest()[:16]}")


if __name__ == "__main__":
    main()
