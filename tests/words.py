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
