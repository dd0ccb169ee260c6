"""Services of the running game's submissions: which phases take them, a player's action,
vote and will, a GM's entry on a player's behalf (the preview, commit and undo:
games/services/phases.py)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.db.models.functions import Now
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine import Action, Opening, RuleViolation, Vote, opening_state, rebuild, word_count
from games.models import Game, Phase, Player, Submission, Will
from games.selectors.wills import will_desk
from games.selectors.window import IN_TIME, forum_time_place, outside_message, waits_for_topic
from games.services.game import audit, audit_event
from games.services.vote_cap import vote_changes_check
from games.text.words import refusal


def open_phases(game: Game) -> list[Phase]:
    """The phases taking submissions: by day, the day and the coming night, whose actions
    may be sent from the start of the day (WWW-D26, INQ-D19)."""
    if game.status == Game.Status.FINISHED:
        return []
    return list(game.phases.filter(status=Phase.Status.OPEN).order_by("index"))


def _open_for_submissions(
    phase: Phase,
    received_at: dt.datetime | None = None,
    *,
    by_gm: bool = False,
    forum_time: bool = False,
) -> tuple[Phase, dt.datetime]:
    """Lock the phase row and check, by the database clock, that it still takes
    submissions; return it with the time the submission counts at: when it reached the
    site (``received_at``, stamped by the first middleware), never later than the database
    clock. The close (an update of the row) waits for the submissions in flight: nothing
    sent before the deadline is lost and nothing after it is taken.

    ``phase`` needs only its id and its game's (a player's form names a phase by id): a
    phase of another game is refused like a closed one. One query: the row, the database
    clock and whether an earlier phase is still unresolved.

    A day waiting for its votes from the thread (closed at its deadline, issue 28 class
    6) takes the GM's entries timed at their forum post (``forum_time``), nothing else."""
    earlier = Phase.objects.filter(game_id=OuterRef("game_id"), index__lt=OuterRef("index"))
    locked = (
        Phase.objects.select_for_update(no_key=True)
        .annotate(db_now=Now(), earlier_open=Exists(earlier.exclude(status=Phase.Status.COMMITTED)))
        .filter(pk=phase.pk, game_id=phase.game_id)
        .first()
    )
    if locked is None:
        raise ValidationError(_("Questa fase è chiusa: non si accettano più invii."))
    now = locked.db_now
    if received_at is not None:
        now = min(now, received_at)
    waiting = by_gm and forum_time and waits_for_topic(locked, now)
    if not waiting and not takes_submissions(locked, now, locked.earlier_open):
        raise ValidationError(_("La fase %(phase)s è chiusa: non si accettano più invii.")
                              % {"phase": locked.label})  # fmt: skip
    if locked.players_closed and not by_gm:
        raise ValidationError(_("Il master ha riaperto %(phase)s solo per le sue correzioni.")
                              % {"phase": locked.label})  # fmt: skip
    return locked, now


def takes_submissions(phase: Phase, now: dt.datetime, earlier_open: bool) -> bool:
    """Whether ``phase`` (as read) takes a submission counted at ``now``: open, and before
    its deadline, or its clock paused, or an earlier phase still unresolved (a night past
    its deadline closes after its day, issue 10, defect 1)."""
    return phase.status == Phase.Status.OPEN and (
        phase.paused_at is not None or now < phase.closes_at or earlier_open
    )


def _prepare(
    phase: Phase,
    player: Player,
    target: Player | None,
    received_at: dt.datetime | None = None,
    *,
    by_gm: bool = False,
    forum_time: bool = False,
) -> tuple[Phase, dt.datetime, Game, Opening]:
    """What every submission starts with: the phase still open (locked, by the database
    clock), the player and target of this game, the engine's current state (rebuilt from
    the stored inputs)."""
    phase, now = _open_for_submissions(phase, received_at, by_gm=by_gm, forum_time=forum_time)
    if player.game_id != phase.game_id or (target is not None and target.game_id != player.game_id):
        raise ValidationError(_("Giocatore sconosciuto."))
    game = player.game  # loaded with the player: no extra query
    return phase, now, game, opening_state(game)


def check_refusal(setup_key: str, callable_: Any, *args: Any) -> None:
    """Run an engine check; its refusal as a ``ValidationError`` in the player's words."""
    try:
        callable_(*args)
    except RuleViolation as exc:
        raise ValidationError(refusal(exc, setup_key)) from exc


@transaction.atomic
def action_submit(
    *,
    phase: Phase,
    player: Player,
    target: Player | None = None,
    during: str = "",
    fake_role: str = "",
    vision: bool = False,
    entered_by: AbstractBaseUser | None = None,
    reason: str = "",
    received_at: dt.datetime | None = None,
) -> Submission:
    """Record an ability use, if the rules allow it now (the engine's own check)."""
    phase, now, game, built = _prepare(phase, player, target, received_at,
                                       by_gm=entered_by is not None)  # fmt: skip
    action = Action(player.name, target.name if target else None, during or None,
                    fake_role or None, vision)  # fmt: skip
    actor = built.state.by_name[player.name]
    check_refusal(built.rules.key, built.rules.require_in_game, actor, phase.label)
    check_refusal(built.rules.key, built.rules.check_action, built.state, phase.label, action)
    ability = built.rules.ability_key(actor, action)
    submission = Submission.objects.create(
        phase=phase, player=player, kind=Submission.Kind.ACTION, slot=ability, target=target,
        during=during, fake_role=fake_role, vision=vision, entered_by=entered_by, reason=reason,
        at=now,
    )  # fmt: skip
    audit(game, "action", user=entered_by, player=player, phase=phase.label,
          slot=ability, target=target.name if target else None, during=during,
          fake_role=fake_role, reason=reason)  # fmt: skip
    return submission


@dataclass
class Cast:
    """A vote just stored, with what it was judged on (the player's page shows its form
    again from the same state, without another query)."""

    submission: Submission
    phase: Phase  # the row as locked
    opening: Opening


def vote_cast(
    *,
    phase: Phase,
    player: Player,
    target: Player | None,
    secret: bool = False,
    abstain: bool = False,
    at: dt.datetime | None = None,
    entered_by: AbstractBaseUser | None = None,
    reason: str = "",
    received_at: dt.datetime | None = None,
) -> Submission:
    """Record a vote event (a vote, a change, a withdrawal with ``target=None``). A time
    the GM enters (``at``, read in the forum thread) must fall within the phase's window
    (games/selectors/window.py: the one rule of the GM's entries and the thread import,
    issue 31 major 2)."""
    return vote_record(phase=phase, player=player, target=target, secret=secret,
                       abstain=abstain, at=at, entered_by=entered_by, reason=reason,
                       received_at=received_at).submission  # fmt: skip


@transaction.atomic
def vote_record(
    *,
    phase: Phase,
    player: Player,
    target: Player | None,
    secret: bool = False,
    abstain: bool = False,
    at: dt.datetime | None = None,
    entered_by: AbstractBaseUser | None = None,
    reason: str = "",
    received_at: dt.datetime | None = None,
) -> Cast:
    """``vote_cast``, answering what the vote was judged on as well (the player's
    page draws the vote's form again from it)."""
    phase, now, game, built = _prepare(phase, player, target, received_at,
                                       by_gm=entered_by is not None,
                                       forum_time=at is not None)  # fmt: skip
    if at is not None and forum_time_place(phase, at, now) != IN_TIME:
        raise ValidationError(outside_message(phase, now))
    vote = Vote(player.name, target.name if target else None, 0, secret, abstain)
    check_refusal(built.rules.key, built.rules.check_vote, built.state, phase.label, vote)
    vote_changes_check(phase, player)  # a rule of the house (games/services/vote_cap.py)
    kind = Submission.Kind.SECRET_VOTE if secret else Submission.Kind.VOTE
    submission = Submission(
        phase=phase, player=player, kind=kind, target=target, abstain=abstain,
        at=at or now, entered_by=entered_by, reason=reason,
    )  # fmt: skip
    event = audit_event(game, "vote", user=entered_by, player=player, phase=phase.label,
                        secret=secret, target=target.name if target else None,
                        reason=reason)  # fmt: skip
    submission.save(force_insert=True)
    event.save(force_insert=True)
    return Cast(submission, phase, built)


@transaction.atomic
def will_save(*, player: Player, text: str, hand_in: bool = True) -> Will:
    """Save a player's will (WWW-R41..R47). A draft while he lives; once he is dead,
    saving hands it in and freezes it, as its deadline does (WWW-R46, WWW-D23), unless
    ``hand_in`` is False: then it stays a draft he may still correct (issue 31 minor);
    nothing changes after the end of the game; loners write none (WWW-R44)."""
    game = player.game
    built = rebuild(game)
    Will.objects.get_or_create(player=player)
    will = Will.objects.select_for_update().get(player=player)  # one hand-in at a time
    desk = will_desk(game, built.rules, built.state, player, will)
    if desk is None:
        raise ValidationError(_("In questa partita non si scrivono testamenti."))
    if not desk.editable:
        raise ValidationError(desk.refused or desk.frozen)
    will.text = text
    handed_in = hand_in and not desk.alive
    will.handed_in_at = timezone.now() if handed_in else None  # alive again after an undo
    will.save(update_fields=["text", "handed_in_at", "updated_at"])
    audit(game, "will", player=player, words=word_count(text), handed_in=handed_in)
    return will
