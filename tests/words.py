"""What no Italian page may show (issue 13 §2): the engine's keys and its English
sentences. Shared by the catalogue, page and browser tests."""

from __future__ import annotations

import re
from functools import cache
from html import unescape

from roles.engine.messages import CATALOGUE, WORDS
from roles.engine.model import CORRECTION_KINDS
from roles.engine.registry import ruleset_for
from roles.engine.setups import available_setups

PLACEHOLDER = re.compile(r"%\((\w+)\)[sdr]")


def load_all_setups() -> list[str]:
    """Every setup's ruleset loaded, so each one's messages are declared."""
    keys = [key for key in available_setups() if _has_rules(key)]
    for key in keys:
        ruleset_for(key)
    return keys


def _has_rules(key: str) -> bool:
    try:
        ruleset_for(key)
    except Exception:
        return False
    return True


@cache
def engine_keys() -> frozenset[str]:
    """Keys a person must never read: message ids, result kinds, ability keys, correction
    kinds (the ones made of plain Italian or English words that a sentence may hold,
    such as ``role`` or ``vision``, are left to the sentence check)."""
    keys = set(CATALOGUE) | set(CORRECTION_KINDS)
    for setup in load_all_setups():
        rules = ruleset_for(setup)
        keys |= set(rules.result_kinds)
        for role in rules.setup.cards:
            keys |= {ability.key for ability in rules.card_abilities(role)}
    return frozenset(k for k in keys if "_" in k or "." in k or k in DISTINCT)


# Single-word keys that no Italian sentence holds.
DISTINCT = {"investigation", "autopsy", "spotted", "recruit", "recognized", "visitors",
            "wills", "bounty", "spare", "kill", "knows", "investigate", "accompany",
            "deliver", "shoot", "probe", "maul", "protect", "designate", "redirect"}  # fmt: skip


@cache
def english_fragments() -> frozenset[str]:
    """The fixed words of each English template (between its placeholders), long enough
    to be a sentence's and not a name's."""
    fragments = set()
    for template in CATALOGUE.values():
        for part in PLACEHOLDER.split(template)[::2]:
            part = part.strip(" .,:;()")
            if len(part) >= 14 and " " in part:
                fragments.add(part)
    fragments |= {text for _, text in WORDS if " " in text and len(text) >= 10}
    return frozenset(fragments)


def visible_text(html: str) -> str:
    """The page's text as a reader sees it (no tags, no scripts, no attribute values)."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S | re.I)
    return unescape(re.sub(r"<[^>]+>", " ", html))


def untranslated(text: str) -> list[str]:
    """The engine keys and English sentences found in ``text``."""
    found = [k for k in engine_keys() if re.search(rf"(?<![\w.]){re.escape(k)}(?![\w])", text)]
    found += [f for f in english_fragments() if f in text]
    return sorted(found)


# Issue 31: words of one language that no page of the other shows (matched as whole words,
# case-sensitive). The Italian ones: the interface's common words, the roles, groups and
# factions by their Italian names, the readers' formats; the English ones likewise. Words
# both languages share (Cowboy, master, link, post, backup, Spoiler, VIP) are left out.
_ITALIAN = """
    Giorno Notte giorno notte Cimitero Indiani Indiano giocatore giocatori Giocatore scegli
    Scegli scelta voto voti Voto votano testamento testamenti Testamento fase partita Partite
    Conosci conosce Sei sei della delle dello degli nella alla il gli le che una sono è
    non può puoi Nessuno nessuno Salva salva Annulla Chiudi Scadenza scadenza entro alle
    morto morti vivo vivi ruolo Ruolo Registro Annunci Regolamento Impostazioni Lingua
    Sceriffo Maresciallo Pastore Maestrina Notaio Vicesceriffo Bandito Pistolero Sciamano
    Pianista Rinnegato Cacciatore Veggente Postino Becchino Guardia Guardie Gemella Gemelle
    Contadino Semplice Inquisitore Boia Templare Lupo Lupi Mannaro Scorbutico Martire
    Branco Legge Fuorilegge Solitario Solitari Americano Eretico Innocente Losco
    pagina salvata Autore Durante Ogni con del di legge fuorilegge indiani eresia branco
"""
_ENGLISH = """
    the The You you your Your Day Night player players Player vote votes Vote will wills
    Will choose Choose and with of is not cannot can know Knows knows Save save deadline
    Deadline Cancel Close Rules Log Posts Wills Settings Language Role role dead alive
    Sheriff Marshal Pastor Teacher Notary Deputy Bandit Gunslinger Shaman Pianist Renegade
    Bounty Hunter Seer Postman Gravedigger Guard Guards Twin Farmer Inquisitor Executioner
    Templar Werewolf Grumpy Martyr Pack Law Outlaws Outlaw Loner Loners Indians Indian
    Cemetery American Heretic Innocent Shady saved page Author During Every
"""
ITALIAN_ONLY = frozenset(_ITALIAN.split())
ENGLISH_ONLY = frozenset(_ENGLISH.split())
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


def page_words(html: str) -> str:
    """What a reader of the page's language reads as its interface: the visible text less
    what is in another language by design — the textareas (posts to paste in the game's
    language, the forum's vote syntax, a will's draft) and the Regolamento's two documents
    (the English specification and the Italian original, each marked with its ``lang``)."""
    html = re.sub(r"<textarea\b.*?</textarea>", " ", html, flags=re.S | re.I)
    html = re.sub(r'<article class="rulebook">.*?</article>', " ", html, flags=re.S)
    return visible_text(html)


def other_language(text: str, lang: str) -> list[str]:
    """The words of ``text`` that belong to the other language than ``lang``."""
    foreign = ITALIAN_ONLY if lang == "en" else ENGLISH_ONLY
    return sorted({word for word in _WORD.findall(text) if word in foreign})
