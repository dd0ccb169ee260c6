"""Replay a scenario file through the engine (shared/spec/scenarios.md).

Pure: no database, no broker. ``run_scenario`` returns the JSON-ready report or
raises :class:`RuleViolation` (or :class:`ScenarioError` for a malformed file).
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module
from pathlib import Path
from typing import Any

import yaml

from roles.engine.announce import announce
from roles.engine.errors import RuleViolation
from roles.engine.model import Action, GameState, PhaseOutcome, Vote, phase_index
from roles.engine.registry import ruleset_for
from roles.engine.setups import SetupError

ACTION_KEYS = {"actor", "target", "during", "fake_role", "vision"}
VOTE_KEYS = {"voter", "target", "secret", "abstain"}
PHASE_KEYS = {"phase", "actions", "votes", "wills"}
TOP_KEYS = {"setup", "seed", "players", "draws", "phases", "options"}
# Referee games (not Werewolf) replayed by their own package's run_scenario and
# report_text, chosen by `setup:`; one entry per game.
REFEREE_REPLAYS = {
    "automobile-del-tempo": "roles.automobile_del_tempo.replay",
    "ribelle": "roles.ribelle.replay",  # docs/replay-ribelle.md
}


class ScenarioError(ValueError):
    """The scenario file is not shaped as the spec says."""


def load_scenario(path: str | Path) -> dict[str, Any]:
    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ScenarioError(f"cannot read scenario {path}: {exc}") from exc
    if not isinstance(data, dict):
        raise ScenarioError(f"scenario {path} is not a YAML mapping")
    return data


def _mapping(value: Any, what: str) -> Mapping[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ScenarioError(f"{what} must be a mapping")
    return value


def _entries(value: Any, what: str, keys: set[str], label: str) -> list[Mapping[str, Any]]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, Mapping) for v in value):
        raise ScenarioError(f"{label}: {what} must be a list of mappings")
    for entry in value:
        unknown = set(entry) - keys
        if unknown:
            raise ScenarioError(f"{label}: unknown key {sorted(unknown)[0]!r} in {what}")
    return value


def _name(value: Any) -> str | None:
    return None if value is None else str(value)


def phase_report(state: GameState, outcome: PhaseOutcome) -> dict[str, Any]:
    report: dict[str, Any] = {
        "phase": outcome.phase,
        "deaths": [d.as_dict() for d in outcome.deaths],
        "results": [r.as_dict() for r in outcome.results],
        "alive": [p.name for p in state.players if p.alive],
    }
    if outcome.execution is not None:
        report["execution"] = outcome.execution.as_dict()
    report["announcement"] = announce(state, outcome)
    return report


def run_scenario(data: Mapping[str, Any], *, trace: bool = False) -> dict[str, Any]:
    """Play every phase of the scenario and report what happened."""
    if str(data.get("setup")) in REFEREE_REPLAYS:
        return import_module(REFEREE_REPLAYS[str(data["setup"])]).run_scenario(data, trace=trace)
    unknown = set(data) - TOP_KEYS
    if unknown:
        raise ScenarioError(f"unknown top-level key {sorted(unknown)[0]!r}")
    if "setup" not in data:
        raise ScenarioError("the scenario names no setup")
    try:
        rules = ruleset_for(str(data["setup"]))
    except SetupError as exc:
        raise RuleViolation(exc.said or str(exc), "spec", phase="setup") from exc
    players = {str(k): str(v) for k, v in _mapping(data.get("players"), "players").items()}
    seed = data.get("seed", 0)
    if not isinstance(seed, int):
        raise ScenarioError("seed must be an integer")
    state, outcome = rules.new_game(
        players, seed=seed, options=_mapping(data.get("options"), "options"),
        draws=_mapping(data.get("draws"), "draws"),
    )  # fmt: skip
    phases = [phase_report(state, outcome)]
    if trace:
        phases[0]["trace"] = [str(line) for line in outcome.trace]  # the English
    for position, entry in enumerate(data.get("phases") or []):
        if state.over:
            break
        if not isinstance(entry, Mapping) or "phase" not in entry:
            raise ScenarioError(f"phase entry {position + 1} has no 'phase'")
        label = str(entry["phase"])
        unknown = set(entry) - PHASE_KEYS
        if unknown:
            raise ScenarioError(f"{label}: unknown key {sorted(unknown)[0]!r}")
        try:
            phase_index(label)
        except ValueError as exc:
            raise ScenarioError(str(exc)) from exc
        actions = [
            Action(
                actor=str(a.get("actor")), target=_name(a.get("target")),
                during=_name(a.get("during")), fake_role=_name(a.get("fake_role")),
                vision=bool(a.get("vision", False)),
            )
            for a in _entries(entry.get("actions"), "actions", ACTION_KEYS, label)
        ]  # fmt: skip
        votes = [
            Vote(voter=str(v.get("voter")), target=_name(v.get("target")), at=i,
                 secret=bool(v.get("secret", False)), abstain=bool(v.get("abstain", False)))
            for i, v in enumerate(_entries(entry.get("votes"), "votes", VOTE_KEYS, label))
        ]  # fmt: skip
        wills = {str(k): str(v) for k, v in _mapping(entry.get("wills"), "wills").items()}
        outcome = rules.play(state, label, actions=actions, votes=votes, wills=wills)
        report = phase_report(state, outcome)
        if trace:
            report["trace"] = [str(line) for line in outcome.trace]
        phases.append(report)
    return {
        "setup": rules.key,
        "phases": phases,
        "winners": state.winners,
        "winning_factions": state.winning_factions,
    }


def report_text(report: Mapping[str, Any]) -> str:
    """The announcements, as a GM reads them."""
    if str(report.get("setup")) in REFEREE_REPLAYS:
        return import_module(REFEREE_REPLAYS[str(report["setup"])]).report_text(report)
    blocks = []
    for phase in report["phases"]:
        title = "Inizio" if phase["phase"] == "setup" else phase["phase"]
        blocks.append(f"== {title} ==\n{phase['announcement']}")
    return "\n\n".join(blocks) + "\n"
