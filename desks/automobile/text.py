"""The Time Car desk in words: the names of the actions and the round Events, and the log
written as sentences (what each move was: the action, the Bandit, from → to; and why a
figure moved that nobody moved himself: Braking, Django's shot, a punch, ADT-D9)."""

from __future__ import annotations

from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from desks.automobile.desk import Logged, answer_text
from roles.automobile_del_tempo.answers import Moved
from roles.automobile_del_tempo.checker import MARSHAL
from roles.automobile_del_tempo.messages import place_name

ACTION_NAMES = {
    "move": gettext_lazy("Movimento"), "ride": gettext_lazy("Cavalcare"),
    "change_floor": gettext_lazy("Cambiare Piano"), "fire": gettext_lazy("Fuoco"),
    "punch": gettext_lazy("Pugno"), "rob": gettext_lazy("Rapina"),
    "place": gettext_lazy("Posizione decisa dal GM (gioco base)"),
    "marshal": pgettext_lazy("colt express", "Sceriffo"),
}  # fmt: skip
EVENT_NAMES = {
    "braking": gettext_lazy("Frenata"), "swivel_arm": gettext_lazy("Braccio girevole"),
    "angry_marshal": pgettext_lazy("colt express", "Sceriffo arrabbiato"),
    "take_it_all": gettext_lazy("Prendi tutto"),
    "passengers_rebellion": gettext_lazy("Rivolta dei passeggeri"),
    "marshals_revenge": pgettext_lazy("colt express", "Vendetta dello Sceriffo"),
    "pickpocketing": gettext_lazy("Borseggio"),
    "hostage_conductor": gettext_lazy("Ostaggio il capotreno"),
}  # fmt: skip
FORM_ACTIONS = ("move", "ride", "change_floor", "fire", "punch", "rob", "place")


def table_lang() -> str:
    return (translation.get_language() or "it")[:2]


def figure_name(figure: str) -> str:
    return pgettext("colt express", "Sceriffo") if figure == MARSHAL else figure


def _where(place: str | None, lang: str) -> str:
    return place_name(place, lang) if place else _("nascosto")


def _why(moved: Moved, kind: str, data: dict[str, Any], actor: str | None) -> str:
    """Why a figure moved that did not move himself, in a few words."""
    if kind == "round_end":
        return str(EVENT_NAMES.get(data.get("event") or "", ""))
    if kind == "stealin":
        return _("rivelato")
    if moved.figure == actor or (kind == "action" and data.get("kind") == "marshal"):
        return ""
    if data.get("kind") == "fire":
        return _("spinto dal colpo di Django")
    if data.get("kind") == "punch":
        return _("colpito dal pugno di %(name)s") % {"name": actor}
    return ""


def move_line(moved: Moved, kind: str, data: dict[str, Any], actor: str | None) -> str:
    """'Cid (spinto dal colpo di Django): il tetto del Vagone 1 → l'Automobile del Tempo
    [ADT-D9]': who, why when he did not move himself, from → to, and the rule (the base
    game's own effects cite none)."""
    lang = table_lang()
    why = _why(moved, kind, data, actor)
    who = figure_name(moved.figure) + (f" ({why})" if why else "")
    line = f"{who}: {_where(moved.origin, lang)} → {_where(moved.to, lang)}"
    return line + (f" [{moved.rule}]" if moved.rule else "")


def log_entry(item: Logged) -> dict[str, Any]:
    """One row of the log for the GM: the action and who, the referee's sentence, and each
    figure it moved. Never where a Bandit hid (ADT-R15): the hiding shows who hid; the
    reveal, later, shows where he reappears."""
    kind, data, result = item.row.kind, item.data, item.result
    moves: list[Moved] = []
    actor = data.get("actor")
    if kind == "action":
        head = str(ACTION_NAMES.get(data.get("kind"), data.get("kind")))
        head += f" · {actor}" if actor else ""  # the Marshal's move names him once
        line = answer_text(result, actor or figure_name(MARSHAL))
        moves = list(result.moved)
    elif kind == "stealin":
        head, line = _("Fase di Furto"), _("Si apre la fase di Furto del round.")
        moves = [result] if result else []
    elif kind == "round_end":
        event = data.get("event")
        head = _("Fine del round")
        line = (_("Evento del round: %(event)s.") % {"event": EVENT_NAMES[event]} if event
                else _("Nessun evento del round."))  # fmt: skip
        moves = list(result or ())
    elif data.get("drawn"):
        head = _("Nascondiglio")
        line = _("Il Bandito %(name)s non ha scelto entro la scadenza: il sito lo ha nascosto "
                 "in un punto estratto a caso (dove, lo sa solo lui fino alla rivelazione). "
                 "[ADT-D10]") % {
            "name": result.bandit
        }  # fmt: skip
    else:
        head = _("Nascondiglio")
        line = _("Il Bandito %(name)s si è nascosto (dove, lo sa solo lui fino alla "
                 "rivelazione). [ADT-R15]") % {"name": result.bandit}  # fmt: skip
    return {
        "seq": item.row.seq, "kind": kind, "head": head, "line": line, "row": item.row,
        "moves": [move_line(m, kind, data, actor) for m in moves],
    }  # fmt: skip
