"""The end-of-game spoiler: the whole story, phase by phase, read from the record.

Every committed phase tells what was sent (each night action and the Templare's
designations with their times, each vote with its time and changes, the Boia's secret
vote), the GM's corrections with their reasons, the outcome (deaths, the execution with the
true totals) and every private result. Phases opened after the end, and never resolved,
are not part of the story. The same story is rendered as a forum post (BBCode with
``[spoiler]`` blocks, or Markdown with ``<details>`` blocks) and goes into the JSON.
"""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

from django.utils.translation import gettext as _

from games.engine import Ruleset, role_name, rules_for
from games.models import Game, Phase, Player, Result, Submission
from games.text.presentation import describe, names_in
from games.text.words import ability_label, say_dropped


def phase_title(label: str) -> str:
    """N1 → "Notte 1", D2 → "Giorno 2", in the active language."""
    number = label[1:]
    return (_("Notte %(n)s") if label.startswith("N") else _("Giorno %(n)s")) % {"n": number}


def _stamp(instant: dt.datetime | None) -> str | None:
    return instant.isoformat() if instant else None


def _actions(
    subs: list[Submission], rules: Ruleset, roles: dict[int, str], zone: ZoneInfo
) -> list[dict[str, Any]]:
    """Each ability use in time order; one superseded by a later use of the same ability
    by the same player is marked ``superseded`` (only the last counts)."""
    setup = rules.setup.key
    last: dict[tuple[int, str], int] = {}
    for i, sub in enumerate(subs):
        last[(sub.player_id, sub.slot)] = i
    return [
        {"at": _stamp(sub.at), "time": f"{sub.at.astimezone(zone):%H:%M}",
         "actor": sub.player.name, "role": roles[sub.player_id],
         "role_name": role_name(roles[sub.player_id], setup), "ability": sub.slot,
         "ability_label": ability_label(rules, sub.slot),
         "target": sub.target.name if sub.target_id else None, "during": sub.during or None,
         "during_name": role_name(sub.during, setup) if sub.during else None,
         "fake_role": sub.fake_role or None,
         "fake_role_name": role_name(sub.fake_role, setup) if sub.fake_role else None,
         "vision": sub.vision, "superseded": last[(sub.player_id, sub.slot)] != i,
         "by_gm": sub.entered_by_id is not None, "reason": sub.reason}
        for i, sub in enumerate(subs)
    ]  # fmt: skip


def _votes(subs: list[Submission], zone: ZoneInfo) -> list[dict[str, Any]]:
    """Each vote event in time order: a first vote, a change, a withdrawal, a repeat (the
    same target again: the first time stands, WWW-D4, INQ-D5), and whether it still
    stood at the close (``standing``)."""
    events: list[dict[str, Any]] = []
    current: dict[int, tuple[int | None, dict[str, Any]]] = {}
    for sub in subs:
        previous = current.get(sub.player_id)
        before = previous[0] if previous else None
        if sub.abstain:  # the Boia's secret vote for nobody (INQ-D7a)
            change = "abstain"
        elif sub.target_id is None:  # a vote or a secret abstention taken back, or nothing
            held = previous is not None and (before is not None or previous[1]["abstain"])
            change = "withdraw" if held else "none"
        elif previous is None or before is None:
            change = "vote"
        elif before == sub.target_id:
            change = "repeat"
        else:
            change = "change"
        event = {"at": _stamp(sub.at), "time": f"{sub.at.astimezone(zone):%H:%M}",
                 "voter": sub.player.name,
                 "target": sub.target.name if sub.target_id else None, "change": change,
                 "abstain": sub.abstain, "standing": False,
                 "by_gm": sub.entered_by_id is not None, "reason": sub.reason}  # fmt: skip
        events.append(event)
        if change == "repeat":
            continue
        if previous is not None:
            previous[1]["standing"] = False
        event["standing"] = sub.target_id is not None
        current[sub.player_id] = (sub.target_id, event)
    return events


def _results(game: Game, rows: list[Result], seats: dict[int, str]) -> list[dict[str, Any]]:
    return [
        {"to": r.to.name, "kind": r.kind, "about": r.about.name if r.about_id else None,
         "value": names_in(r.value, seats),
         "text": describe(game.setup, r.kind, r.about.name if r.about_id else None,
                          names_in(r.value, seats))}
        for r in rows
    ]  # fmt: skip


def story_results(game: Game, label: str, players: list[Player]) -> list[dict[str, Any]]:
    """The private results of one phase (or of the deal, ``"setup"``), each as a sentence."""
    seats = {p.seat: p.name for p in players}
    rows = Result.objects.filter(game=game, phase=label).select_related("to", "about")
    return _results(game, list(rows), seats)


def story(game: Game, players: list[Player]) -> list[dict[str, Any]]:
    """Every committed phase, in order, as the spoiler tells it."""
    seats = {p.seat: p.name for p in players}
    roles = {p.pk: p.role for p in players}
    phases = list(game.phases.filter(status=Phase.Status.COMMITTED).order_by("index"))
    subs: dict[int, list[Submission]] = {p.pk: [] for p in phases}
    for sub in Submission.objects.filter(phase__in=phases).select_related("player", "target"):
        subs[sub.phase_id].append(sub)
    results: dict[str, list[Result]] = {}
    for result in Result.objects.filter(game=game).select_related("to", "about"):
        results.setdefault(result.phase, []).append(result)
    zone, rules = ZoneInfo(game.time_zone), rules_for(game)
    told = []
    for phase in phases:
        mine = subs[phase.pk]
        kinds = Submission.Kind
        told.append({
            "phase": phase.label, "title": phase_title(phase.label),
            "opened_at": _stamp(phase.opened_at), "closes_at": _stamp(phase.closes_at),
            "committed_at": _stamp(phase.committed_at),
            "actions": _actions([s for s in mine if s.kind == kinds.ACTION], rules, roles, zone),
            "votes": _votes([s for s in mine if s.kind == kinds.VOTE], zone),
            "secret_votes": _votes([s for s in mine if s.kind == kinds.SECRET_VOTE], zone),
            "dropped": [say_dropped(line, game.setup) for line in phase.outcome.get("dropped", [])],
            "overrides": [{"kind": o["kind"], "player": seats.get(o["seat"]),
                           "step": o.get("step"), "reason": o.get("reason", "")}
                          for o in phase.overrides],
            "deaths": phase.outcome.get("deaths", []),
            "execution": phase.outcome.get("execution"),
            "results": _results(game, results.get(phase.label, []), seats),
            "announcement": phase.outcome.get("announcement", ""),
        })  # fmt: skip
    return told
