"""The site's own keys in words: the GM's correction kinds, the audit log's kinds and
fields. (The engine's words come through games/text/words.py; these are the site's and
live in the site's catalogue, locale/.)"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from games.engine import Ruleset, role_name
from games.registry import desk_name
from games.text.words import ability_label
from games.text.words import phase_name as phase_title

CORRECTIONS = {"spare": _("sopravvive"), "kill": _("muore")}

AUDIT_KINDS = {
    "action": _("azione"),
    "action_withdrawn": _("azione ritirata"),
    "kept_restored": _("ripristino dal backup"),
    "override_removed": _("correzione del master tolta"),
    "rename": _("nome cambiato"),
    "submission_corrected": _("invio corretto"),
    "submission_removed": _("invio rimosso"),
    "adt_hide": _("bandito nascosto"),
    "adt_reveal": _("bandito riapparso"),
    "clock_notice_seen": _("avviso della scadenza letto"),
    "commit": _("fase risolta"),
    "day_closed": _("giorno chiuso"),
    "deadline": _("scadenza della fase"),
    "deadline_moved": _("scadenza spostata"),
    "deadline_paused": _("scadenza sospesa"),
    "deadline_resumed": _("scadenza ripresa"),
    "game_archived": _("partita archiviata"),
    "game_created": _("partita creata"),
    "game_restored": _("partita ripristinata"),
    "game_imported": _("partita importata"),
    "link_issued": _("link generato"),
    "narration_set": _("narrazione salvata"),
    "override": _("correzione del master"),
    "schedule": _("orari cambiati"),
    "substitution": _("sostituzione"),
    "table_undo": _("annullamento al tavolo"),
    "topic_import": _("voti importati dal topic"),
    "topic_settings": _("impostazioni del topic"),
    "undo": _("annullamento"),
    "vote": _("voto"),
    "will": _("testamento"),
}

AUDIT_FIELDS = {
    "phase": _("fase"),
    "slot": _("abilità"),
    "target": _("bersaglio"),
    "during": _("durante la fase di"),
    "fake_role": _("ruolo da mostrare"),
    "reason": _("motivo"),
    "change": _("correzione"),
    "step": _("passo"),
    "new": _("nuovo nome"),
    "old": _("vecchio nome"),
    "setup": _("regolamento"),
    "seed": _("seme"),
    "players": _("giocatori"),
    "secret": _("segreto"),
    "event": _("evento"),
}


def correction(kind: str) -> str:
    return str(CORRECTIONS.get(kind, kind))


def audit_kind(kind: str) -> str:
    return str(AUDIT_KINDS.get(kind, kind))


def audit_details(detail: dict[str, Any], rules: Ruleset | None) -> list[tuple[str, Any]]:
    """An audit event's details as (label, value) pairs, keys and engine values in words
    (an ability, a role, a correction, a phase); empty values left out."""
    shown = []
    for key, value in detail.items():
        if value in ("", None):
            continue
        if key == "slot" and rules is not None:
            value = ability_label(rules, str(value))
        elif key in ("during", "fake_role") and rules is not None:
            value = role_name(str(value), rules.key)
        elif key == "change":
            value = correction(str(value))
        elif key == "setup":
            value = rules.setup.name if rules is not None else desk_name(str(value))
        elif key == "phase" and isinstance(value, str) and value[:1] in ("N", "D"):
            value = phase_title(value) if value[1:].isdigit() else value
        elif isinstance(value, bool):
            value = _("sì") if value else _("no")
        elif isinstance(value, list):
            value = ", ".join(str(v) for v in value)
        shown.append((str(AUDIT_FIELDS.get(key, key)), value))
    return shown
