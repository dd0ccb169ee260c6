"""A commit's work once the phase is taken: play it from its snapshot, store what it
decided, open what follows, carry the state on (for the GM's commit and the clock's)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from django.contrib.auth.models import AbstractBaseUser
from django.utils import translation
from django.utils.translation import gettext as _

from games.engine import (
    GameState,
    Inputs,
    PhaseOutcome,
    Rebuilt,
    announce,
    built_before,
    gather_inputs,
    post,
    replay,
    stored_value,
)
from games.models import AuditEvent, Game, KeptSubmission, Phase, Result, Submission, Will
from games.selectors.board import timed_tally
from games.selectors.counts import TieNote, add_tie_line, tie_note
from games.services.game import next_deadline, phase_open
from games.services.kept import kept_restore
from games.text.posts import FORMATS, render


def phase_resolve(
    phase: Phase,
    game: Game,
    *,
    user: AbstractBaseUser | None,
    now: dt.datetime,
    events: tuple[AuditEvent, ...] = (),
) -> None:
    """The commit's work, in the transaction that has just marked ``phase`` committed (its
    row as that update left it): resolve it from its snapshot (no rebuild of the game),
    store the engine's input and output and the results, open what follows, and carry the
    state after it to the phases still to resolve. ``events``: audit events written with
    the commit's own (the deadline's, for the clock)."""
    built = built_before(game, phase)
    # the posts' tally and tie note read a day's votes with their players; a night needs none
    submissions = [] if phase.is_night else list(
        phase.submissions.select_related("player", "target")
    )  # fmt: skip
    resolved = Resolved.play(built, phase, submissions, now=now)
    following = None
    if resolved.opens_night is not None:  # dawn: the day and the next night open
        following = phase_open(game, phase.index + 1, now=now, opened_by=phase)
        phase_open(game, phase.index + 2, now=resolved.opens_night, opened_by=phase)
    elif not built.state.over:
        following = game.phases.filter(index=phase.index + 1).first() or phase_open(
            game, phase.index + 1, now=now, opened_by=phase
        )
    resolved.record(following.closes_at if following is not None else None)
    phase.save(update_fields=["inputs", "outcome"])
    if results := resolved.results(Result.objects.filter(game=game).count()):
        Result.objects.bulk_create(results)
    if built.state.over:
        game.status = Game.Status.FINISHED
        game.save(update_fields=["status"])
    if KeptSubmission.objects.filter(game=game, status=KeptSubmission.Status.KEPT).exists():
        kept_restore(game=game, rules=built.rules, state=built.state, user=user)  # issue 12 §3
    AuditEvent.objects.bulk_create([*events, resolved.audit(user)])


@dataclass
class Resolved:
    """A phase played by the engine, before anything is stored: what a commit writes, for
    one phase (``phase_resolve``) or for a batch of the clock's closes."""

    built: Rebuilt  # its state is the state after the phase
    phase: Phase
    inputs: Inputs
    outcome: PhaseOutcome
    submissions: list[Submission]
    opens_night: dt.datetime | None  # after a night: the ``now`` the next night opens at
    following: dt.datetime | None = None  # after a day: its night's deadline, when read

    @classmethod
    def play(
        cls,
        built: Rebuilt,
        phase: Phase,
        submissions: list[Submission],
        *,
        now: dt.datetime,
        rows: list | None = None,
        wills: list[Will] | None = None,
    ) -> Resolved:
        inputs = gather_inputs(built, phase, rows=rows, wills=wills)
        outcome = replay(built, phase.label, inputs.as_json(), phase.overrides)
        opens_night = None
        if not built.state.over and phase.is_night:
            # the night's deadline comes after its day's (issue 10, defects 1 and 7)
            game = built.game
            day_closes = next_deadline(game, game.vote_close_time, now)
            opens_night = day_closes - dt.timedelta.resolution
        return cls(built, phase, inputs, outcome, submissions, opens_night)

    def record(self, following_closes_at: dt.datetime | None) -> None:
        """The engine's input and output on the phase row (not saved)."""
        game, state, outcome = self.built.game, self.built.state, self.outcome
        self.phase.inputs = self.inputs.as_json()
        self.phase.outcome = {
            "deaths": [d.as_dict() for d in outcome.deaths],
            "execution": outcome.execution.as_dict() if outcome.execution else None,
            "trace": [line.as_dict() for line in outcome.trace],
            "dropped": self.inputs.dropped,
            "announcement": announce(state, outcome, lang=game.language),
            "posts": forum_posts(
                game, self.phase, state, outcome, self.submissions, following_closes_at
            ),
            "winners": state.winners,
            "winning_factions": state.winning_factions,
        }

    def results(self, start: int) -> list[Result]:
        """The private results, numbered from ``start`` (the game's results so far)."""
        by_name = {p.name: p for p in self.built.players}
        return [
            Result(game=self.built.game, phase=self.phase.label, to=by_name[r.to], kind=r.kind,
                   order=start + i, about=by_name.get(r.about) if r.about else None,
                   value=stored_value(self.built.rules, r.kind, r.value, by_name))
            for i, r in enumerate(self.outcome.results)
        ]  # fmt: skip

    def audit(self, user: AbstractBaseUser | None) -> AuditEvent:
        return AuditEvent(game=self.built.game, kind="commit", user=user, player=None,
                          detail={"phase": self.phase.label,
                                  "deaths": [d.player for d in self.outcome.deaths]})  # fmt: skip


def forum_posts(
    game: Game,
    phase: Phase,
    state: GameState,
    outcome: PhaseOutcome,
    submissions: list[Submission],
    deadline: dt.datetime | None,
    formats: tuple[str, ...] = FORMATS,
    *,
    tally: list | None = None,
    tie: TieNote | None = None,
) -> dict[str, str]:
    """The phase's public post in every format (or in ``formats``), with the next deadline
    (the preview shows exactly what the commit stores). ``tally`` and ``tie``: the public
    votes' forum tally of ``submissions`` and the tie's explanation, when the caller has
    them already (the GM's phase page: each is a pass over thousands of vote events)."""
    with translation.override(game.language):
        what = _("Votazioni aperte") if phase.is_night else _("Consegna dei poteri")
    if phase.is_night:
        tally = None
    elif tally is None:
        tally = timed_tally(submissions)[0]
    parts = post(state, outcome, game.language)
    if not phase.is_night and outcome.execution is not None:  # a tie, explained (issue 12)
        tie = tie or tie_note(game, outcome, submissions)
        add_tie_line(parts, tie.public, outcome.execution.executed)
    return {
        fmt: render(parts, fmt, lang=game.language, time_zone=game.time_zone, tally=tally,
                    next_deadline=(what, deadline) if deadline is not None else None,
                    day=phase.closes_at.astimezone(ZoneInfo(game.time_zone)).date())
        for fmt in formats
    }  # fmt: skip
