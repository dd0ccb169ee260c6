"""The GM's forms. They parse and validate input; the services do the work."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.models import Game
from games.services import parse_player_names, setup_deadlines
from games.validators import validate_name
from roles.engine.setups import available_setups, load_setup

MAX_SEED = 2**48 - 1


def setup_choices() -> list[tuple[str, str]]:
    return [(key, load_setup(key).name) for key in available_setups()]


class GameCreateForm(forms.Form):
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
        for name, default in setup.options.items():
            field_name = "opt_" + name.replace(".", "__")
            self.fields[field_name] = self._option_field(name, default, setup.option_choices)
            self.option_names.append((field_name, name))

    @staticmethod
    def _option_field(name: str, default: Any, choices: dict) -> forms.Field:
        label = name.split(".", 1)[1].replace("_", " ")
        if isinstance(default, bool):
            return forms.BooleanField(label=label, required=False, initial=default)
        if isinstance(default, int):
            return forms.IntegerField(label=label, initial=default, min_value=1)
        if name in choices:
            return forms.ChoiceField(label=label, initial=default,
                                     choices=[(c, c) for c in choices[name]])  # fmt: skip
        return forms.CharField(label=label, initial=default, max_length=40)

    def option_fields(self) -> list[forms.BoundField]:
        return [self[field_name] for field_name, _ in self.option_names]

    def clean_players(self) -> list[str]:
        setup = load_setup(self.setup_key)
        return parse_player_names(self.cleaned_data["players"], expected=setup.players)

    def options(self) -> dict[str, Any]:
        """The options that differ from the setup's defaults."""
        defaults = load_setup(self.setup_key).options
        chosen = {name: self.cleaned_data[field] for field, name in self.option_names}
        return {name: value for name, value in chosen.items() if value != defaults[name]}
