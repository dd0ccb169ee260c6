"""The Bilanciamento page's form: a setup and its options (the same typed fields as a new
game), the number of games, the player model, and an optional second variant (other
options, or one card dealt instead of another of the setup's cards).

An option a player model does not simulate (roles/balance/probe.py) is marked so beside
its label; a second variant is refused when it is the first again or when it differs in
such an option (the comparison would say "as often" of a rule never played), and a value
the model cannot play is refused in either variant (issue 30, major 6 and lab minors)."""

from __future__ import annotations

import copy
from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import get_language
from django.utils.translation import gettext as _t
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
from roles.balance.probe import FAILS, unsimulated
from roles.balance.study import Variant
from roles.engine.setups import available_setups, load_setup


class BalanceStudyForm(forms.Form):
    setup = forms.ChoiceField(label=_("Setup"), choices=setup_choices)
    games = forms.IntegerField(label=_("Numero di partite"), initial=20_000, min_value=1)
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
        most = settings.TABULA_LAB_MAX_GAMES  # issue 27 §6: a setting, read at each form
        self.fields["games"] = forms.IntegerField(
            label=_("Numero di partite"), initial=min(20_000, most), min_value=1, max_value=most
        )
        key = setup_key or self.data.get("setup") or self.initial.get("setup")
        keys = available_setups()
        self.setup_key = key if key in keys else keys[-1]
        self.fields["setup"].initial = self.setup_key
        setup = load_setup(self.setup_key)
        lang = (get_language() or "it")[:2]
        cards = [("", "—")] + [(k, c.title(lang) or k) for k, c in setup.cards.items()]
        self.fields["swap_out"].choices = [("", "—")] + [
            (k, c.title(lang) or k) for k, c in setup.cards.items() if c.count
        ]
        self.fields["swap_in"].choices = cards
        self.option_names: list[tuple[str, str]] = []
        self.versus_names: list[tuple[str, str]] = []
        typed = option_fields(setup)  # the new game's typed fields (issue 13 §3)
        self.unsimulated = unsimulated(self.setup_key)  # model -> {option: inert|fails}
        for field_name, field in typed.items():
            name = option_name(field_name)
            for prefix, names in (("opt_", self.option_names), ("vs_", self.versus_names)):
                own = prefix + field_name.removeprefix("opt_")
                self.fields[own] = copy.deepcopy(field)
                names.append((own, name))

    def unsimulated_note(self, name: str) -> str:
        """Beside an option's label: which models do not simulate it, which cannot play its
        other values ("" when both models play it)."""
        verdicts = {label: self.unsimulated.get(model, {}).get(name)
                    for model, label in BalanceStudy.Model.choices}  # fmt: skip
        inert = [label for label, verdict in verdicts.items() if verdict and verdict != FAILS]
        failing = [label for label, verdict in verdicts.items() if verdict == FAILS]
        if len(inert) == len(verdicts):
            return _t("non simulata: non cambia i risultati")
        said = [_t("non simulata dal modello %(model)s") % {"model": label} for label in inert]
        said += [_t("il modello %(model)s non sa giocarla") % {"model": label}
                 for label in failing]  # fmt: skip
        return "; ".join(said)

    def option_rows(self) -> list[tuple[forms.BoundField, str]]:
        return [(self[field], self.unsimulated_note(name)) for field, name in self.option_names]

    def versus_rows(self) -> list[tuple[forms.BoundField, str]]:
        return [(self[field], self.unsimulated_note(name)) for field, name in self.versus_names]

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
        if any(
            name in self.errors for name in (*dict(self.option_names), *dict(self.versus_names))
        ):
            return data
        self._check_variants(data.get("model") or "", bool(data.get("versus")))
        return data

    def _labels(self, names: set[str]) -> str:
        setup = load_setup(self.setup_key)
        lang = (get_language() or "it")[:2]
        return ", ".join(setup.option_fields[n].words(setup.option_fields[n].label, lang)
                         for n in sorted(names))  # fmt: skip

    def _check_variants(self, model: str, versus: bool) -> None:
        first = self._options(self.option_names)
        second = self._options(self.versus_names) if versus else {}
        blind = self.unsimulated.get(model, {})
        model_name = dict(BalanceStudy.Model.choices).get(model, model)
        failing = {n for n in (*first, *second) if blind.get(n) == FAILS}
        if failing:
            raise forms.ValidationError(
                _t("Il modello %(model)s non sa giocare: %(options)s. Lascia queste opzioni "
                   "come sono o scegli l'altro modello.")
                % {"model": model_name, "options": self._labels(failing)}
            )  # fmt: skip
        if not versus:
            return
        swap = self.cleaned_data.get("swap_out") and self.cleaned_data.get("swap_in")
        if first == second and not swap:
            raise forms.ValidationError(
                _t("La seconda variante è identica alla prima: cambia un'opzione o scambia "
                   "una carta.")
            )  # fmt: skip
        changed = {n for n in {*first, *second} if first.get(n) != second.get(n)}
        unplayed = {n for n in changed if n in blind}
        if unplayed:
            raise forms.ValidationError(
                _t("Il modello %(model)s non simula %(options)s: il confronto direbbe che "
                   "non cambia nulla. Confronta altre opzioni o scambia una carta.")
                % {"model": model_name, "options": self._labels(unplayed)}
            )  # fmt: skip

    def variant(self) -> Variant:
        return Variant(self.setup_key, self._options(self.option_names))

    def second(self) -> Variant | None:
        """The second variant, when asked for (and different from the first)."""
        if not self.cleaned_data.get("versus"):
            return None
        out, into = self.cleaned_data.get("swap_out"), self.cleaned_data.get("swap_in")
        return Variant(self.setup_key, self._options(self.versus_names),
                       (out, into) if out and into else None)  # fmt: skip
