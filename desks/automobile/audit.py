"""The Registro of a Time Car game in sentences: each audit event of the desk's log (an
action, the Stealin' phase, the end of a round, a hiding, a reveal, an undo) as the table
would say it, Bandits named and places in words, never where a Bandit hid (ADT-R15)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from desks.automobile.desk import deadline_text
from desks.automobile.text import ACTION_NAMES, EVENT_NAMES, table_lang
from games.models import Game
from games.registry import AuditSentence, register_audit
from roles.automobile_del_tempo.messages import loot_name, place_name
from roles.automobile_del_tempo.state import SETUP_KEY


def _action(data: Mapping[str, Any], name: Any) -> str:
    lang = table_lang()
    line = str(ACTION_NAMES.get(data.get("kind"), data.get("kind")))
    if data.get("actor") is not None:  # the Marshal's move names him once
        line += f" · {name(data['actor'])}"
    if data.get("target") is not None:
        line += f" → {name(data['target'])}"
    if data.get("to"):
        line += f" → {place_name(str(data['to']), lang)}"
    if data.get("loot"):
        line += f" ({loot_name(str(data['loot']), lang)})"
    return line + "."


def _event(kind: str, data: Mapping[str, Any], name: Any) -> str | None:
    if kind == "action":
        return _action(data, name)
    if kind == "stealin":
        return _("Si apre la fase di Furto del round.")
    if kind == "round_end":
        event = data.get("event")
        line = _("Fine del round") + (f" — {EVENT_NAMES[event]}" if event in EVENT_NAMES else "")
        if data.get("hide_by"):
            when = deadline_text(dt.datetime.fromisoformat(str(data["hide_by"])))
            line += "; " + _("scadenza per il nascondiglio: %(when)s") % {"when": when}
        return line + "."
    if kind == "hide":  # never where (ADT-R15)
        return _("Un Bandito si nasconde (dove, nessuno lo vede fino alla rivelazione).")
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
        if kind == "adt_hide":
            return f"{number}: {_event('hide', {}, name)}"
        if kind == "adt_reveal":
            at = place_name(str(detail.get("at")), table_lang())
            return _("Evento n. %(seq)s: %(name)s riappare: %(at)s. [ADT-R16]") % {
                "seq": seq, "name": detail.get("bandit"), "at": at}  # fmt: skip
        if kind.startswith("table_"):
            what = _event(kind.removeprefix("table_"), detail.get("data") or {}, name)
            return f"{number}: {what}" if what else None
        return None

    return sentence


register_audit(SETUP_KEY, describer)
