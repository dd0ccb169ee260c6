"""Which options a player model does not simulate (issue 30, major 6; docs/balance.md).

A model plays legal choices and reads only some results (the informed model reads what
players know at the deal and what investigations and visions show); an option that
changes only words (a death announcement naming the role, the will's length) or results
no model reads changes nothing in a study, and a comparison on it would say "wins as
often" about a rule it never played. The probe finds them the only sure way: it plays
:data:`PROBE_GAMES` games with the option at its default and the same games with each
other value; an option whose every value gives the very same counters is ``inert`` for
that model, one whose other value the model cannot play (the engine refuses its move) is
``fails``. An option that changed a single counter is simulated.

Probing a setup plays a few thousand games, too slow for a page: the findings of the
shipped setups are kept in ``probe.json`` beside this module (written by
``python -m roles.balance.probe``, checked by tests/lab/test_probe.py); a setup missing
there (the tests' own) is probed once per process.
"""

from __future__ import annotations

import json
import sys
from functools import cache
from pathlib import Path
from typing import Any

from roles.balance.study import MODELS, Study, Variant, run_study
from roles.engine.errors import RuleViolation
from roles.engine.options import OptionField
from roles.engine.setups import SetupError, available_setups, load_setup

PROBE_GAMES = 200
PROBE_SEED = 20261203
FINDINGS = Path(__file__).with_name("probe.json")
INERT, FAILS = "inert", "fails"


def other_values(option: OptionField) -> list[Any]:
    """The values the probe plays besides the default."""
    if option.kind == "flag":
        return [not option.default]
    if option.kind == "choice":
        return [value for value in option.choices if value != option.default]
    if option.kind == "number":
        return [option.default + 1, max(1, option.default // 2)]
    return ["12:00" if option.default != "12:00" else "23:00"]  # a time


def probe_option(setup_key: str, model: str, option: OptionField, base: dict) -> str | None:
    """``inert``, ``fails`` or None (simulated) for one option under one model."""
    for value in other_values(option):
        study = Study(Variant(setup_key, {option.name: value}), PROBE_GAMES, model, PROBE_SEED)
        try:
            counted = run_study(study).as_dict()
        except (RuleViolation, SetupError):
            return FAILS
        if counted != base:
            return None
    return INERT


def probe_setup(setup_key: str) -> dict[str, dict[str, str]]:
    """Model -> {option: inert|fails} for every option a model does not simulate."""
    setup = load_setup(setup_key)
    found: dict[str, dict[str, str]] = {}
    for model in MODELS:
        base = run_study(Study(Variant(setup_key), PROBE_GAMES, model, PROBE_SEED)).as_dict()
        verdicts = {name: probe_option(setup_key, model, option, base)
                    for name, option in setup.option_fields.items()}  # fmt: skip
        found[model] = {name: verdict for name, verdict in verdicts.items() if verdict}
    return found


@cache
def _kept() -> dict[str, Any]:
    return json.loads(FINDINGS.read_text(encoding="utf-8")) if FINDINGS.is_file() else {}


@cache
def unsimulated(setup_key: str) -> dict[str, dict[str, str]]:
    """Model -> {option: inert|fails}: the kept findings of a shipped setup (for its
    current rules version), else a probe now."""
    kept = _kept().get(setup_key)
    if kept and kept.get("version") == load_setup(setup_key).version:
        return kept["models"]
    return probe_setup(setup_key)


def main() -> None:
    """Write probe.json for every shipped setup (run after a rules or model change)."""
    findings = {key: {"version": load_setup(key).version, "models": probe_setup(key)}
                for key in available_setups()}  # fmt: skip
    FINDINGS.write_text(json.dumps(findings, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    sys.stdout.write(f"{FINDINGS}: {', '.join(findings)}\n")


if __name__ == "__main__":
    main()
