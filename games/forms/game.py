"""The GM's forms. They parse and validate input; the services do the work."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from games.engine import OptionField, Setup, available_setups, load_setup
from games.forms.signup import parse_player_names, setup_deadlines, signup_lines
from games.forms.validators import validate_name
from games.models import Game

MAX_SEED = 2**48 - 1


class CreationTokenForm(forms.Form):
    """A new-game form: it carries the one-time token issued with the page, so the same
    form sent twice deals once (games/services/creation.py)."""

    creation_token = forms.CharField(widget=forms.HiddenInput, required=False, max_length=64)


def setup_choices() -> list[tuple[str, str]]:
    return [(key, load_setup(key).name) for key in available_setups()]


class GameCreateForm(CreationTokenForm):
    """A new game: setup, the pasted sign-up list, seed, deadlines and the setup's options
    (each DECISION of the ruleset, with its documented default)."""

    name = forms.CharField(label=_("Nome della partita"), max_length=120,
                           validators=[validate_name])  # fmt: skip
    setup = forms.ChoiceField(label=_("Setup"), choices=setup_choices)
    players = forms.CharField(
        label=_("Giocatori"),
        widget=forms.Textarea(attrs={"rows": 12, "placeholder": _("Un nome per riga, come "
                                                                  "nel topic delle iscrizioni")}),
        help_text=_("Un nome per riga; numeri, trattini e @ iniziali vengono ignorati."),
    )  # fmt: skip
    seed = forms.IntegerField(
        label=_("Seme (facoltativo)"), required=False, min_value=0, max_value=MAX_SEED,
        help_text=_("Lo stesso seme ripete la stessa distribuzione dei ruoli."),
    )  # fmt: skip
    language = forms.ChoiceField(
        label=_("Lingua degli annunci"), choices=Game.Language.choices, initial="it"
    )
    vote_close_time = forms.TimeField(label=_("Chiusura votazione"), initial=dt.time(22, 0))
    day_close_time = forms.TimeField(label=_("Chiusura giorno"), initial=dt.time(22, 15))
    powers_close_time = forms.TimeField(label=_("Consegna poteri"), initial=dt.time(22, 30))

    def __init__(self, *args: Any, setup_key: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        key = setup_key or self.data.get("setup") or self.initial.get("setup")
        keys = available_setups()
        self.setup_key = key if key in keys else keys[-1]
        self.fields["setup"].initial = self.setup_key
        setup = load_setup(self.setup_key)
        for field_name, at in setup_deadlines(self.setup_key).items():
            self.fields[field_name].initial = at  # the setup's deadlines, by default
        self.option_names = []
        for field_name, field in option_fields(setup).items():
            self.fields[field_name] = field
            self.option_names.append((field_name, option_name(field_name)))

    def option_fields(self) -> list[forms.BoundField]:
        return [self[field_name] for field_name, _ in self.option_names]

    def clean_players(self) -> list[str]:
        setup = load_setup(self.setup_key)
        # the lines as read, shown to the GM before the deal (issue 12 §3)
        self.signup = signup_lines(self.cleaned_data["players"])
        return parse_player_names(self.cleaned_data["players"], expected=setup.players)

    def options(self) -> dict[str, Any]:
        """The options that differ from the setup's defaults."""
        return chosen_options(load_setup(self.setup_key), self.cleaned_data)


def option_field_name(option: str) -> str:
    """``www.will_word_limit`` -> ``opt_www__will_word_limit`` (a form field's name)."""
    return "opt_" + option.replace(".", "__")


def option_name(field_name: str) -> str:
    return field_name.removeprefix("opt_").replace("__", ".")


def option_fields(setup: Setup) -> dict[str, forms.Field]:
    """The setup's options as typed form fields, by field name (``opt_www__...``): a flag is
    a checkbox, a number a number, a time a time field, a choice a select of its values,
    each with its label and one line of help (what it changes, the default) in the
    current language. The new-game form and the balance lab build theirs from this."""
    lang = (get_language() or "it")[:2]
    return {
        option_field_name(name): _typed_field(option, lang)
        for name, option in setup.option_fields.items()
    }


def chosen_options(setup: Setup, cleaned_data: dict[str, Any]) -> dict[str, Any]:
    """The options a valid form of :func:`option_fields` sets apart from the setup's
    defaults, as the engine stores them (a time as ``"HH:MM"``)."""
    chosen = {}
    for name, option in setup.option_fields.items():
        value = cleaned_data[option_field_name(name)]
        if option.kind == "time":
            value = value.strftime("%H:%M")
        if value != option.default:
            chosen[name] = value
    return chosen


def _typed_field(option: OptionField, lang: str) -> forms.Field:
    label = option.words(option.label, lang)
    if option.kind == "flag":
        default = _("sì") if option.default else _("no")
    elif option.kind == "choice":
        default = option.words(option.choice_labels[option.default], lang)
    else:
        default = str(option.default)
    help_text = f"{option.words(option.help, lang)} " + _("Predefinito: %(default)s.") % {
        "default": default
    }
    common = {"label": label, "help_text": help_text}
    if option.kind == "flag":
        return forms.BooleanField(required=False, initial=option.default, **common)
    if option.kind == "number":
        return forms.IntegerField(initial=option.default, min_value=1, **common)
    if option.kind == "time":
        return forms.TimeField(
            initial=dt.datetime.strptime(option.default, "%H:%M").time(),
            input_formats=["%H:%M", "%H.%M", "%H:%M:%S"],
            widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
            error_messages={"invalid": _("Scrivi un orario come 22:30 (ore e minuti).")},
            **common,
        )
    choices = [(value, option.words(option.choice_labels[value], lang)) for value in option.choices]
    return forms.ChoiceField(initial=option.default, choices=choices, **common)
