"""`manage.py replay FILE [--text] [--trace]` without Django: pure, so it runs with no
SECRET_KEY, no .env, no database and no broker (docs/spec/scenarios.md)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TextIO

from roles.engine.errors import RuleViolation
from roles.replay import ScenarioError, load_scenario, report_text, run_scenario

DESCRIPTION = "Replay a scenario file (docs/spec/scenarios.md) and print what happened as JSON."


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="manage.py replay", description=DESCRIPTION)
    add_arguments(parser)
    return parser


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("scenario", help="path to the scenario YAML file")
    parser.add_argument("--text", action="store_true", help="print the announcements")
    parser.add_argument("--trace", action="store_true", help="add each phase's reasons")


def replay(
    scenario: str, *, text: bool = False, trace: bool = False,
    out: TextIO = sys.stdout, err: TextIO = sys.stderr,
) -> int:  # fmt: skip
    """Print the report (or the announcements); 2 and one line on stderr for a scenario
    that breaks a rule or is malformed."""
    try:
        report = run_scenario(load_scenario(scenario), trace=trace)
    except (RuleViolation, ScenarioError) as exc:
        err.write(f"{exc}\n")
        return 2
    if text:
        out.write(report_text(report))
    else:
        out.write(json.dumps(report, ensure_ascii=False, indent=2) + "\n")
    return 0


def main(argv: Sequence[str]) -> int:
    args = parser().parse_args(argv)
    return replay(args.scenario, text=args.text, trace=args.trace)
