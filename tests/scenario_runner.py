"""Scenario test files: a default table plus cases, each with its rules and expectations.

A file holds ``setup``, ``players`` (the default seating) and ``cases``; a case is a
scenario (``phases``, and optionally ``players``, ``draws``, ``options``, ``seed``)
plus ``rules`` (the numbers it tests) and ``expect``:

- ``error``: the exact one-line refusal (phase, player, rule), for illegal scenarios;
- ``phases``: per phase label, ``deaths`` and ``alive`` (exact lists), ``results``
  (each partial record must match one result), ``no_results`` (no result may match),
  ``execution`` (exact);
- ``winners``, ``winning_factions`` (exact; null while the game goes on), ``last_phase``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

SCENARIOS = Path(__file__).resolve().parent / "scenarios"


def scenario_cases() -> list[tuple[str, dict[str, Any]]]:
    cases = []
    for path in sorted(SCENARIOS.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for case in data["cases"]:
            scenario = {
                "setup": data["setup"],
                "players": case.get("players", data["players"]),
                "phases": case.get("phases", []),
            }
            for key in ("seed", "options", "draws"):
                if key in case or key in data:
                    scenario[key] = case.get(key, data.get(key))
            case_id = f"{path.stem}::{case['name']}"
            cases.append((case_id, {"scenario": scenario, **case}))
    return cases


def matches(record: dict[str, Any], partial: dict[str, Any]) -> bool:
    return all(record.get(key) == value for key, value in partial.items())


def check_report(report: dict[str, Any], expect: dict[str, Any]) -> None:
    by_phase = {phase["phase"]: phase for phase in report["phases"]}
    for label, wanted in (expect.get("phases") or {}).items():
        assert label in by_phase, (
            f"phase {label} was not played (last: {report['phases'][-1]['phase']})"
        )
        got = by_phase[label]
        if "deaths" in wanted:
            assert got["deaths"] == wanted["deaths"], f"{label} deaths"
        if "alive" in wanted:
            assert got["alive"] == wanted["alive"], f"{label} alive"
        if "execution" in wanted:
            assert got.get("execution") == wanted["execution"], f"{label} execution"
        for partial in wanted.get("results") or []:
            assert any(matches(r, partial) for r in got["results"]), (
                f"{label}: no result matches {partial}; got {got['results']}"
            )
        for partial in wanted.get("no_results") or []:
            hits = [r for r in got["results"] if matches(r, partial)]
            assert not hits, f"{label}: unexpected {hits}"
        for text in wanted.get("announcement_has") or []:
            assert text in got["announcement"], f"{label} announcement lacks {text!r}"
        for text in wanted.get("announcement_lacks") or []:
            assert text not in got["announcement"], f"{label} announcement shows {text!r}"
    for key in ("winners", "winning_factions"):
        if key in expect:
            assert report[key] == expect[key], key
    if "last_phase" in expect:
        assert report["phases"][-1]["phase"] == expect["last_phase"]
