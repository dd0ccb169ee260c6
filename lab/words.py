"""A study's variants in words, in the reader's language (issue 30, lab minors): each
option by its label and its value ("Rivela il ruolo alla morte: sì"), a swap by the
cards' names, and what a comparison compares; never a raw key."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from lab.models import BalanceStudy
from roles.engine.options import OptionField
from roles.engine.setups import load_setup


def _lang() -> str:
    return "en" if (get_language() or "it").startswith("en") else "it"


def value_words(option: OptionField, value: Any) -> str:
    """An option's value as the new-game form shows it."""
    if option.kind == "flag":
        return _("sì") if value else _("no")
    if option.kind == "choice" and str(value) in option.choice_labels:
        return option.words(option.choice_labels[str(value)], _lang())
    return str(value)


def option_words(setup_key: str, name: str, value: Any) -> str:
    """``Rivela il ruolo alla morte: sì``."""
    option = load_setup(setup_key).option_fields.get(name)
    if option is None:  # an option the setup no longer offers: its key is all there is
        return f"{name}: {value}"
    return f"{option.words(option.label, _lang())}: {value_words(option, value)}"


def swap_words(setup_key: str, swap: Any) -> str:
    cards = load_setup(setup_key).cards
    out, into = (cards[c].title(_lang()) if c in cards else c for c in swap)
    return _("una carta %(out)s sostituita da %(into)s") % {"out": out, "into": into}


def variant_words(setup_key: str, data: Mapping[str, Any]) -> str:
    """A variant: its options apart from the defaults and its swap, or "opzioni
    predefinite"."""
    said = [option_words(setup_key, k, v) for k, v in (data.get("options") or {}).items()]
    if data.get("swap"):
        said.append(swap_words(setup_key, data["swap"]))
    return "; ".join(said) or _("opzioni predefinite")


def compared_words(study: BalanceStudy) -> str:
    """What a comparison changes from the first variant to the second: "Rivela il ruolo
    alla morte: no → sì", a swap; a single study: its variant."""
    if not study.versus:
        return variant_words(study.setup, study.variant)
    setup = load_setup(study.setup)
    first, second = study.variant.get("options") or {}, study.versus.get("options") or {}
    said = []
    for name in [*first, *(k for k in second if k not in first)]:
        option = setup.option_fields.get(name)
        default = option.default if option else None
        a, b = first.get(name, default), second.get(name, default)
        if a == b:
            continue
        if option is None:
            said.append(f"{name}: {a} → {b}")
        else:
            said.append(f"{option.words(option.label, _lang())}: "
                        f"{value_words(option, a)} → {value_words(option, b)}")  # fmt: skip
    if study.versus.get("swap"):
        said.append(swap_words(study.setup, study.versus["swap"]))
    return "; ".join(said)
