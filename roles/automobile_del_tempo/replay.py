"""Replay a recorded Time Car game (docs/replay-automobile-del-tempo.md).

Pure: no database, no broker. ``run_scenario`` returns the JSON-ready report or raises
:class:`TimeCarViolation` (a move the rules forbid: round, Bandit, rule) or
:class:`ScenarioError` (a malformed file).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from roles.automobile_del_tempo.checker import KINDS, Action, ActionError, apply
from roles.automobile_del_tempo.posts import end_post, hid_post, reveal_post
from roles.automobile_del_tempo.rounds import apply_event, end_bonus, end_round, start_round
from roles.automobile_del_tempo.state import SETUP_KEY, SetupError, TimeCarGame, new_game
from roles.automobile_del_tempo.train import PlaceError
from roles.replay import ScenarioError

TOP_KEYS = {"setup", "options", "train", "bandits", "rounds"}
TRAIN_KEYS = {"cars", "horses_and_stagecoach", "stagecoach", "rounds", "marshal"}
ROUND_KEYS = {"round", "moves", "event", "hide"}
MOVE_KEYS = {
    "move": {"to"}, "ride": {"to"}, "change_floor": set(), "fire": {"at"},
    "punch": {"at", "to", "drops"}, "rob": {"loot"}, "marshal": set(), "place": {"to"},
    "stagecoach": set(),
}  # fmt: skip


def _mapping(value: Any, what: str) -> Mapping[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ScenarioError(f"{what} must be a mapping")
    return value


def _unknown(entry: Mapping[str, Any], keys: set[str], where: str) -> None:
    extra = set(entry) - keys
    if extra:
        raise ScenarioError(f"{where}unknown key {sorted(extra)[0]!r}")


def _bandits(value: Any) -> dict[str, tuple[str, str | None]]:
    roster: dict[str, tuple[str, str | None]] = {}
    for name, spec in _mapping(value, "bandits").items():
        if isinstance(spec, str):
            roster[str(name)] = (spec, None)
            continue
        spec = _mapping(spec, f"bandit {name}")
        _unknown(spec, {"character", "start"}, f"bandit {name}: ")
        start = spec.get("start")
        roster[str(name)] = (str(spec.get("character")), None if start is None else str(start))
    return roster


def setup_game(data: Mapping[str, Any]) -> TimeCarGame:
    _unknown(data, TOP_KEYS, "")
    train = _mapping(data.get("train"), "train")
    _unknown(train, TRAIN_KEYS, "train: ")
    bandits = _bandits(data.get("bandits"))
    try:
        return new_game(
            cars=train.get("cars", max(2, len(bandits))), bandits=bandits,
            horses_and_stagecoach=bool(train.get("horses_and_stagecoach", False)),
            total_rounds=train.get("rounds", 5), marshal=train.get("marshal"),
            stagecoach=train.get("stagecoach"), options=_mapping(data.get("options"), "options"),
        )  # fmt: skip
    except SetupError as exc:
        raise ScenarioError(f"setup: {exc}") from exc


def action_of(entry: Any, label: str) -> Action:
    """One entry of a round's ``moves`` (its first key names the action and the actor)."""
    if not isinstance(entry, Mapping) or not entry:
        raise ScenarioError(f"{label}: each move must be a mapping")
    kind = next(iter(entry))
    if kind not in MOVE_KEYS:
        raise ScenarioError(f"{label}: unknown action {kind!r} ({', '.join(KINDS)})")
    _unknown(entry, {kind} | MOVE_KEYS[kind], f"{label}: ")
    value = None if entry[kind] is None else str(entry[kind])
    loot = entry.get("loot", entry.get("drops"))
    return Action(
        kind=kind,
        actor=None if kind in ("marshal", "stagecoach") else value,
        to=value if kind in ("marshal", "stagecoach") else _text(entry.get("to")),
        target=_text(entry.get("at")),
        loot=_text(loot),
    )


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


def _hide(value: Any, label: str) -> tuple[str | None, str | None]:
    if value is None:
        return None, None
    if isinstance(value, str):
        return None, value
    spec = _mapping(value, f"{label}: hide")
    _unknown(spec, {"bandit", "under"}, f"{label}: hide: ")
    return _text(spec.get("bandit")), _text(spec.get("under"))


def _snapshot(game: TimeCarGame) -> dict[str, Any]:
    return {
        "positions": {
            n: None if b.place is None else str(b.place) for n, b in game.bandits.items()
        },
        "marshal": str(game.marshal),
        "time_car": {"bandits": game.in_time_car(), "loot": list(game.time_car_loot)},
    }


def play_round(game: TimeCarGame, entry: Mapping[str, Any]) -> dict[str, Any]:
    label = f"Round {game.round + 1}"
    _unknown(entry, ROUND_KEYS, f"{label}: ")
    if entry.get("round", game.round + 1) != game.round + 1:
        raise ScenarioError(
            f"{label}: expected 'round: {game.round + 1}', got {entry.get('round')!r}"
        )
    if game.round + 1 > game.total_rounds:
        raise ScenarioError(f"{label}: the game has {game.total_rounds} rounds")
    revealed = start_round(game)
    report: dict[str, Any] = {"round": game.round, "reveal": None}
    if revealed is not None:
        under = revealed.to.partition(":")[0]
        report["reveal"] = {"bandit": revealed.figure, "under": under, "at": revealed.to}
    moves = entry.get("moves") or []
    if not isinstance(moves, list):
        raise ScenarioError(f"{label}: moves must be a list")
    report["moves"] = []
    for move in moves:
        action = action_of(move, label)
        try:
            answer = apply(game, action, label=label)
        except (ActionError, PlaceError) as exc:
            raise ScenarioError(f"{label}: {exc}") from exc
        report["moves"].append({
            "action": action.kind, "actor": action.actor if action.actor else (
                "Marshal" if action.kind == "marshal" else None),
            "message": answer.message, "rule": answer.rule,
            "moved": [m.as_dict() for m in answer.moved],
        })  # fmt: skip
    event = _text(entry.get("event"))
    try:
        moved = apply_event(game, event)
    except ValueError as exc:
        raise ScenarioError(f"{label}: {exc}") from exc
    report["event"] = (
        None if event is None else {"name": event, "moved": [m.as_dict() for m in moved]}
    )
    bandit, under = _hide(entry.get("hide"), label)
    hiding = end_round(game, under, bandit, label=label)
    report["hid"] = None if hiding is None else hiding.as_dict()
    report |= _snapshot(game)
    return report


def run_scenario(data: Mapping[str, Any], *, trace: bool = False) -> dict[str, Any]:
    """Play every round of the recorded game and report what happened (``trace`` is
    accepted for the command's sake: every move already carries its rule)."""
    game = setup_game(data)
    start = _snapshot(game)
    rounds = data.get("rounds") or []
    if not isinstance(rounds, list):
        raise ScenarioError("rounds must be a list")
    reports = [play_round(game, _mapping(entry, "each round")) for entry in rounds]
    return {
        "setup": SETUP_KEY,
        "train": {
            "cars": game.train.cars, "horses_and_stagecoach": game.train.horses_and_stagecoach,
            "stagecoach": None if game.stagecoach_beside is None
            else game.train.unit_at(game.stagecoach_beside),
            "rounds": game.total_rounds,
        },
        "options": dict(game.options),
        "bandits": {n: b.character for n, b in game.bandits.items()},
        "start": {"positions": start["positions"], "marshal": start["marshal"]},
        "rounds": reports,
        "end": end_bonus(game) if game.over else None,
    }  # fmt: skip


def report_text(report: Mapping[str, Any]) -> str:
    """The public posts in Italian, round by round, as a GM reads them."""
    blocks = []
    for entry in report["rounds"]:
        lines = [f"== Round {entry['round']} =="]
        if entry["reveal"]:
            lines.append(
                reveal_post(entry["round"], entry["reveal"]["bandit"], entry["reveal"]["at"]).text()
            )
        if entry["hid"]:
            lines.append(hid_post(entry["round"], entry["hid"]["bandit"]).text())
        blocks.append("\n".join(lines))
    if report["end"] is not None:
        blocks.append(f"== Fine ==\n{end_post(report['end']).text()}")
    return "\n\n".join(blocks) + "\n"
