"""What an undo does to the submissions sent after the commit it takes back (issue 12 §3).

The undone commit had opened phases (a night's dawn opens the day and the next night);
an undo removes them, but not what players sent for them: those submissions are kept
(``KeptSubmission``) and come back when the phase is opened again, if the rules still
allow them then. One the rules now refuse (its target died in the replayed night, its
sender is dead) is not restored: the player's page and the GM's phase page say so, with
the rule. Before the GM confirms an undo, he sees every later submission it affects."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from games.engine import Action, GameState, Ruleset, RuleViolation, Vote
from games.models import Game, KeptSubmission, Phase, Player, Submission
from games.services.game import audit

FIELDS = ("player_id", "kind", "slot", "target_id", "during", "fake_role", "vision", "abstain",
          "at", "entered_by_id", "reason", "source", "forum_post")  # fmt: skip


@dataclass
class UndoEffects:
    """What the GM reads before confirming an undo."""

    phase: Phase  # the commit to take back
    removed: list[Phase]  # the phases it had opened: they go
    kept: list[Submission]  # their submissions: kept, back when the phase opens again
    later: list[Submission]  # submissions of other later phases: stay where they are

    @property
    def count(self) -> int:
        return len(self.kept) + len(self.later)


def undo_effects(game: Game) -> UndoEffects | None:
    """The last commit and every later submission an undo of it would affect."""
    last = game.phases.filter(status=Phase.Status.COMMITTED).order_by("-index").first()
    if last is None:
        return None
    removed = list(game.phases.filter(opened_by=last).order_by("index"))
    later = (Submission.objects.filter(phase__game=game, phase__index__gt=last.index)
             .select_related("phase", "player", "target")
             .order_by("phase__index", "at", "pk"))  # fmt: skip
    gone = {p.pk for p in removed}
    kept = [s for s in later if s.phase_id in gone]
    return UndoEffects(last, removed, kept, [s for s in later if s.phase_id not in gone])


def submissions_keep(game: Game, phases: QuerySet[Phase]) -> int:
    """Before ``phases`` are removed by an undo: keep their standing submissions."""
    rows = list(Submission.objects.filter(phase__in=phases).select_related("phase")
                .order_by("phase__index", "at", "pk"))  # fmt: skip
    KeptSubmission.objects.bulk_create(
        KeptSubmission(game=game, phase_index=s.phase.index, phase_label=s.phase.label,
                       **{f: getattr(s, f) for f in FIELDS})
        for s in rows
    )  # fmt: skip
    return len(rows)


def _refusal(rules: Ruleset, state: GameState, label: str, kept: KeptSubmission,
             names: dict[int, str]) -> str:  # fmt: skip
    """Why the rules refuse ``kept`` now, or '' when they allow it."""
    who, target = names[kept.player_id], names.get(kept.target_id)
    try:
        if kept.kind == Submission.Kind.ACTION:
            rules.require_in_game(state.by_name[who], label)
            action = Action(who, target, kept.during or None, kept.fake_role or None,
                            kept.vision)  # fmt: skip
            rules.check_action(state, label, action)
        else:
            rules.check_vote(state, label, Vote(who, target, 0,
                                                kept.kind == Submission.Kind.SECRET_VOTE,
                                                kept.abstain))  # fmt: skip
    except RuleViolation as exc:
        return f"{exc.message} [{exc.rule}]"[:300]
    return ""


def kept_restore(
    *, game: Game, rules: Ruleset, state: GameState, user: AbstractBaseUser | None
) -> tuple[int, int]:
    """After a commit: the kept submissions of the phases open again come back, in their
    time order, when the rules (``state``: after the committed phases) allow them; the
    others are marked refused, with the rule. Returns (restored, refused)."""
    phases = {p.index: p for p in game.phases.exclude(status=Phase.Status.COMMITTED)}
    waiting = list(KeptSubmission.objects.filter(game=game, status=KeptSubmission.Status.KEPT))
    if not waiting:
        return 0, 0
    names = dict(Player.objects.filter(game=game).values_list("pk", "name"))
    restored, refused = [], []
    for kept in waiting:
        phase = phases.get(kept.phase_index)
        if phase is None and not state.over:
            continue  # its phase is not open again yet
        why = (_("la partita è finita") if phase is None
               else _refusal(rules, state, phase.label, kept, names))  # fmt: skip
        if why:
            kept.status, kept.refusal = KeptSubmission.Status.REFUSED, why
            refused.append(kept)
            continue
        Submission.objects.create(phase=phase, **{f: getattr(kept, f) for f in FIELDS})
        kept.status = KeptSubmission.Status.RESTORED
        restored.append(kept)
    KeptSubmission.objects.bulk_update([*restored, *refused], ["status", "refusal"])
    audit(game, "kept_restored", user=user, restored=[k.pk for k in restored],
          refused=[{"kept": k.pk, "player": names[k.player_id], "phase": k.phase_label,
                    "why": k.refusal} for k in refused])  # fmt: skip
    return len(restored), len(refused)


def refused_notices(game: Game, player: Player | None = None) -> list[KeptSubmission]:
    """The kept submissions the rules refused when their phase opened again, while that
    phase is still to resolve (the player's, or all for the GM)."""
    pending = Phase.objects.filter(game=game).exclude(status=Phase.Status.COMMITTED)
    rows = KeptSubmission.objects.filter(
        game=game, status=KeptSubmission.Status.REFUSED, phase_index__in=pending.values("index")
    )  # one query
    if player is not None:
        rows = rows.filter(player=player)
    return list(rows.select_related("player", "target"))


def check_undo_target(effects: UndoEffects | None, phase_id: int | None) -> UndoEffects:
    """The effects of undoing the commit the GM saw (a stale page is a message)."""
    if effects is None:
        raise ValidationError(_("Non c'è nessuna fase risolta da annullare."))
    if phase_id is not None and effects.phase.pk != phase_id:
        raise ValidationError(_("Questa risoluzione è già stata annullata: ricontrolla la pagina."))
    return effects
