"""What the GM's phase page works out from a phase's submissions, followed row by row, so
that the votes cast since it last looked extend it (issue 9: under a flood, the page after
each vote reads and counts the new rows only).

``Running`` passes once over the rows (``games.engine.phase_rows``, in time order) and
feeds each vote event to the engine's tally of the day (roles.engine.votes.DayTally: the
forum tally and the standing ballots), to the rules' judging as ``gather_inputs`` does it
(games.engine.JudgedVotes: each distinct vote's verdict on the state at the phase's
opening) and to the events that decide the day (games.deciding). A full pass and a pass
extended by the appended rows give the same results (tested).

``appended`` says whether the only changes since the kept results are vote events
appended after every row followed in the phase's time order: anything else (a removal, a correction,
a GM's entry with an earlier time, an action, any other audit event) asks for a full
pass.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any

from django.db import connection

from games.deciding import Deciding
from games.engine import (
    ABSTAIN,
    AT,
    ID,
    KIND,
    PLAYER,
    SLOT,
    TARGET,
    Inputs,
    JudgedVotes,
    Rebuilt,
    gather_inputs,
)
from games.models import AuditEvent, Phase, Submission, Will
from roles.engine.votes import DayTally

_ACTION = Submission.Kind.ACTION.value
_SECRET = Submission.Kind.SECRET_VOTE.value
_VOTE_KINDS = frozenset({Submission.Kind.VOTE.value, _SECRET})


class Running:
    """A phase's submission-derived results, extendable by appended vote events."""

    def __init__(self, built: Rebuilt, label: str, counts: dict[str, Any]) -> None:
        self.label = label
        self.names: dict[int | None, Any] = {p.pk: p.name for p in built.players}
        self.names[None] = None
        self.rows: list[tuple] = []  # every standing row, in time order
        self.actions: list[tuple] = []
        self.acted: set[int] = set()
        self.group_slots: set[str] = set()
        # what the rows were read against: submission_counts' total, latest id, audit event
        self.total = 0
        self.last_id = counts.get("last") or 0
        self.audited = counts.get("audited") or 0
        self.last_at = float("-inf")
        self.max_id = 0  # the latest row followed
        self.day = DayTally()  # the forum tally and the standing ballots of the vote events
        # the preview's votes: the legal events and their places, the refused ones
        self.judged = JudgedVotes({p.pk: p for p in built.players})
        self.deciding = Deciding()

    def add(self, rows: Iterable[tuple], built: Rebuilt) -> None:
        """Follow ``rows`` (after every row followed so far in time order); a vote is judged
        on ``built``'s state (the phase's opening: before the preview plays on it)."""
        label, names, tally = self.label, self.names, self.day.add
        judge, legal, deciding = self.judged.add, self.judged.legal, self.deciding.add
        for row in rows:
            self.rows.append(row)
            self.acted.add(row[PLAYER])
            if row[AT] > self.last_at:
                self.last_at = row[AT]
            if row[ID] > self.max_id:
                self.max_id = row[ID]
            if row[KIND] == _ACTION:
                self.actions.append(row)
                self.group_slots.add(row[SLOT])
                continue
            order = tally(names[row[PLAYER]], names[row[TARGET]], row[AT], row[KIND] == _SECRET,
                          row[ABSTAIN])  # fmt: skip
            verdict = judge(built, label, row, order)
            if verdict is not None:
                deciding(len(legal) - 1, verdict)
        self.total = len(self.rows)

    def extendable(self, counts: dict[str, Any]) -> bool:
        """Whether the rows followed are exactly those ``counts`` (``submission_counts``)
        counted (a vote stored between the two reads: the next page reads every row)."""
        return self.max_id <= self.last_id and self.total == counts["total"]

    def inputs(self, built: Rebuilt, phase: Phase, wills: list[Will]) -> Inputs:
        """``gather_inputs(..., deciding=True)`` of the rows followed: the actions and the
        wills gathered now, the votes from what was followed."""
        inputs = gather_inputs(built, phase, rows=self.actions, wills=wills, deciding=True)
        inputs.dropped.extend(self.judged.refused)
        inputs.votes = self.judged.inputs(self.deciding.kept())
        return inputs


def appended(phase: Phase, running: Running, counts: dict[str, Any]) -> list[tuple] | None:
    """The rows added to ``phase`` since ``running`` was read, up to ``counts``
    (``submission_counts``), in time order, when they are its only change: standing vote
    events, each with an audit event "vote" and nothing else audited in the game, each
    later than every row followed (among themselves, in any order: concurrent votes take
    their ids and their times in either order), the standing total grown by as many.
    None: anything else changed."""
    last, audited = counts.get("last") or 0, counts.get("audited") or 0
    if connection.vendor != "postgresql" or last <= running.last_id:
        return None
    with connection.cursor() as cursor:
        cursor.execute(_audits_sql(), [phase.game_id, running.audited, audited])
        votes, others = cursor.fetchone()
        if others or not votes or counts["total"] != running.total + votes:
            return None
        cursor.execute(_appended_sql(), [phase.pk, running.last_id, last])
        rows = cursor.fetchall()
    # each new id is above every id followed: at the same time as the latest row followed,
    # a new row comes after it (times to the microsecond are exact as float8 seconds)
    if len(rows) != votes or rows[0][AT] < running.last_at:
        return None
    for row in rows:
        if row[-1] or row[KIND] not in _VOTE_KINDS:  # superseded, or an action
            return None
    running.last_id, running.audited = last, audited
    return [row[:-1] for row in rows]


@cache
def _audits_sql() -> str:
    table = f'"{AuditEvent._meta.db_table}"'
    return (f"SELECT COUNT(*) FILTER (WHERE \"kind\" = 'vote'),"
            f" COUNT(*) FILTER (WHERE \"kind\" <> 'vote') FROM {table}"
            f' WHERE "game_id" = %s AND "id" > %s AND "id" <= %s')  # fmt: skip


@cache
def _appended_sql() -> str:
    """``phase_rows``' columns and order, with whether the row was superseded."""
    from games.engine import _phase_rows_sql

    table = f'"{Submission._meta.db_table}"'
    select = _phase_rows_sql().split(f" FROM {table} WHERE", 1)[0]
    return (f'{select}, {table}."superseded_at" IS NOT NULL FROM {table}'
            f' WHERE {table}."phase_id" = %s AND {table}."id" > %s AND {table}."id" <= %s'
            f' ORDER BY {table}."at", {table}."id"')  # fmt: skip


__all__ = ["ID", "Running", "appended"]
