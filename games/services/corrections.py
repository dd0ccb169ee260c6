"""Fixing a mistake without losing anything (issue 12 §3): the GM corrects or removes a
submission, with a reason; a player withdraws his saved night action; the GM removes a
correction (override) he added. Nothing is deleted: a submission is marked superseded
(``Submission.every`` keeps it, the GM's history shows it struck), a removed override
stays in the audit log with both reasons."""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine import Action, Vote, opening_state, ruleset_for
from games.models import Game, Phase, Player, Submission
from games.selectors.window import IN_TIME, forum_time_place, outside_message
from games.services.game import audit
from games.services.submissions import _open_for_submissions, check_refusal
from games.text.words import phase_name, say


def _editable(phase: Phase) -> Phase:
    """The phase row, locked, while its submissions may still be corrected: not resolved
    and in a running game (open, or closed and waiting for the GM)."""
    locked = Phase.objects.select_for_update().select_related("game").get(pk=phase.pk)
    if locked.status == Phase.Status.COMMITTED or locked.game.status != Game.Status.RUNNING:
        raise ValidationError(_("La fase è già risolta: i suoi invii non si correggono più."))
    return locked


def _supersede(rows: Any, reason: str, now: dt.datetime) -> list[int]:
    """Mark the standing ``rows`` superseded, once: the ids marked now (a second click or
    a second tab finds them already marked and marks nothing)."""
    ids = list(rows.values_list("pk", flat=True))
    marked = Submission.objects.filter(pk__in=ids).update(superseded_at=now,
                                                          superseded_reason=reason)  # fmt: skip
    if marked != len(ids) or not ids:
        raise ValidationError(_("Questo invio è già stato corretto o rimosso: ricarica la pagina."))
    return ids


def _slot_rows(sub: Submission) -> Any:
    """What one correction replaces: a vote event alone; an action with every standing row
    of its slot (only the latest counts: removing it must not bring back an older one)."""
    if sub.kind != Submission.Kind.ACTION:
        return Submission.objects.filter(pk=sub.pk)
    return Submission.objects.filter(phase_id=sub.phase_id, player_id=sub.player_id,
                                     kind=sub.kind, slot=sub.slot)  # fmt: skip


def _described(sub: Submission) -> dict[str, Any]:
    return {"submission": sub.pk, "sent": sub.kind, "slot": sub.slot,
            "target": sub.target.name if sub.target else None, "at": sub.at.isoformat(),
            "during": sub.during, "fake_role": sub.fake_role}  # fmt: skip


def wall_time_in_phase(phase: Phase, value: dt.time, now: dt.datetime) -> dt.datetime:
    """A forum time (HH:MM or HH:MM:SS, the game's time zone) as the moment inside the
    phase's window it names: the latest such moment not after the deadline (or now), so a
    vote of 23:50 entered at 00:30 is last evening's. Outside the window
    (games/selectors/window.py, as for a new entry and the thread import): refused."""
    zone = ZoneInfo(phase.game.time_zone)
    held = phase.paused_at is not None and phase.status == Phase.Status.OPEN
    last = now if held else min(now, phase.closes_at)
    local = last.astimezone(zone)
    at = dt.datetime.combine(local.date(), value, tzinfo=zone)
    if at > local:
        at = dt.datetime.combine(local.date() - dt.timedelta(days=1), value, tzinfo=zone)
    if forum_time_place(phase, at, now) != IN_TIME:  # the one rule (issue 31 major 2)
        raise ValidationError(outside_message(phase, now))
    return at


@transaction.atomic
def submission_remove(*, submission: Submission, user: AbstractBaseUser, reason: str) -> None:
    """The GM takes a submission out of the count, with a reason: the row stays, marked
    superseded (an action: its slot's standing rows). Resolution never sees it again."""
    phase = _editable(submission.phase)
    ids = _supersede(_slot_rows(submission), reason, timezone.now())
    audit(phase.game, "submission_removed", user=user, player=submission.player,
          phase=phase.label, reason=reason, rows=ids, **_described(submission))  # fmt: skip


@transaction.atomic
def submission_correct(
    *,
    submission: Submission,
    user: AbstractBaseUser,
    reason: str,
    target: Player | None,
    at: dt.time | None = None,
    during: str = "",
    fake_role: str = "",
) -> Submission:
    """The GM corrects a submission (its target, a vote's time, an action's Law phase or
    fake role), with a reason: the old row is marked superseded and a new one, carrying
    the reason, takes its place in time order. The rules judge the new one as they judge
    any submission of the phase."""
    phase = _editable(submission.phase)
    game, player = phase.game, submission.player
    if target is not None and target.game_id != game.pk:
        raise ValidationError(_("Giocatore sconosciuto."))
    now = timezone.now()
    when = submission.at if at is None else wall_time_in_phase(phase, at, now)
    built = opening_state(game)
    names = (player.name, target.name if target else None)
    slot = submission.slot
    if submission.kind == Submission.Kind.ACTION:
        action = Action(*names, during or None, fake_role or None, submission.vision)
        check_refusal(
            built.rules.key,
            built.rules.require_in_game,
            built.state.by_name[player.name],
            phase.label,
        )
        check_refusal(built.rules.key, built.rules.check_action, built.state, phase.label, action)
        slot = built.rules.ability_key(built.state.by_name[player.name], action)
    else:
        secret = submission.kind == Submission.Kind.SECRET_VOTE
        check_refusal(built.rules.key, built.rules.check_vote, built.state, phase.label,
               Vote(*names, 0, secret, submission.abstain and target is None))  # fmt: skip
    _supersede(_slot_rows(submission), reason, now)
    new = Submission.objects.create(
        phase=phase, player=player, kind=submission.kind, slot=slot, target=target,
        during=during, fake_role=fake_role, vision=submission.vision,
        abstain=submission.abstain and target is None, at=when, entered_by=user, reason=reason,
        replaces=submission,
    )  # fmt: skip
    audit(game, "submission_corrected", user=user, player=player, phase=phase.label,
          reason=reason, old=_described(submission), new=_described(new))  # fmt: skip
    return new


@transaction.atomic
def action_withdraw(
    *, phase: Phase, player: Player, slot: str, received_at: dt.datetime | None = None
) -> list[int]:
    """A player takes back his saved choice for ``slot`` while the phase takes
    submissions: the rows stay, superseded; the resolution does not see the action, so a
    once-per-game power is not spent (the engine marks it spent only when it resolves an
    action it was given: roles/engine/abilities.used_key)."""
    phase, now = _open_for_submissions(phase, received_at)
    if player.game_id != phase.game_id:
        raise ValidationError(_("Giocatore sconosciuto."))
    rows = Submission.objects.filter(phase=phase, player=player, kind=Submission.Kind.ACTION,
                                     slot=slot)  # fmt: skip
    if not rows.exists():
        raise ValidationError(_("Non hai nessuna scelta salvata da ritirare."))
    ids = _supersede(rows, _("ritirata dal giocatore"), now)
    audit(phase.game, "action_withdrawn", player=player, phase=phase.label, slot=slot, rows=ids)
    return ids


@transaction.atomic
def override_remove(
    *, phase: Phase, user: AbstractBaseUser, index: int, seat: int, kind: str, reason: str
) -> dict[str, Any]:
    """Take back a correction the GM added (the ``index``-th, which must still be the one
    the page showed: its seat and kind), with a reason; the audit log keeps both reasons."""
    locked = _editable(phase)
    overrides = list(locked.overrides)
    if not 0 <= index < len(overrides) or (overrides[index].get("seat"), overrides[index].get(
        "kind")) != (seat, kind):  # fmt: skip
        raise ValidationError(_("Questa correzione non c'è più: ricarica la pagina."))
    removed = overrides.pop(index)
    locked.overrides = overrides
    locked.save(update_fields=["overrides"])
    player = locked.game.players.filter(seat=seat).first()
    audit(locked.game, "override_removed", user=user, player=player, phase=locked.label,
          change=removed.get("kind"), step=removed.get("step"), added_reason=removed.get("reason"),
          reason=reason)  # fmt: skip
    return removed


# The night's and the day's steps that are not a role's turn, in words.
def step_words(setup_key: str, step: str) -> str:
    """A step of the night order (or the day's vote) as the GM reads it: the words its
    setup declares for it (``<prefix>step.<step>``, roles/engine/messages.py)."""
    return say(ruleset_for(setup_key).step_message(step), setup_key)


def override_sentence(game: Game, label_: str, correction: dict[str, Any], names: dict) -> str:
    """A correction as a sentence in the reader's language: "Notte 2: risparmia Vesper
    (passo: attacco degli Indiani) — motivo: …", never "kill #14"."""
    seat = correction.get("seat")
    who = names.get(seat, f"#{seat}")
    step = correction.get("step")
    params = {"phase": phase_name(label_), "name": who, "reason": correction.get("reason", ""),
              "step": step_words(game.setup, step) if step else ""}  # fmt: skip
    if correction.get("kind") == "spare":
        text = (_("%(phase)s: risparmia %(name)s (passo: %(step)s) — motivo: %(reason)s")
                if step else _("%(phase)s: risparmia %(name)s — motivo: %(reason)s"))  # fmt: skip
    else:
        text = (_("%(phase)s: fa morire %(name)s (passo: %(step)s) — motivo: %(reason)s")
                if step else
                _("%(phase)s: fa morire %(name)s a fine fase — motivo: %(reason)s"))  # fmt: skip
    return text % params
