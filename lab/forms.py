"""The Bilanciamento page's form: a setup and its options (the same typed fields as a new
game), the number of games, the player model, and an optional second variant (other
options, or one card dealt instead of another of the setup's cards)."""

from __future__ import annotations

import copy
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.forms.game import (
    MAX_SEED,
    chosen_options,
    option_field_name,
    option_fields,
    option_name,
    setup_choices,
)
from lab.models import BalanceStudy
from roles.balance.study import Variant
from roles.engine.setups import available_setups, load_setup

MAX_GAMES = 1_000_000


class BalanceStudyForm(forms.Form):
    setup = forms.ChoiceField(label=_("Setup"), choices=setup_choices)
    games = forms.IntegerField(label=_("Numero di partite"), initial=20_000, min_value=1,
                               max_value=MAX_GAMES)  # fmt: skip
    model = forms.ChoiceField(
        label=_("Modello dei giocatori"), choices=BalanceStudy.Model.choices, initial="informed",
        help_text=_("Casuale: scelte legali a caso. Informato: il villaggio vota chi le "
                    "indagini rivelano malvagio, i malvagi si coordinano."),
    )  # fmt: skip
    seed = forms.IntegerField(label=_("Seme"), initial=0, min_value=0, max_value=MAX_SEED)
    versus = forms.BooleanField(label=_("Confronta con una seconda variante"), required=False)
    swap_out = forms.ChoiceField(label=_("Togli una carta"), required=False)
    swap_in = forms.ChoiceField(label=_("e al suo posto distribuisci"), required=False)

    def __init__(self, *args: Any, setup_key: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        key = setup_key or self.data.get("setup") or self.initial.get("setup")
        keys = available_setups()
        self.setup_key = key if key in keys else keys[-1]
        self.fields["setup"].initial = self.setup_key
        setup = load_setup(self.setup_key)
        cards = [("", "—")] + [(k, c.name or k) for k, c in setup.cards.items()]
        self.fields["swap_out"].choices = [("", "—")] + [
            (k, c.name or k) for k, c in setup.cards.items() if c.count
        ]
        self.fields["swap_in"].choices = cards
        self.option_names: list[tuple[str, str]] = []
        self.versus_names: list[tuple[str, str]] = []
        typed = option_fields(setup)  # the new game's typed fields (issue 13 §3)
        for field_name, field in typed.items():
            name = option_name(field_name)
            for prefix, names in (("opt_", self.option_names), ("vs_", self.versus_names)):
                own = prefix + field_name.removeprefix("opt_")
                self.fields[own] = copy.deepcopy(field)
                names.append((own, name))

    def option_fields(self) -> list[forms.BoundField]:
        return [self[field_name] for field_name, _ in self.option_names]

    def versus_fields(self) -> list[forms.BoundField]:
        return [self[field_name] for field_name, _ in self.versus_names]

    def _options(self, names: list[tuple[str, str]]) -> dict[str, Any]:
        setup = load_setup(self.setup_key)
        data = {option_field_name(name): self.cleaned_data[field] for field, name in names}
        return chosen_options(setup, data)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        out, into = data.get("swap_out"), data.get("swap_in")
        if data.get("versus") and bool(out) != bool(into):
            raise forms.ValidationError(_("Per scambiare una carta scegli entrambe le carte."))
        if out and out == into:
            raise forms.ValidationError(_("Scegli due carte diverse."))
        return data

    def variant(self) -> Variant:
        return Variant(self.setup_key, self._options(self.option_names))

    def second(self) -> Variant | None:
        """The second variant, when asked for (and different from the first)."""
        if not self.cleaned_data.get("versus"):
            return None
        out, into = self.cleaned_data.get("swap_out"), self.cleaned_data.get("swap_in")
        return Variant(self.setup_key, self._options(self.versus_names),
                       (out, into) if out and into else None)  # fmt: skip
