"""The audit log's events as sentences (issue 31 minor: the log showed "vecchio nome /
nuovo nome" for a deadline move and raw keys, ``deaths``, ``kept_submissions``,
``held``, ``handed_in``). One sentence per Werewolf event kind, in the reader's
language; a kind with no sentence here (a referee desk's table events) is shown as its
details, by ``games.text.keys.audit_details``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from games.engine import Ruleset, role_name
from games.text.words import ability_label, moment, phase_name


def _at(value: Any) -> str:
    """A stored ISO moment in words, in the site's local time."""
    parsed = parse_datetime(value) if isinstance(value, str) else None
    return moment(parsed) if parsed is not None else str(value or "—")


def _reason(d: dict[str, Any]) -> str:
    return " " + _("Motivo: %(reason)s.") % {"reason": d["reason"]} if d.get("reason") else ""


def _choice(d: dict[str, Any], rules: Ruleset | None) -> str:
    """What a submission chose: a target, a role to show, with the Law phase if any."""
    setup = rules.key if rules is not None else ""
    what = d.get("target") or (role_name(d["fake_role"], setup) if d.get("fake_role") else "—")
    if d.get("during"):
        what += ", " + _("durante la fase di %(role)s") % {"role": role_name(d["during"], setup)}
    return what


def _action(d: dict[str, Any], rules: Ruleset | None) -> str:
    slot = d.get("slot") or ""
    ability = ability_label(rules, slot) if rules is not None and slot else slot
    return _("%(phase)s, %(ability)s: %(choice)s.") % {
        "phase": phase_name(d.get("phase", "")), "ability": ability,
        "choice": _choice(d, rules),
    } + _reason(d)  # fmt: skip


def _vote(d: dict[str, Any], rules: Ruleset | None) -> str:
    phase = phase_name(d.get("phase", ""))
    if d.get("secret"):
        text = _("%(phase)s, voto segreto: %(target)s.")
    elif d.get("target"):
        text = _("%(phase)s, voto: %(target)s.")
    else:
        text = _("%(phase)s: voto ritirato.")
    return text % {"phase": phase, "target": d.get("target") or "—"} + _reason(d)


def _commit(d: dict[str, Any], rules: Ruleset | None) -> str:
    phase = phase_name(d.get("phase", ""))
    deaths = d.get("deaths") or []
    if not deaths:
        return _("%(phase)s: fase risolta, nessun morto.") % {"phase": phase}
    return _("%(phase)s: fase risolta. Morti: %(names)s.") % {
        "phase": phase,
        "names": ", ".join(deaths),
    }


def _undo(d: dict[str, Any], rules: Ruleset | None) -> str:
    kept = int(d.get("kept_submissions") or 0)
    parts = [_("Risoluzione di %(phase)s annullata.") % {"phase": phase_name(d.get("phase", ""))}]
    parts.append(ngettext("%(n)d invio successivo conservato.",
                          "%(n)d invii successivi conservati.", kept) % {"n": kept})  # fmt: skip
    parts.append(_("Riaperta anche ai giocatori.") if d.get("players")
                 else _("Riaperta solo al master."))  # fmt: skip
    if d.get("held"):
        parts.append(_("La scadenza era passata: resta sospesa."))
    return " ".join(parts)


def _will(d: dict[str, Any], rules: Ruleset | None) -> str:
    words = int(d.get("words") or 0)
    text = (ngettext("Testamento consegnato (%(n)d parola).",
                     "Testamento consegnato (%(n)d parole).", words) if d.get("handed_in")
            else ngettext("Bozza del testamento salvata (%(n)d parola).",
                          "Bozza del testamento salvata (%(n)d parole).", words))  # fmt: skip
    return text % {"n": words}


def _deadline_moved(d: dict[str, Any], rules: Ruleset | None) -> str:
    text = _("Scadenza di %(phase)s spostata da %(old)s a %(new)s.") % {
        "phase": phase_name(d.get("phase", "")), "old": _at(d.get("old")), "new": _at(d.get("new")),
    }  # fmt: skip
    if d.get("reopened"):
        text += " " + _("La fase è stata riaperta.")
    return text + _reason(d)


def _schedule(d: dict[str, Any], rules: Ruleset | None) -> str:
    text = _(
        "Orari: voti entro le %(vote)s, giorno chiuso alle %(day)s, poteri entro le %(powers)s."
    )
    text %= {"vote": d.get("vote", "—")[:5], "day": d.get("day", "—")[:5],
             "powers": d.get("powers", "—")[:5]}  # fmt: skip
    return text + " " + (_("Le notti si risolvono da sole.") if d.get("auto")
                         else _("Le notti le risolve il master."))  # fmt: skip


def _simple(template: str, *keys: str) -> Callable[[dict[str, Any], Ruleset | None], str]:
    """A sentence whose parameters are the detail's ``keys`` (a phase label in words)."""

    def said(d: dict[str, Any], rules: Ruleset | None) -> str:
        values = {k: phase_name(d.get(k, "")) if k == "phase" else d.get(k, "—") for k in keys}
        return _(template) % values + _reason(d)

    return said


SENTENCES: dict[str, Callable[[dict[str, Any], Ruleset | None], str]] = {
    "action": _action,
    "vote": _vote,
    "commit": _commit,
    "undo": _undo,
    "will": _will,
    "deadline_moved": _deadline_moved,
    "schedule": _schedule,
    "deadline_paused": _simple(gettext_noop("Scadenza di %(phase)s sospesa."), "phase"),
    "deadline_resumed": lambda d, r: (
        _("Scadenza di %(phase)s ripresa: ora è %(new)s.")
        % {"phase": phase_name(d.get("phase", "")), "new": _at(d.get("new"))}
    ),
    "day_closed": _simple(
        gettext_noop("%(phase)s chiuso: il thread non accetta più voti."), "phase"
    ),
    "narration_set": _simple(gettext_noop("Narrazione di %(phase)s salvata."), "phase"),
    "action_withdrawn": _simple(gettext_noop("%(phase)s: scelta ritirata dal giocatore."), "phase"),
    "rename": _simple(gettext_noop("Nome cambiato da %(old)s a %(new)s."), "old", "new"),
    "substitution": _simple(
        gettext_noop("%(old)s lascia il posto a %(new)s: il vecchio link non vale più."),
        "old",
        "new",
    ),
    "link_issued": _simple(gettext_noop("Nuovo link privato: il precedente non vale più.")),
    "topic_import": lambda d, r: (
        _("%(phase)s: importati dal topic %(stored)s voti da %(posts)s messaggi.")
        % {
            "phase": phase_name(d.get("phase", "")),
            "stored": d.get("stored", 0),
            "posts": d.get("posts", 0),
        }
    ),
    "topic_settings": lambda d, r: (
        _("Si vota nel topic del forum.") if d.get("votes_from_topic") else _("Si vota sul sito.")
    ),
    "override": lambda d, r: (
        _("%(phase)s: correzione del master, %(player)s %(change)s.")
        % {
            "phase": phase_name(d.get("phase", "")),
            "player": d.get("player_name", ""),
            "change": _("sopravvive") if d.get("change") == "spare" else _("muore"),
        }
        + _reason(d)
    ),
    "game_created": lambda d, r: (
        ngettext(
            "Partita creata con %(n)d giocatore.",
            "Partita creata con %(n)d giocatori.",
            len(d.get("players") or []),
        )
        % {"n": len(d.get("players") or [])}
    ),
    "game_imported": lambda d, r: (
        _("Partita importata da un backup del %(when)s.") % {"when": _at(d.get("exported_at"))}
    ),
    "kept_restored": lambda d, r: (
        _("Invii ripristinati: %(restored)s; non più validi: %(refused)s.")
        % {"restored": len(d.get("restored") or []), "refused": len(d.get("refused") or [])}
    ),
}


def audit_sentence(kind: str, detail: dict[str, Any], rules: Ruleset | None,
                   player: str = "") -> str:  # fmt: skip
    """The event as one sentence in the active language; "" for a kind with none."""
    said = SENTENCES.get(kind)
    return said({**detail, "player_name": player}, rules) if said else ""
