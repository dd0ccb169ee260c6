"""What the GM's phase page works out from a phase's submissions, followed row by row, so
that the votes cast since it last looked extend it (issue 9: under a flood, the page after
each vote reads and counts the new rows only).

``Running`` passes once over the rows (``games.engine.phase_rows``, in time order) and
keeps, for each vote event: the engine's forum tally (roles.engine.votes.forum_tally),
the standing ballots (roles.engine.votes.current_ballots), each distinct vote's verdict
on the state at the phase's opening with the legal events and the refused ones
(games.engine.gather_inputs), and the events that decide the day (games.deciding). A
full pass and a pass extended by the appended rows give the same results (tested).

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
from games.engine import ABSTAIN, AT, ID, KIND, PLAYER, SLOT, TARGET, Inputs, Rebuilt, gather_inputs
from games.models import AuditEvent, Phase, Submission, Will
from games.words import dropped
from roles.engine.errors import RuleViolation
from roles.engine.model import Vote
from roles.engine.votes import ForumBallot, TrueVotes, true_votes_of

_ACTION = Submission.Kind.ACTION.value
_SECRET = Submission.Kind.SECRET_VOTE.value
_VOTE_KINDS = frozenset({Submission.Kind.VOTE.value, _SECRET})
_UNJUDGED = object()


class Running:
    """A phase's submission-derived results, extendable by appended vote events."""

    def __init__(self, built: Rebuilt, label: str, counts: dict[str, Any]) -> None:
        self.label = label
        self.names: dict[int | None, Any] = {p.pk: p.name for p in built.players}
        self.names[None] = None
        self.seats: dict[int | None, Any] = {p.pk: p.seat for p in built.players}
        self.seats[None] = None
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
        # the forum tally: each target's ballots and which are struck, who stands where
        self.lines: dict[str, list[ForumBallot]] = {}
        self.struck: dict[str, list[bool]] = {}
        self.standing_count: dict[str, int] = {}
        self.standing: dict[str, tuple[str, ForumBallot, int]] = {}
        # the standing public and secret ballots ({voter: (target, (0, at, seq))})
        self.public: dict[str, tuple] = {}
        self.secret: dict[str, tuple] = {}
        self.events = 0  # vote events so far
        # the preview's votes: verdicts, legal events and their places, refusals
        self.judged: dict[tuple, Any] = {}
        self.legal: list[tuple] = []
        self.times: list[int] = []
        self.refused: list[dict] = []
        self.deciding = Deciding()

    def add(self, rows: Iterable[tuple], built: Rebuilt) -> None:
        """Follow ``rows`` (after every row followed so far in time order); a vote is judged
        on ``built``'s state (the phase's opening: before the preview plays on it)."""
        rules, state, label, names = built.rules, built.state, self.label, self.names
        lines, struck, standing = self.lines, self.struck, self.standing
        counted = self.standing_count
        public, secret_book, judged = self.public, self.secret, self.judged
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
            order = self.events
            self.events += 1
            voter, target = names[row[PLAYER]], names[row[TARGET]]
            at, abstain = row[AT], row[ABSTAIN]
            secret = row[KIND] == _SECRET
            if not secret:  # forum_tally
                previous = standing.get(voter)
                if previous is None or previous[0] != target:
                    if previous is not None:
                        previous[1].struck = True
                        struck[previous[0]][previous[2]] = True
                        counted[previous[0]] -= 1
                        del standing[voter]
                    if target is not None:
                        ballot = ForumBallot(voter, at)
                        if target not in lines:
                            lines[target], struck[target], counted[target] = [], [], 0
                        standing[voter] = (target, ballot, len(lines[target]))
                        lines[target].append(ballot)
                        struck[target].append(False)
                        counted[target] += 1
            book = secret_book if secret else public  # current_ballots
            if target is None and not abstain:
                book.pop(voter, None)
            else:
                kept = book.get(voter)
                if kept is None or kept[0] != target:
                    book[voter] = (target, (0, at, order))
            key = (row[PLAYER], row[TARGET], row[KIND], abstain)  # gather_inputs
            verdict = judged.get(key, _UNJUDGED)
            if verdict is _UNJUDGED:
                vote = Vote(voter, target, order, secret, abstain)
                try:
                    rules.check_vote(state, label, vote)
                    seats = self.seats
                    verdict = (seats[row[PLAYER]], seats[row[TARGET]], secret, abstain)
                except RuleViolation as exc:
                    verdict = dropped(exc)
                judged[key] = verdict
            if type(verdict) is dict:
                self.refused.append(verdict)
                continue
            self.deciding.add(len(self.legal), verdict)
            self.legal.append(verdict)
            self.times.append(order)
        self.total = len(self.rows)

    def extendable(self, counts: dict[str, Any]) -> bool:
        """Whether the rows followed are exactly those ``counts`` (``submission_counts``)
        counted (a vote stored between the two reads: the next page reads every row)."""
        return self.max_id <= self.last_id and self.total == counts["total"]

    def tally(self) -> tuple[list[tuple[str, list[ForumBallot], list[bool]]], set[str]]:
        """``forum_tally``'s lines (with their ballots struck or not) and who has a standing
        vote, as of now (copies: later rows leave them as they are)."""
        counted = self.standing_count
        order = sorted(self.lines, key=lambda target: -counted[target])
        lines = [(t, list(self.lines[t]), list(self.struck[t])) for t in order]
        return lines, set(self.standing)

    def true_votes(self) -> TrueVotes:
        """``roles.engine.votes.true_votes`` of every vote event followed."""
        return true_votes_of(dict(self.public), dict(self.secret))

    def inputs(self, built: Rebuilt, phase: Phase, wills: list[Will]) -> Inputs:
        """``gather_inputs(..., deciding=True)`` of the rows followed: the actions and the
        wills gathered now, the votes from what was followed."""
        inputs = gather_inputs(built, phase, rows=self.actions, wills=wills, deciding=True)
        inputs.dropped.extend(self.refused)
        legal, times = self.legal, self.times
        inputs.votes = [{"voter": legal[i][0], "target": legal[i][1], "at": times[i],
                         "secret": legal[i][2], "abstain": legal[i][3]}
                        for i in self.deciding.kept()]  # fmt: skip
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
