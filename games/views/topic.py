"""The GM's thread tools on the phase page (issue 12): "Importa dal topic" (paste,
preview, settle the doubtful lines, save), the thread settings, and "Conta adesso"."""

from __future__ import annotations

import datetime as dt
import re
from zoneinfo import ZoneInfo

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from games.forms.input import form_error
from games.forms.validators import validate_text
from games.forum import PARSERS
from games.selectors.board import phase_board
from games.selectors.counts import count_now
from games.selectors.pages import game_for_gm
from games.selectors.window import past_deadline
from games.services.phases import current_phase
from games.services.topic_preview import (
    ALREADY,
    ASK,
    CHANGED,
    EDITED_LATE,
    LATE,
    NEW,
    NOTHING,
    OUTSIDE,
    REFUSED,
    SAME,
    WITHDRAWN,
    topic_import_preview,
)
from games.services.topic_settings import topic_settings_update
from games.services.topic_votes import topic_import_save
from games.text.words import phase_name

STATUS = {
    NEW: gettext_lazy("nuovo voto"), CHANGED: gettext_lazy("cambio di voto"),
    WITHDRAWN: gettext_lazy("ritiro"), SAME: gettext_lazy("uguale al voto in corso"),
    NOTHING: gettext_lazy("nessun voto da ritirare"), ALREADY: gettext_lazy("già importato"),
    OUTSIDE: gettext_lazy("fuori dalla fase"), REFUSED: gettext_lazy("rifiutato dalle regole"),
    ASK: gettext_lazy("da confermare"), LATE: gettext_lazy("dopo la scadenza"),
    EDITED_LATE: gettext_lazy("modificato dopo la scadenza"),
}  # fmt: skip
TEXT_LIMIT = 2_000_000  # a 40-page thread copied as text is about 1 MB


DECISION_KEY = re.compile(r"[vt][0-9a-f]{12}")  # v/t and a post's key, as the preview writes
DECISION_VALUE = re.compile(r"-|\d{1,4}")  # a seat, or "-" (the line withdraws a vote)
BAD_PASTE = gettext_lazy("Il testo incollato contiene caratteri NUL: non è una pagina del topic.")
TOO_LONG = gettext_lazy("Testo troppo lungo: incolla una pagina del topic alla volta.")
UNKNOWN_FORUM = gettext_lazy("Forum sconosciuto.")
UNKNOWN_ACTION = gettext_lazy("Azione sconosciuta.")
STALE_PREVIEW = gettext_lazy("Anteprima scaduta: incolla di nuovo la pagina del topic.")
BAD_COPY_TIME = gettext_lazy(
    "Ora della copia non valida: dev'essere passata, e non più di una settimana fa."
)
COPY_LIFE = dt.timedelta(days=7)  # a page copied longer ago than this is copied again
PREVIEW_LIFE = dt.timedelta(hours=24)  # a preview older than this is pasted again


class TopicImportForm(forms.Form):
    """A pasted page of the thread (or the saved .html page), its forum's format, what to
    do, and the GM's answers for the doubtful lines (``v<key>``/``t<key>``: a seat or -)."""

    text = forms.CharField(required=False, strip=False, max_length=TEXT_LIMIT,
                           error_messages={"max_length": TOO_LONG,
                                           "null_characters_not_allowed": BAD_PASTE})  # fmt: skip
    page = forms.FileField(required=False)
    fmt = forms.ChoiceField(required=False, choices=[("", ""), *((k, k) for k in PARSERS)],
                            error_messages={"invalid_choice": UNKNOWN_FORUM})  # fmt: skip
    action = forms.ChoiceField(required=False,
                               choices=[("", ""), ("preview", ""), ("save", ""), ("resolve", "")],
                               error_messages={"invalid_choice": UNKNOWN_ACTION})  # fmt: skip
    # When the preview read the paste (its relative times, "12 minuti fa", count back from
    # then): "Ricontrolla" and "Salva" read it as that preview did. Empty: a new paste.
    read_at = forms.DateTimeField(required=False, error_messages={"invalid": STALE_PREVIEW})
    # When the GM copied the page, in the game's zone (empty: now): the forum wrote
    # "Oggi", "Ieri", "3 ore fa" then, so they count back from it (issue 28 class 2).
    copied_at = forms.DateTimeField(required=False, error_messages={"invalid": BAD_COPY_TIME},
                                    input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S",
                                                   "%Y-%m-%d %H:%M"])  # fmt: skip

    def clean(self) -> dict:
        data = super().clean()
        page = data.get("page")
        if page:
            data["text"] = page.read(TEXT_LIMIT).decode("utf-8", errors="replace")
        if "\x00" in data.get("text", ""):
            raise forms.ValidationError(BAD_PASTE)
        read_at = data.get("read_at")
        if read_at is not None and not (timezone.now() - PREVIEW_LIFE <= read_at <= timezone.now()):
            raise forms.ValidationError(STALE_PREVIEW)
        copied_at = data.get("copied_at")
        if copied_at is not None and not (
            timezone.now() - COPY_LIFE <= copied_at <= timezone.now() + dt.timedelta(minutes=1)
        ):
            raise forms.ValidationError(BAD_COPY_TIME)
        decisions = {}
        for key, value in self.data.items():
            if not DECISION_KEY.fullmatch(key) or value == "":
                continue
            if not DECISION_VALUE.fullmatch(value):
                raise forms.ValidationError(_("Scelta non valida per una riga del topic."))
            decisions[key] = value
        data["decisions"] = decisions
        return data


@login_required
@require_POST
def topic_import(request: HttpRequest, pk: int) -> HttpResponse:
    """Preview a pasted page of the thread (``action=preview``), save it, or save it and
    resolve the day once its deadline has passed (``action=resolve``, "Salva e risolvi":
    issue 28 class 6)."""
    game = game_for_gm(user=request.user, pk=pk, werewolf=True)
    phase = current_phase(game)
    if phase is None or phase.is_night:
        messages.error(request, _("Si importano i voti solo durante un giorno."))
        return redirect("games:phase", pk=pk)
    form = TopicImportForm(request.POST, request.FILES)
    with timezone.override(ZoneInfo(game.time_zone)):  # the copy time is the game's
        valid = form.is_valid()
    if not valid:
        messages.error(request, form_error(form))
        return redirect("games:phase", pk=pk)
    data = form.cleaned_data
    text, fmt, decisions = data["text"], data["fmt"], data["decisions"]
    # The instant the page's relative times count back from: when the GM copied it (he
    # says), else when the first preview read it (kept by "Ricontrolla"), else now.
    read_at = data["copied_at"] or data["read_at"]
    if data["action"] in ("save", "resolve"):
        resolve = data["action"] == "resolve"
        try:
            saved = topic_import_save(phase=phase, text=text, fmt=fmt, decisions=decisions,
                                      user=request.user, read_at=read_at,
                                      resolve=resolve)  # fmt: skip
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
            return redirect("games:phase", pk=pk)
        stored = len(saved.to_store)
        messages.success(request, _("Dal topic: %(n)d voti salvati.") % {"n": stored})
        if resolve:
            messages.success(
                request, _("Fase risolta: %(phase)s.") % {"phase": phase_name(phase.label)}
            )
        return redirect("games:phase", pk=pk)
    try:
        preview = topic_import_preview(phase=phase, text=text, fmt=fmt, decisions=decisions,
                                       now=read_at,
                                       gm_username=request.user.get_username())  # fmt: skip
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect("games:phase", pk=pk)
    for row in preview.rows:
        row.label = STATUS[row.status]
    copied = data["copied_at"]
    copied = (
        copied.astimezone(ZoneInfo(game.time_zone)).strftime("%Y-%m-%dT%H:%M:%S") if copied else ""
    )
    context = {"game": game, "phase": phase, "preview": preview, "text": text, "fmt": fmt,
               "past_deadline": past_deadline(phase, timezone.now()),
               "copied_at": copied}  # fmt: skip
    return render(request, "games/topic_import.html", context)


class TopicSettingsForm(forms.Form):
    """The thread settings: free texts without NUL, control or bidi characters."""

    votes_from_topic = forms.BooleanField(required=False)
    vote_lines = forms.CharField(required=False, max_length=2000, validators=[validate_text])
    withdraw_lines = forms.CharField(required=False, max_length=2000, validators=[validate_text])
    aliases = forms.CharField(required=False, max_length=10000, validators=[validate_text])
    gm_names = forms.CharField(required=False, max_length=1000, validators=[validate_text])
    edited_late_counts = forms.BooleanField(required=False)
    min_posts_per_day = forms.IntegerField(required=False, min_value=0, max_value=200)


@login_required
@require_POST
def topic_settings_save(request: HttpRequest, pk: int) -> HttpResponse:
    game = game_for_gm(user=request.user, pk=pk, werewolf=True)
    form = TopicSettingsForm(request.POST)
    if not form.is_valid():
        messages.error(request, form_error(form))
        return redirect("games:phase", pk=pk)
    data = form.cleaned_data
    try:
        topic_settings_update(
            game=game, user=request.user, votes_from_topic=data["votes_from_topic"],
            vote_lines=data["vote_lines"].splitlines(),
            withdraw_lines=data["withdraw_lines"].splitlines(),
            aliases=data["aliases"], gm_names=data["gm_names"].split(","),
            edited_late_counts=data["edited_late_counts"],
            min_posts_per_day=data["min_posts_per_day"],
        )  # fmt: skip
        messages.success(request, _("Impostazioni del topic salvate."))
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    return redirect("games:phase", pk=pk)


@login_required
def vote_count_now(request: HttpRequest, pk: int) -> HttpResponse:
    """The day's count at this moment, ready to paste (a partial for htmx)."""
    game = game_for_gm(user=request.user, pk=pk, werewolf=True)
    phase = current_phase(game)
    texts = None
    if phase is not None and not phase.is_night:
        texts = count_now(game, phase_board(game, phase), timezone.now())
    template = "games/count_now.html#count" if request.htmx else "games/count_now.html"
    return render(request, template, {"game": game, "phase": phase, "texts": texts})
