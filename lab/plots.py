"""The plots and tables of a finished study, in the reader's language (docs/balance.md)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from lab.models import BalanceStudy
from lab.svg import histogram, interval_bars, lines
from roles.engine.setups import label, load_setup


def power_label(kind: str, card_name: str) -> str:
    if kind == "found":
        return _("%(card)s ha trovato un sospetto") % {"card": card_name}
    return _("%(card)s: il bersaglio dell'attacco notturno è sopravvissuto") % {"card": card_name}


def _pct(row: dict[str, Any]) -> dict[str, Any]:
    return {**row, "pct": f"{row['rate'] * 100:.1f}", "low_pct": f"{row['low'] * 100:.1f}",
            "high_pct": f"{row['high'] * 100:.1f}"}  # fmt: skip


def variant_tables(figures: dict[str, Any], setup_key: str, lang: str = "it") -> dict[str, Any]:
    """The rows a page shows: win rates, loners, powers, with names in words."""
    setup = load_setup(setup_key)
    cards = setup.cards
    powers = [_pct({**row, "label": power_label(row["kind"], cards[row["card"]].title(lang))})
              for row in figures["powers"]]  # fmt: skip
    # the names in the reader's language, from the keys the study stored beside them
    sides = [_pct({**r, "name": setup.faction(r["faction"], lang)}) if "faction" in r
             else _pct(r) for r in figures["factions"]]  # fmt: skip
    loners = [_pct({**r, "name": cards[r["card"]].title(lang)}) if r.get("card") in cards
              else _pct(r) for r in figures["loners"]]  # fmt: skip
    return {"factions": sides, "loners": loners, "powers": powers,
            "length": figures["length"], "games": figures["games"]}  # fmt: skip


def plots(study: BalanceStudy, lang: str) -> list[dict[str, Any]]:
    """One entry per variant: its tables and its SVG plots."""
    setup = load_setup(study.setup)
    lang = "en" if lang.startswith("en") else "it"
    out = []
    for key in ("first", "second"):
        figures = (study.figures or {}).get(key)
        if not figures:
            continue
        tables = variant_tables(figures, study.setup, lang)
        wins = [(r["name"], r["rate"], r["low"], r["high"]) for r in tables["factions"]]
        wins += [(r["name"], r["rate"], r["low"], r["high"]) for r in tables["loners"]]
        deaths = {label(setup.causes.get(c, {"it": c}), lang): v
                  for c, v in figures["deaths"].items()}  # fmt: skip
        survival = {setup.cards[c].title(lang): v for c, v in figures["survival"].items()}
        powers = [(r["label"], r["rate"], r["low"], r["high"]) for r in tables["powers"]]
        days = {int(d): n for d, n in figures["length"]["days"].items()}
        out.append({
            "key": key, **tables,
            "wins_svg": interval_bars(wins, _("Vittorie per fazione (IC 95%)")),
            "length_svg": histogram(days, _("Durata della partita"), _("giorni"), _("partite")),
            "deaths_svg": lines(deaths, _("Morti per causa, per giorno"), _("giorno")),
            "survival_svg": lines(survival, _("Sopravvivenza per ruolo"), _("giorno"), top=1.0),
            "powers_svg": interval_bars(powers, _("Poteri decisivi (IC 95%)")) if powers else "",
        })  # fmt: skip
    return out
