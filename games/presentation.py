"""How the engine's results read to a player, in the active language."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from roles.engine.announce import role_name

VALUE_LABELS = {
    "americano": "Americano", "indiano": "Indiano", "innocente": "INNOCENTE",
    "losco": "LOSCO", "eretico": "ERETICO", "non_eretico": "non ERETICO",
    "vip": "VIP", "non_vip": "non VIP",
}  # fmt: skip


def names_in(value: Any, seats: dict[int, str]) -> Any:
    """Turn stored seats back into the current forum names."""
    if isinstance(value, dict) and "seats" in value:
        return [seats[s] for s in value["seats"]]
    if isinstance(value, dict) and "seat" in value:
        return seats[value["seat"]]
    return value


def describe(setup_key: str, kind: str, about: str | None, value: Any) -> str:
    """One result as a sentence (value already turned back into names)."""
    label = VALUE_LABELS.get(value, value) if isinstance(value, str) else value
    listed = ", ".join(value) if isinstance(value, list) else value
    text = {
        "role": lambda: _("Il tuo ruolo: %(role)s.") % {"role": role_name(value, setup_key)},
        "knows": lambda: _("Conosci: %(names)s.") % {"names": listed},
        "bounty": lambda: _("La tua taglia è su %(name)s.") % {"name": value},
        "bounty_role": lambda: (
            _("La tua taglia, %(name)s, è %(role)s.")
            % {"name": about, "role": role_name(value, setup_key)}
        ),
        "role_of": lambda: (
            _("%(name)s è %(role)s.") % {"name": about, "role": role_name(value, setup_key)}
        ),
        "investigation": lambda: (
            _("%(name)s è %(value)s.") % {"name": about, "value": label}
            if about
            else _("Il responso del Veggente: %(value)s.") % {"value": label}
        ),
        "autopsy": lambda: (
            _("Il giustiziato di ieri, %(name)s, era %(value)s.") % {"name": about, "value": label}
            if about
            else _("Ieri non è stato giustiziato nessuno.")
        ),
        "vision": lambda: (
            _("Gli spiriti rivelano che %(name)s è %(role)s.")
            % {"name": about, "role": role_name(value, setup_key)}
        ),
        "converted": lambda: (
            (
                _("Gli spiriti rivelano che %(name)s è stato reclutato dai Fuorilegge.")
                if value
                else _("Gli spiriti rivelano che %(name)s non è stato reclutato dai Fuorilegge.")
            )
            % {"name": about}
        ),
        "vip": lambda: _("La vittima %(name)s era: %(value)s.") % {"name": about, "value": label},
        # the Maestrina's Indian reads as the Maresciallo's answer does: "X è Indiano."
        "spotted": lambda: _("%(name)s è %(value)s.") % {"name": value, "value": "Indiano"},
        "spotted_by": lambda: _("%(name)s è la Maestrina.") % {"name": value},
        "recruit": lambda: (
            {
                "success": _("Hai reclutato %(name)s: ora è un Fuorilegge."),
                "failed": _("Il reclutamento di %(name)s è fallito."),
                "exposed": _("Sei stato scoperto mentre provavi a reclutare %(name)s."),
            }[value]
            % {"name": about}
        ),
        "recognized": lambda: _("Tu e %(name)s vi siete riconosciuti a vicenda.") % {"name": value},
        "recruited_by": lambda: (
            _("Sei stato reclutato da %(name)s: ora sei un Fuorilegge e conservi le tue abilità.")
            % {"name": value}
        ),
        "visitors": lambda: (
            _("Stanotte ti hanno scelto come bersaglio: %(names)s.") % {"names": listed}
            if value
            else _("Stanotte nessuno ti ha scelto come bersaglio.")
        ),
        "wills": lambda: _("Il Notaio ti consegna i testamenti di: %(names)s.") % {"names": listed},
        "rinnegato": lambda: (
            _("Il tuo bersaglio %(name)s è morto nella notte: ora sei il Rinnegato.")
            % {"name": value}
        ),
        "last_wolf": lambda: _("Sei l'unico lupo rimasto: da stanotte scegli tu chi sbranare."),
    }.get(kind)
    return text() if text else f"{kind}: {listed}"
