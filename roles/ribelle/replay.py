"""`manage.py replay` for a recorded BANG! game with Il Ribelle! (docs/replay-ribelle.md).

Pure: the log in, the referee's report out, or a RibelleViolation (exit 2) / MalformedLog."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from roles.ribelle.events import Event
from roles.ribelle.referee import apply
from roles.ribelle.state import TableState
from roles.ribelle.table import CARDS, RETURN_VIA, SETUP_KEY, check_roles, deal, game_options

TOP_KEYS = {"setup", "seed", "players", "options", "events"}
EVENT_KEYS = {
    "turn": {"turn", "phase"},
    "reveal": {"reveal"},
    "eliminated": {"eliminated", "by", "during", "card"},
    "returns": {"returns", "via"},
}


class MalformedLog(ValueError):
    """The file is not shaped as docs/replay-ribelle.md says."""


def parse_event(entry: Any, number: int) -> Event:
    """One entry of `events:` as the referee's Event (shape only; the rules come later)."""
    if not isinstance(entry, Mapping):
        raise MalformedLog(f"event {number} is not a mapping")
    kinds = [k for k in EVENT_KEYS if k in entry]
    if len(kinds) != 1:
        raise MalformedLog(f"event {number} must have exactly one of: {', '.join(EVENT_KEYS)}")
    kind = kinds[0]
    unknown = set(entry) - EVENT_KEYS[kind]
    if unknown:
        raise MalformedLog(f"event {number} ({kind}): unknown key {sorted(unknown)[0]!r}")
    value = entry[kind]
    players = tuple(str(p) for p in value) if isinstance(value, list) else (str(value),)
    if not players or (kind != "eliminated" and len(players) != 1):
        raise MalformedLog(f"event {number} ({kind}) names {len(players)} players")
    phase = entry.get("phase", 1)
    if kind == "turn" and not isinstance(phase, int):
        raise MalformedLog(f"event {number} (turn): phase must be 1, 2 or 3")
    card = str(entry.get("card", "altro"))
    if card not in CARDS:
        raise MalformedLog(f"event {number} (eliminated): card must be one of {', '.join(CARDS)}")
    via = entry.get("via")
    if kind == "returns" and via not in RETURN_VIA:
        raise MalformedLog(f"event {number} (returns): via must be one of {', '.join(RETURN_VIA)}")
    by, during = entry.get("by"), entry.get("during")
    return Event(
        kind,
        players,
        phase=phase,
        card=card,
        via=via,
        by=None if by is None else str(by),
        during=None if during is None else str(during),
    )


def start(data: Mapping[str, Any]) -> TableState:
    options = data.get("options") or {}
    if not isinstance(options, Mapping):
        raise MalformedLog("options must be a mapping")
    options = game_options(options)
    players = data.get("players")
    if isinstance(players, list):
        seed = data.get("seed", 0)
        if not isinstance(seed, int):
            raise MalformedLog("seed must be an integer")
        roles = deal([str(p) for p in players], seed=seed, options=options)
    elif isinstance(players, Mapping):
        roles = {str(k): str(v) for k, v in players.items()}
        check_roles(roles, options)
    else:
        raise MalformedLog("players must be a mapping of name: role (or a list of names)")
    return TableState.new(roles, options)


def run_ribelle(data: Mapping[str, Any]) -> dict[str, Any]:
    """Every event of the log through the referee; the state after each one."""
    unknown = set(data) - TOP_KEYS
    if unknown:
        raise MalformedLog(f"unknown top-level key {sorted(unknown)[0]!r}")
    state = start(data)
    report: dict[str, Any] = {"setup": SETUP_KEY, "start": state.snapshot(), "events": []}
    entries = data.get("events") or []
    if not isinstance(entries, list):
        raise MalformedLog("events must be a list")
    for number, entry in enumerate(entries, start=1):
        if state.over:
            break
        event = parse_event(entry, number)
        outcome = apply(state, event, f"event {number} ({event.kind})")
        record = {"event": number, **event.as_dict()}
        if event.kind == "eliminated":
            record["during"] = outcome.during
        record |= state.snapshot()
        record |= {
            "revolution": outcome.revolution,
            "penalty": outcome.penalty,
            "rulings": [r.as_dict() for r in outcome.rulings],
        }
        report["events"].append(record)
    report |= {
        "over": state.over,
        "winning_side": state.side,
        "winners": state.winners,
        "players": state.players_report(),
    }
    return report
