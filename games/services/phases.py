"""Services of the running game: its phases, the preview, commit and undo (the submissions:
games/services/submissions.py)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine import (
    CORRECTION_KINDS,
    GameState,
    Inputs,
    PhaseOutcome,
    Rebuilt,
    Ruleset,
    announce,
    gather_inputs,
    rebuild,
    replay,
    ruleset_for,
)
from games.models import Game, Phase, Player, Result, Will
from games.selectors.board import Board
from games.selectors.counts import explain_tie
from games.services.commit import forum_posts, phase_resolve
from games.services.game import audit, next_deadline
from games.services.kept import submissions_keep
from games.text.rettifica import outcome_summary


def current_phase(game: Game) -> Phase | None:
    """The first phase not yet committed (the one to resolve next), while the game runs."""
    if game.status == Game.Status.FINISHED:
        return None
    return game.phases.exclude(status=Phase.Status.COMMITTED).order_by("index").first()


def phases_on_the_page(game: Game) -> tuple[Phase | None, list[Phase]]:
    """The GM's phase page's phases, in one query: the last one resolved (the one an undo
    takes back: its input and outcome left unread, a flooded day's are large) and every
    one still to resolve, the current one first (none once the game is over)."""
    committed = Phase.Status.COMMITTED
    last = game.phases.filter(status=committed).order_by("-index").values("pk")[:1]
    rows = list(game.phases.filter(~Q(status=committed) | Q(pk=Subquery(last)))
                .defer("inputs", "outcome").order_by("index"))  # fmt: skip
    undone = rows.pop(0) if rows and rows[0].status == committed else None
    return undone, [] if game.status == Game.Status.FINISHED else rows


@dataclass
class Preview:
    phase: Phase
    state: GameState  # after the phase
    outcome: PhaseOutcome
    inputs: Inputs
    over: bool
    winners: list[str] | None = None
    winning_factions: list[str] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def outcome_json(self) -> dict[str, Any]:
        """The deaths and the execution as a commit stores them on the phase."""
        execution = self.outcome.execution
        return {"deaths": [d.as_dict() for d in self.outcome.deaths],
                "execution": execution.as_dict() if execution else None}  # fmt: skip

    @cached_property
    def announcement(self) -> str:
        """The engine's announcement of the outcome (made when asked: the page shows the
        forum post instead)."""
        return announce(self.state, self.outcome, lang=self.phase.game.language)


def phase_preview(
    phase: Phase,
    built: Rebuilt | None = None,
    *,
    rows: list | None = None,
    wills: list[Will] | None = None,
    reread: bool = True,
) -> Preview:
    """What the engine would decide now, with its reasons (nothing is stored). ``built``:
    the state after the committed phases, when the caller has it (it is played on);
    ``rows`` (``games.engine.phase_rows``) and ``wills``: read already by the caller;
    ``reread``: False when ``phase`` was read in this request (its corrections are
    current)."""
    if reread:
        phase.refresh_from_db(fields=["overrides", "status"])
    built = built or rebuild(phase.game)
    # the commit's input, gathered the same way: the same outcome
    inputs = gather_inputs(built, phase, rows=rows, wills=wills)
    return preview_of(built, phase, inputs)


def preview_of(built: Rebuilt, phase: Phase, inputs: Inputs) -> Preview:
    """The preview of ``phase`` resolved from ``inputs``, played on ``built``'s state (with
    the phase's corrections)."""
    outcome = replay(built, phase.label, inputs.as_json(), phase.overrides)
    state = built.state
    return Preview(phase, state, outcome, inputs, state.over, state.winners,
                   state.winning_factions)  # fmt: skip


def preview_post(
    board: Board, preview: Preview, rules: Ruleset, following: dt.datetime
) -> dict[str, str]:
    """The post the GM's phase page shows for ``preview`` (BBCode; the posts page has every
    format), from ``board``'s tally; a day's tie explained on the board (``board.tie``)."""
    game, phase = board.game, board.phase
    if phase.label.startswith("D") and preview.outcome.execution is not None:
        rule = rules.vote_rules.get("tie", "")  # read once: the post and the GM's note
        board.tie = explain_tie(game, preview.outcome, board.true_votes, rule)
    deadline = None if preview.over else following
    return forum_posts(game, phase, preview.state, preview.outcome, [], deadline,
                       formats=("bbcode",), tally=board.tally, tie=board.tie)  # fmt: skip


@transaction.atomic
def override_add(
    *, phase: Phase, user: AbstractBaseUser, kind: str, player: Player, reason: str,
    step: str = "",
) -> None:  # fmt: skip
    """A GM correction, kept with its reason: an input of the resolution (a death prevented
    or added, at a named step of the phase or at its end), so preview, commit and every
    rebuild resolve the phase with it and every consequence follows."""
    if kind not in CORRECTION_KINDS or not reason.strip() or player.game_id != phase.game_id:
        raise ValidationError(_("Serve un tipo valido, un giocatore e una motivazione."))
    if step and step not in ruleset_for(phase.game.setup).steps(phase.label):
        raise ValidationError(_("Passo sconosciuto per questa fase."))
    locked = Phase.objects.select_for_update().get(pk=phase.pk)
    if locked.status == Phase.Status.COMMITTED:
        raise ValidationError(_("La fase è già risolta."))
    correction = {"kind": kind, "seat": player.seat, "step": step or None, "reason": reason}
    locked.overrides = [*locked.overrides, correction]
    locked.save(update_fields=["overrides"])
    audit(phase.game, "override", user=user, player=player, phase=phase.label, change=kind,
          step=step or None, reason=reason)  # fmt: skip


@transaction.atomic
def phase_commit(*, phase: Phase, user: AbstractBaseUser | None) -> bool:
    """Apply the phase, exactly once (a double click or a second tab does nothing):
    store the engine's input and output, the private results, and open the next phase.
    Returns False when it was already committed."""
    now = timezone.now()
    won = (
        Phase.objects.filter(pk=phase.pk)
        .exclude(status=Phase.Status.COMMITTED)
        .update(status=Phase.Status.COMMITTED, committed_at=now)
    )
    if won != 1:
        return False
    phase.refresh_from_db()
    phase_resolve(phase, phase.game, user=user, now=now)
    return True


def following_deadline(game: Game, phase: Phase, after: dt.datetime) -> dt.datetime:
    """The deadline a phase's post announces: the vote close after a night, the powers
    deadline after a day."""
    at = game.vote_close_time if phase.is_night else game.powers_close_time
    return next_deadline(game, at, after)


@transaction.atomic
def phase_undo(
    *, game: Game, user: AbstractBaseUser, phase_id: int | None = None, players: bool = True
) -> Phase:
    """Take back the last commit, exactly once: ``phase_id`` names the commit the GM saw
    (a second click, or a second tab, finds it already taken back and does nothing). Its
    results go, the phase it opened goes (what was sent for it is kept, to come back
    when it opens again: games/services/kept.py), and it is open again for the GM. If its deadline
    has passed, its clock is held (the tick never closes it again) until the GM moves or
    resumes it; ``players`` says whether players may send again meanwhile (the GM always
    may)."""
    last = (
        Phase.objects.select_for_update()
        .filter(game=game, status=Phase.Status.COMMITTED)
        .order_by("-index")
        .first()
    )
    if last is None:
        raise ValidationError(_("Non c'è nessuna fase risolta da annullare."))
    if phase_id is not None and last.pk != phase_id:
        raise ValidationError(_("Questa risoluzione è già stata annullata: ricontrolla la pagina."))
    following = Phase.objects.filter(game=game, opened_by=last)
    kept = submissions_keep(game, following)  # back when the phase opens again (issue 12 §3)
    following.delete()
    Result.objects.filter(game=game, phase=last.label).delete()
    now = timezone.now()
    seats = dict(game.players.values_list("name", "seat"))
    if last.outcome:  # what the thread was told: the Rettifica compares it (issue 31 major 4)
        last.retracted = outcome_summary(last.outcome, last.inputs, seats)
    last.status = Phase.Status.OPEN
    last.paused_at = now if now >= last.closes_at else None
    last.players_closed = not players
    last.committed_at = None
    last.inputs, last.outcome = {}, {}
    last.save(update_fields=["status", "paused_at", "players_closed", "committed_at", "inputs",
                             "outcome", "retracted"])  # fmt: skip
    game.status = Game.Status.RUNNING
    game.save(update_fields=["status"])
    audit(game, "undo", user=user, phase=last.label, kept_submissions=kept,
          held=last.paused_at is not None, players=players)  # fmt: skip
    return last
