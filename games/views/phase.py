"""The GM's running game: the phase board, entries on a player's behalf, preview with the
explanation trace, overrides, commit (exactly once), undo, and the forum posts."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.forms import Form
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.engine import phase_rows, rebuild, rules_for
from games.forms.input import (
    MAX_ID,
    CommitForm,
    DeadlineForm,
    GmActionForm,
    GmVoteForm,
    OverrideForm,
    ScheduleForm,
    form_error,
)
from games.forms.player import phase_choices_of
from games.models import Game, Phase, Will
from games.registry import desk_module
from games.selectors.board import board_version, phase_board, submission_counts
from games.selectors.groups import night_watch
from games.selectors.notices import clock_notice
from games.selectors.pages import game_for_gm
from games.selectors.rettifica import rettifica_posts
from games.selectors.window import forum_moment, local_stamp, spans_midnight, waits_for_topic
from games.services.deadlines import (
    game_schedule_update,
    out_of_bounds,
    phase_extend,
    phase_pause,
    phase_reopen,
    phase_resume,
)
from games.services.narration import NarrationForm, narrated_posts
from games.services.phases import (
    current_phase,
    following_deadline,
    override_add,
    phase_commit,
    phase_preview,
    phase_undo,
    phases_on_the_page,
    preview_post,
)
from games.services.submissions import action_submit, vote_cast
from games.text.posts import FORMATS
from games.text.words import phase_name
from games.views.fixes import undo_confirm_url


@login_required
def phase_page(request: HttpRequest, pk: int) -> HttpResponse:
    game = game_for_gm(user=request.user, pk=pk)
    if desk_module(game) is not None:  # an event-log game has no phases: its desk
        return redirect(game)
    # every phase still to resolve (by day: the day and the coming night), the current one
    # first, and the last one resolved (the undo's)
    undo_phase, pending = phases_on_the_page(game)
    phase = pending[0] if pending else None
    refresh = bool(request.htmx) and request.GET.get("part") == "board"
    counts = submission_counts(phase) if phase is not None else {}
    version = board_version(phase, counts) if phase is not None else ""
    if refresh and version and request.GET.get("v") == version:
        return HttpResponse(status=204)  # the 20-second refresh: nothing changed, no swap
    rules = rules_for(game)
    context: dict = {"game": game, "phase": phase, "formats": FORMATS, "version": version,
                     "law_phases": phase_choices_of(rules), "action_fields": rules.action_fields,
                     "has_secret_vote": rules.has_secret_vote,
                     "undo_phase": undo_phase, "clock_notice": clock_notice(game)}  # fmt: skip
    if undo_phase is not None and undo_phase.retracted and not refresh:  # issue 31 major 4
        context["rettifica_done"] = rettifica_posts(game, undo_phase, undo_phase.outcome,
                                                    undo_phase.inputs)  # fmt: skip
    if phase is not None:
        # the phase's snapshot: the board and the groups' choices read it, then the preview
        # plays on it
        built = rebuild(game)
        watch = night_watch(built, pending)  # before the preview plays on the snapshot
        wills = list(Will.objects.filter(player__game=game).select_related("player"))
        following = following_deadline(game, phase, phase.closes_at)
        rows = phase_rows(phase)  # every standing row, read once for the board and the preview
        page = request.GET.get("page", 1)
        board = phase_board(game, phase, built, page, rows=rows, counts=counts, wills=wills)
        # the preview plays on the snapshot: after the board has read it
        preview = phase_preview(phase, built, rows=rows, wills=wills, reread=False)
        posts = None if refresh else preview_post(board, preview, rules, following)
        if phase.retracted and not refresh:  # what the commit would change: issue 31 major 4
            context["rettifica_preview"] = rettifica_posts(game, phase, preview.outcome_json,
                                                           preview.inputs.as_json())  # fmt: skip
        context.update(board=board, preview=preview, watch=watch, players=built.players,
                       posts=posts, steps=built.rules.steps(phase.label),
                       waiting=waits_for_topic(phase),
                       spans_midnight=spans_midnight(phase))  # fmt: skip
    template = "games/phase.html#board" if refresh else "games/phase.html"
    return render(request, template, context)


def _valid(form: Form) -> dict:
    """The form's cleaned data, or a ValidationError with every message (issue 9, #3)."""
    if not form.is_valid():
        raise ValidationError(form_error(form))
    return form.cleaned_data


def _running(request: HttpRequest, pk: int) -> tuple[Game, Phase]:
    game = game_for_gm(user=request.user, pk=pk, werewolf=True)
    phase = current_phase(game)
    if phase is None:
        raise ValidationError(_("La partita è finita."))
    return game, phase


def _reason(data: dict) -> str:
    reason = (data.get("reason") or "").strip()
    if not reason:
        raise ValidationError(_("Scrivi il motivo: resta nel registro."))
    return reason


def _back(
    request: HttpRequest, pk: int, done: str = "", error: ValidationError | None = None
) -> HttpResponse:
    if error is not None:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, done)
    return redirect("games:phase", pk=pk)


@login_required
@require_POST
def gm_vote(request: HttpRequest, pk: int) -> HttpResponse:
    """A vote cast in the forum thread, entered by the GM with its time (and its date when
    the phase spans midnight, else inferred: issue 31 major 2) and a reason; a time
    outside the phase's window is refused, naming it."""
    try:
        game, phase = _running(request, pk)
        data = _valid(GmVoteForm(request.POST, game=game))
        voter = data["voter"]
        at = forum_moment(phase, data["at"], data["day"]) if data["at"] else None
        vote_cast(
            phase=phase, player=voter, target=data["target"], secret=data["secret"],
            at=at, entered_by=request.user, reason=_reason(data),
        )  # fmt: skip
    except ValidationError as exc:
        return _back(request, pk, error=exc)
    if at is None:
        return _back(request, pk, _("Voto di %(name)s registrato.") % {"name": voter.name})
    done = _("Voto di %(name)s registrato. Ora del post: %(at)s.")
    return _back(request, pk, done % {"name": voter.name, "at": local_stamp(phase, at)})


@login_required
@require_POST
def gm_action(request: HttpRequest, pk: int) -> HttpResponse:
    """An ability use sent to the GM by private message, entered with a reason."""
    try:
        game, phase = _running(request, pk)
        data = _valid(GmActionForm(request.POST, game=game))
        actor = data["actor"]
        action_submit(
            phase=phase, player=actor, target=data["target"], during=data["during"],
            fake_role=data["fake_role"], vision=data["vision"], entered_by=request.user,
            reason=_reason(data),
        )  # fmt: skip
    except ValidationError as exc:
        return _back(request, pk, error=exc)
    return _back(request, pk, _("Azione di %(name)s registrata.") % {"name": actor.name})


@login_required
@require_POST
def gm_override(request: HttpRequest, pk: int) -> HttpResponse:
    """A correction (a death prevented or added, at a named step or at the phase's end),
    with its reason: the preview, the commit and every rebuild resolve the phase with it."""
    try:
        game, phase = _running(request, pk)
        data = _valid(OverrideForm(request.POST, game=game))
        override_add(phase=phase, user=request.user, kind=data["kind"], player=data["player"],
                     reason=_reason(data), step=data["step"])  # fmt: skip
    except ValidationError as exc:
        return _back(request, pk, error=exc)
    return _back(request, pk, _("Correzione registrata: l'anteprima la applica."))


@login_required
@require_POST
def gm_commit(request: HttpRequest, pk: int) -> HttpResponse:
    """Apply the previewed phase: exactly once, whatever the clicks and the tabs."""
    try:
        _game, phase = _running(request, pk)
        if phase.pk != _valid(CommitForm(request.POST))["phase"]:
            raise ValidationError(_("La fase è già stata risolta: ricontrolla la pagina."))
        applied = phase_commit(phase=phase, user=request.user)
    except ValidationError as exc:
        return _back(request, pk, error=exc)
    if not applied:
        return _back(
            request,
            pk,
            _("La fase %(phase)s era già stata risolta.") % {"phase": phase_name(phase.label)},
        )
    return _back(request, pk, _("Fase risolta: %(phase)s.") % {"phase": phase_name(phase.label)})


@login_required
@require_POST
def gm_undo(request: HttpRequest, pk: int) -> HttpResponse:
    """Take back the commit the GM saw as the last one (once, however many clicks), once
    he confirmed it on the page that lists the later submissions it affects (issue 12 §3:
    without the confirmation, that page)."""
    game = game_for_gm(user=request.user, pk=pk, werewolf=True)
    if request.POST.get("confirm") != "1":
        players = request.POST.get("players") == "1"
        return redirect(undo_confirm_url(pk, request.POST.get("phase", "")[:40], players))
    try:
        phase_id = _phase_id(request)
        reopened = phase_undo(game=game, user=request.user, phase_id=phase_id,
                              players=request.POST.get("players") == "1")  # fmt: skip
    except ValidationError as exc:
        return _back(request, pk, error=exc)
    return _back(
        request,
        pk,
        _("Risoluzione di %(phase)s annullata.") % {"phase": phase_name(reopened.label)},
    )


@login_required
def game_posts(request: HttpRequest, pk: int) -> HttpResponse:
    """Every committed phase's public post, ready to paste; a desk game's posts are on its
    desk, which this address leads to (issue 30)."""
    game = game_for_gm(user=request.user, pk=pk)
    if desk_module(game) is not None:
        if request.method != "GET":
            raise Http404
        return redirect(f"{game.get_absolute_url()}#posts")
    phases = list(game.phases.filter(status=Phase.Status.COMMITTED).order_by("-index"))
    for phase in phases:  # the GM's own text around each post (issue 13 §2)
        phase.posts = narrated_posts(phase)
        phase.narration_form = NarrationForm(
            initial={"post_before": phase.post_before, "post_after": phase.post_after}
        )
        # a result posted, undone and resolved anew: its Rettifica too (issue 31 major 4)
        phase.rettifica = rettifica_posts(game, phase, phase.outcome, phase.inputs)
    return render(request, "games/posts.html", {"game": game, "phases": phases})


def _phase_id(request: HttpRequest) -> int:
    """The phase a form names (a stale or forged id is a message, never a 500)."""
    try:
        value = int(request.POST.get("phase", ""))
    except ValueError as exc:
        raise ValidationError(_("La pagina era vecchia: ricaricala e riprova.")) from exc
    if not 1 <= value <= MAX_ID:
        raise ValidationError(_("La pagina era vecchia: ricaricala e riprova."))
    return value


def _named_open_phase(data: dict, game: Game, status: str = Phase.Status.OPEN) -> Phase:
    """The phase the form names, while it is still open: never another one (a deadline
    form that lost the race with the close must not move the next phase's deadline)."""
    phase = game.phases.filter(pk=data["phase"]).first() if data["phase"] else None
    if phase is None or game.status != Game.Status.RUNNING:
        raise ValidationError(_("La pagina era vecchia: ricaricala e riprova."))
    if phase.status != status and status == Phase.Status.CLOSED:
        raise ValidationError(_("Si può riaprire solo una fase chiusa e non ancora risolta."))
    if phase.status != status:
        raise ValidationError(
            _("%(phase)s è già chiusa: la scadenza non è stata toccata.") % {"phase": phase.label}
        )
    return phase


def _deadline_entered(game: Game, local: dt.datetime | None) -> dt.datetime:
    """The form's wall-clock date in the game's time zone (its year already bounded)."""
    if local is None:
        raise ValidationError(_("Data e ora non valide."))
    try:
        return local.replace(tzinfo=ZoneInfo(game.time_zone)).astimezone(dt.UTC)
    except OverflowError as exc:  # year 1 or 9999 in a time zone: far out of bounds anyway
        raise out_of_bounds() from exc


@login_required
@require_POST
def gm_deadline(request: HttpRequest, pk: int) -> HttpResponse:
    """Move, pause, resume or close now the deadline of the phase the form names (logged,
    shown to players)."""
    try:
        game = game_for_gm(user=request.user, pk=pk, werewolf=True)
        data = _valid(DeadlineForm(request.POST))
        action = data["action"]
        if action == "reopen":
            phase = _named_open_phase(data, game, Phase.Status.CLOSED)
            when = _deadline_entered(game, data["closes_at"])
            phase_reopen(phase=phase, closes_at=when, user=request.user, reason=_reason(data))
            return _back(request, pk, _("%(phase)s riaperta.") % {"phase": phase.label})
        phase = _named_open_phase(data, game)
        if action == "pause":
            phase_pause(phase=phase, user=request.user, reason=_reason(data))
            done = _("Scadenza di %(phase)s sospesa.")
        elif action == "resume":
            phase_resume(phase=phase, user=request.user)
            done = _("Scadenza di %(phase)s ripresa.")
        elif action == "close_now":
            phase_extend(phase=phase, closes_at=timezone.now(), user=request.user,
                         reason=_reason(data))  # fmt: skip
            done = _("%(phase)s si chiude ora.")
        else:
            when = _deadline_entered(game, data["closes_at"])
            phase_extend(phase=phase, closes_at=when, user=request.user, reason=_reason(data),
                         confirmed_past=data["confirm_past"])  # fmt: skip
            done = _("Scadenza di %(phase)s spostata.")
    except ValidationError as exc:
        return _back(request, pk, error=exc)
    return _back(request, pk, done % {"phase": phase.label})


@login_required
@require_POST
def gm_schedule(request: HttpRequest, pk: int) -> HttpResponse:
    """The game's daily deadlines and the automatic switch for nights."""
    game = game_for_gm(user=request.user, pk=pk, werewolf=True)
    try:
        data = _valid(ScheduleForm(request.POST))
        times = {f: data[f] for f in ("vote_close_time", "day_close_time", "powers_close_time")}
        game_schedule_update(game=game, user=request.user, auto_commit_nights=data["auto"],
                             **times)  # fmt: skip
        messages.success(request, _("Scadenze della partita aggiornate."))
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    return redirect(game)
