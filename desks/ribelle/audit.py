"""The Registro of a BANG! game in sentences: each audit event of the desk's log (a turn,
an elimination, a return, a reveal, an undo) as the table would say it, with the seats
named, instead of ``table_eliminated · seq 42; data {'players': [4], …}`` (issue 30)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from desks.ribelle.text import CARD_NAMES, VIA_NAMES
from games.models import Game
from games.registry import AuditSentence, register_audit
from roles.ribelle.table import SETUP_KEY


def _event(kind: str, data: Mapping[str, Any], name: Any) -> str | None:
    players = ", ".join(name(s) for s in data.get("players", []))
    if kind == "turn":
        phase = data.get("phase", 1)
        return _("Turno di %(player)s, fase %(phase)s.") % {"player": players, "phase": phase}
    if kind == "reveal":
        return _("%(player)s scopre il suo ruolo: è il Ribelle!") % {"player": players}
    if kind == "returns":
        via = VIA_NAMES.get(data.get("via") or "", data.get("via"))
        return _("%(player)s rientra in gioco con %(via)s.") % {"player": players, "via": via}
    if kind == "eliminated":
        line = _("Eliminazione di %(players)s") % {"players": players}
        if data.get("by") is not None:
            line += " " + _("da parte di %(by)s") % {"by": name(data["by"])}
        line += " " + _("con %(card)s") % {"card": CARD_NAMES.get(data.get("card"), "—")}
        if data.get("during") is not None:
            line += ", " + _("durante il turno di %(player)s") % {"player": name(data["during"])}
        return line + "."
    return None


def describer(game: Game) -> AuditSentence:
    names = dict(game.players.values_list("seat", "name"))

    def name(seat: Any) -> str:
        return names.get(seat, f"#{seat}") if seat is not None else "—"

    def sentence(kind: str, detail: Mapping[str, Any]) -> str | None:
        seq = detail.get("seq")
        number = _("Evento n. %(seq)s") % {"seq": seq}
        if kind == "table_undo":
            what = _event(str(detail.get("event")), detail.get("data") or {}, name)
            line = _("Annullato l'evento n. %(seq)s") % {"seq": seq}
            line += f": {what}" if what else "."
            return line + (" " + _("La partita riprende.") if detail.get("reopened") else "")
        if kind.startswith("table_"):
            what = _event(kind.removeprefix("table_"), detail.get("data") or {}, name)
            return f"{number}: {what}" if what else None
        return None

    return sentence


register_audit(SETUP_KEY, describer)
