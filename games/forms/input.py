"""The forms every POST of a running game goes through (issue 9, #3): they turn what a
browser (or anyone) sends into typed values, and refuse the rest with a clear message
before anything reaches a service or the database: NUL and control characters, ids that
are not numbers or are out of range, unknown choices, overlong text."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.engine import CORRECTION_KINDS
from games.forms.validators import validate_name, validate_text
from games.models import Game

MAX_ID = 2**63 - 1  # a bigint primary key: anything past it cannot name a row
UNKNOWN_PLAYER = _("Giocatore sconosciuto.")
NO_REASON = _("Scrivi il motivo: resta nel registro.")
BAD_TIME = _("Orario non valido: usa HH:MM.")
BAD_DATE = _("Data non valida: usa AAAA-MM-GG.")


def form_error(form: forms.Form) -> str:
    """Every error of ``form``, as one sentence for a message or the player's page."""
    return " ".join(str(message) for errors in form.errors.values() for message in errors)


class PhaseField(forms.IntegerField):
    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("error_messages", {
            "required": _("Questa fase è chiusa: non si accettano più invii."),
            "invalid": _("Fase sconosciuta."), "min_value": _("Fase sconosciuta."),
            "max_value": _("Fase sconosciuta."),
        })  # fmt: skip
        super().__init__(min_value=1, max_value=MAX_ID, **kwargs)


class NameField(forms.CharField):
    """A forum name (or a role or phase key): short, with no control or bidi character."""

    def __init__(self, *, max_length: int = 80, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        super().__init__(max_length=max_length, validators=[validate_name], **kwargs)


class ReasonField(forms.CharField):
    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("error_messages", {"required": NO_REASON})
        super().__init__(max_length=300, validators=[validate_text], **kwargs)


class PlayerChoiceField(forms.ModelChoiceField):
    """A player of the game, by id (a forged, foreign or out-of-range id is unknown)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("error_messages", {"invalid_choice": UNKNOWN_PLAYER})
        super().__init__(queryset=None, **kwargs)

    def to_python(self, value: Any) -> Any:
        if value not in self.empty_values:
            try:
                if not 1 <= int(value) <= MAX_ID:
                    raise ValueError(value)
            except (TypeError, ValueError) as exc:
                raise forms.ValidationError(UNKNOWN_PLAYER, code="invalid_choice") from exc
        return super().to_python(value)


class GameForm(forms.Form):
    """A form whose player fields choose among ``game``'s players only."""

    def __init__(self, *args: Any, game: Game, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        for field in self.fields.values():
            if isinstance(field, PlayerChoiceField):
                field.queryset = game.players.all()


# The player's forms


class PlayerActionForm(forms.Form):
    phase = PhaseField()
    target = NameField()
    during = NameField(max_length=40)
    fake_role = NameField(max_length=40)
    slot = NameField(max_length=24)


class _SharedFields(dict):
    """A form's ``base_fields`` that each form shares instead of deep-copying them: for a
    form whose fields nothing changes per request (no choices, no widget attributes set,
    never rendered by Django), the copy was most of what building it cost."""

    def __deepcopy__(self, memo: dict) -> dict:
        return dict(self)


class PlayerVoteForm(forms.Form):
    """A player's vote (the hottest request of the site: its fields are shared)."""

    phase = PhaseField()
    target = NameField()
    secret = forms.BooleanField(required=False)
    abstain = forms.BooleanField(required=False)


PlayerVoteForm.base_fields = _SharedFields(PlayerVoteForm.base_fields)


class WillForm(forms.Form):
    text = forms.CharField(required=False, strip=False, max_length=5000,
                           validators=[validate_text])  # fmt: skip


# The GM's forms


class GmVoteForm(GameForm):
    voter = PlayerChoiceField(error_messages={"required": _("Scegli chi vota."),
                                              "invalid_choice": UNKNOWN_PLAYER})  # fmt: skip
    target = PlayerChoiceField(required=False)
    secret = forms.BooleanField(required=False)
    at = forms.TimeField(required=False, input_formats=["%H:%M"],
                         error_messages={"invalid": BAD_TIME})  # fmt: skip
    # the post's date, when the phase spans midnight (empty: inferred from the opening)
    day = forms.DateField(required=False, input_formats=["%Y-%m-%d"],
                          error_messages={"invalid": BAD_DATE})  # fmt: skip
    reason = ReasonField()


class GmActionForm(GameForm):
    actor = PlayerChoiceField(error_messages={"required": _("Scegli il giocatore."),
                                              "invalid_choice": UNKNOWN_PLAYER})  # fmt: skip
    target = PlayerChoiceField(required=False)
    during = NameField(max_length=40)
    fake_role = NameField(max_length=40)
    vision = forms.BooleanField(required=False)
    reason = ReasonField()


class OverrideForm(GameForm):
    player = PlayerChoiceField(error_messages={"required": _("Scegli il giocatore."),
                                               "invalid_choice": UNKNOWN_PLAYER})  # fmt: skip
    kind = forms.ChoiceField(
        choices=[(k, k) for k in CORRECTION_KINDS],
        error_messages={"required": _("Scegli la correzione."),
                        "invalid_choice": _("Correzione sconosciuta.")},
    )  # fmt: skip
    step = NameField(max_length=60)  # the night step it applies at ("" = the phase's end)
    reason = ReasonField()


class CommitForm(forms.Form):
    phase = PhaseField(error_messages={
        "required": _("La fase è già stata risolta: ricontrolla la pagina."),
        "invalid": _("Fase sconosciuta."), "min_value": _("Fase sconosciuta."),
        "max_value": _("Fase sconosciuta."),
    })  # fmt: skip


class DeadlineForm(forms.Form):
    """Move, pause or resume a deadline. The date is read as the game's wall-clock time;
    a year no game can be played in is refused here, before any time-zone arithmetic."""

    phase = PhaseField(required=False)
    action = forms.ChoiceField(required=False, choices=[
        ("move", "move"), ("pause", "pause"), ("resume", "resume"), ("close_now", "close_now"),
        ("reopen", "reopen"),
    ])  # fmt: skip
    confirm_past = forms.BooleanField(required=False)
    closes_at = forms.DateTimeField(
        required=False, input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M"],
        error_messages={"invalid": _("Data e ora non valide.")},
    )  # fmt: skip
    reason = forms.CharField(required=False, max_length=300, validators=[validate_text])

    def clean_closes_at(self) -> dt.datetime | None:
        value = self.cleaned_data["closes_at"]
        if value is not None and not 2000 <= value.year <= 2999:  # before any zone arithmetic
            raise forms.ValidationError(
                _(
                    "La scadenza deve cadere tra un'ora fa e 60 giorni da oggi "
                    "(o usa «Chiudi ora»)."
                ),
                code="invalid",
            )
        return value


class DailyTimeField(forms.TimeField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(error_messages={"invalid": BAD_TIME, "required": BAD_TIME}, **kwargs)


class ScheduleForm(forms.Form):
    vote_close_time = DailyTimeField()
    day_close_time = DailyTimeField()
    powers_close_time = DailyTimeField()
    auto = forms.BooleanField(required=False)


class SubstituteForm(forms.Form):
    name = NameField(required=True, error_messages={
        "required": _("Scrivi il nome sul forum del sostituto (massimo 80 caratteri)."),
        "max_length": _("Scrivi il nome sul forum del sostituto (massimo 80 caratteri)."),
    })  # fmt: skip


# Fixing mistakes (issue 12 §3)


CORRECT_OR_REMOVE = _("Scegli: correggi o rimuovi.")


class SubmissionFixForm(GameForm):
    """Correct (new target, a vote's forum time, an action's Law phase or fake role) or
    remove a submission, with a reason."""

    action = forms.ChoiceField(
        choices=[("correct", "correct"), ("remove", "remove")],
        error_messages={"required": CORRECT_OR_REMOVE, "invalid_choice": CORRECT_OR_REMOVE},
    )
    target = PlayerChoiceField(required=False)
    at = forms.TimeField(required=False, input_formats=["%H:%M:%S", "%H:%M"],
                         error_messages={"invalid": BAD_TIME})  # fmt: skip
    during = NameField(max_length=40)
    fake_role = NameField(max_length=40)
    reason = ReasonField()


class OverrideRemoveForm(forms.Form):
    phase = PhaseField()
    index = forms.IntegerField(min_value=0, max_value=10_000)
    seat = forms.IntegerField(min_value=1, max_value=10_000)
    kind = forms.ChoiceField(choices=[(k, k) for k in CORRECTION_KINDS])
    reason = ReasonField()


class RenameForm(forms.Form):
    name = NameField(required=True, error_messages={
        "required": _("Scrivi il nome corretto (massimo 80 caratteri)."),
        "max_length": _("Scrivi il nome corretto (massimo 80 caratteri)."),
    })  # fmt: skip


class WithdrawForm(forms.Form):
    phase = PhaseField()
    slot = NameField(max_length=24, required=True)


class UndoForm(forms.Form):
    phase = PhaseField(required=False)
    players = forms.BooleanField(required=False)
    confirm = forms.BooleanField(required=False)
