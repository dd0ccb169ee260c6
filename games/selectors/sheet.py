"""The GM's sheet as the game stands now (issue 12 §4): who is alive, who died in which
phase and of what (the setup's words), and the forum's private groups as they must be now:
who to take out of a living group, who to let into the Cemetery and when (WWW-R6, WWW-R46,
WWW-D23, WWW-D25; INQ-R3, INQ-R33). Read by replaying the committed phases one by one with
the same engine the resolution uses, so every name is today's forum name."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.utils import timezone

from games.engine import (
    Channel,
    Rebuilt,
    replay,
    role_name,
    rules_for,
    start_state,
    will_deadline_at,
)
from games.models import Game, Phase, Player, Will

CEMETERY = "cimitero"  # roles.engine.channels.cemetery's key


@dataclass
class Fate:
    """How a player left the game: the phase and the cause (a key of the setup's causes)."""

    name: str
    role: str  # the card's title
    phase: str
    cause: str


@dataclass
class Entry:
    """A dead player's way into the Cemetery: at once, or once he hands in his will or its
    deadline passes (WWW-R46, WWW-D23)."""

    name: str
    since: str  # the phase he died in
    until: dt.datetime | None = None  # not admitted before this, unless he hands it in


@dataclass
class GroupNow:
    """A private group as it must be on the forum now."""

    channel: Channel
    left: list[tuple[str, str]] = field(default_factory=list)  # (name, phase): take them out
    admitted: list[Entry] = field(default_factory=list)  # Cemetery: already let in
    waiting: list[Entry] = field(default_factory=list)  # Cemetery: not yet

    @property
    def is_cemetery(self) -> bool:
        return self.channel.key == CEMETERY


@dataclass
class SheetNow:
    fates: dict[str, Fate] = field(default_factory=dict)  # the dead and the departed, by name
    groups: list[GroupNow] = field(default_factory=list)
    at_start: list[Channel] = field(default_factory=list)  # the groups to create at the deal
    alive: list[str] = field(default_factory=list)
    phases: int = 0  # committed phases so far

    @property
    def gone(self) -> list[Fate]:
        """The dead and the departed, in the order they left."""
        return list(self.fates.values())


def _everyone(channel: Channel) -> set[str]:
    return {*channel.members, *channel.readers}


def sheet_now(game: Game, players: list[Player]) -> SheetNow:
    """Fates and groups after every committed phase, phase by phase."""
    rules = rules_for(game)
    state, _ = start_state(game, players)
    built = Rebuilt(game, rules, state, players, {p.seat: p for p in players})
    sheet = SheetNow(at_start=rules.channels(state))
    left: dict[str, dict[str, str]] = {c.key: {} for c in sheet.at_start}
    before = {c.key: c for c in sheet.at_start}
    for phase in game.phases.filter(status=Phase.Status.COMMITTED).order_by("index"):
        outcome = replay(built, phase.label, phase.inputs, phase.overrides)
        for death in outcome.deaths:
            card = role_name(state.by_name[death.player].dealt_role, rules.key)
            sheet.fates[death.player] = Fate(death.player, card, phase.label, death.cause)
        after = {c.key: c for c in rules.channels(state)}
        for key, channel in after.items():
            gone = _everyone(before.get(key, channel)) - _everyone(channel)
            left.setdefault(key, {}).update(dict.fromkeys(sorted(gone), phase.label))
            for name in _everyone(channel):
                left[key].pop(name, None)  # back in (a reader who became a member...)
        before = after
        sheet.phases += 1
    sheet.alive = [p.name for p in state.players if p.alive]
    handed = set(
        Will.objects.filter(player__game=game, handed_in_at__isnull=False)
        .values_list("player__name", flat=True)
    )  # fmt: skip
    now = timezone.now()
    for channel in before.values():
        group = GroupNow(channel, list(left.get(channel.key, {}).items()))
        if group.is_cemetery:
            for name in channel.members:
                fate = sheet.fates.get(name)
                entry = Entry(name, fate.phase if fate else "")
                if state.by_name[name].dead:
                    entry.until = will_deadline_at(game, rules, state, name)
                if entry.until is None or name in handed or now >= entry.until:
                    group.admitted.append(entry)
                else:
                    group.waiting.append(entry)
        sheet.groups.append(group)
    return sheet
