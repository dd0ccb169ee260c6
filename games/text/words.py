"""The engine's messages in the reader's language.

The engine says a message id and its parameters (roles/engine/messages.py); here the
id's English template (the msgid) is translated, a role key becomes the card's name, a
verb is translated in its context. The catalogues are gettext's ``django.po``/``.mo``:
the generic engine's in ``roles/engine/locale/``, each setup's beside its package
(``roles/<setup>/locale/``), so a new setup touches only its package; what neither
holds falls back on the site's own catalogue (``locale/``). A stored line that is
still plain text (a phase committed before messages had ids) is shown as it is.
"""

from __future__ import annotations

import datetime as dt
import gettext as gnu
import re
from contextlib import suppress
from functools import cache
from pathlib import Path
from typing import Any

from django.utils import formats, timezone
from django.utils.translation import get_language, gettext, pgettext
from django.utils.translation import gettext as _

from games.engine import (
    CATALOGUE,
    Message,
    Role,
    Ruleset,
    RuleViolation,
    SetupError,
    Word,
    cause_label,
    decode,
    dropped,
    label,
    load_setup,
    render,
    role_name,
    setup_dir,
)

ENGINE_LOCALE = Path(__file__).resolve().parents[2] / "roles" / "engine" / "locale"


class _Site(gnu.NullTranslations):
    """The last fallback: the site's Django catalogue in the active language."""

    def gettext(self, message: str) -> str:
        return gettext(message)

    def pgettext(self, context: str, message: str) -> str:
        return pgettext(context, message)


def _load(directory: Path, lang: str) -> gnu.NullTranslations | None:
    path = directory / lang / "LC_MESSAGES" / "django.mo"
    if not path.is_file():
        return None
    with path.open("rb") as handle:
        return gnu.GNUTranslations(handle)


@cache
def catalogue(setup_key: str, lang: str) -> gnu.NullTranslations:
    """The setup's catalogue, then the engine's, then the site's, for ``lang``."""
    chain: gnu.NullTranslations = _Site()
    dirs = [ENGINE_LOCALE]
    if setup_key:
        with suppress(KeyError, SetupError):  # a desk game: no setup package
            dirs.insert(0, setup_dir(setup_key) / "locale")
    for directory in reversed(dirs):
        found = _load(directory, lang)
        if found is not None:
            found.add_fallback(chain)
            chain = found
    return chain


def language() -> str:
    """The reader's language, as the setups' and the engine's words are keyed ("it", "en")."""
    return (get_language() or "it")[:2]


def say(message: Any, setup_key: str = "") -> str:
    """A message (or its stored form) in the active language."""
    message = decode(message)
    if not isinstance(message, Message):
        return "" if message is None else str(message)
    if message.id not in CATALOGUE:  # stored by a version that said it: shown as it is
        return f"{message.id} {dict(message.params)}"

    words = catalogue(setup_key, language())

    def role(value: Role) -> str:
        return role_name(value.key, setup_key) if setup_key else value.key

    def word(value: Word) -> str:
        return words.pgettext(value.context, value.text)

    return render(message, words.gettext, word, role)


def refusal(exc: RuleViolation, setup_key: str = "") -> str:
    """What a player or the GM reads when the rules refuse a submission: the sentence
    in the active language and the rule that forbids it."""
    text = say(exc.said, setup_key) if exc.said is not None else exc.message
    return f"{text} [{exc.rule}]"


def refusal_line(exc: RuleViolation, setup_key: str = "") -> str:
    """A refusal with where and who, "N1: Bea (Maestrina) ... [WWW-R37]", in words."""
    return say_dropped(dropped(exc), setup_key)


def say_dropped(line: Any, setup_key: str = "") -> str:
    """A stored refused submission, "N1: Bea (Maestrina) ... [WWW-R37]"."""
    if not isinstance(line, dict) or "said" not in line:
        return str(line)
    role = role_name(line["role"], setup_key) if line.get("role") and setup_key else line["role"]
    who = f"{line['player']} ({role}) " if line.get("player") and role else ""
    who = who or (f"{line['player']} " if line.get("player") else "")
    where = f"{line['phase']}: " if line.get("phase") else ""
    return f"{where}{who}{say(line['said'], setup_key)} [{line['rule']}]"


def ability_label(rules: Ruleset, key: str) -> str:
    """An ability as the player form names it, in the active language (the setup's words)."""
    labels = rules.setup.labels.get(key)
    return label(labels, language()) if labels else key


_PHASE = re.compile(r"^([DN])(\d+)$")


def moment(at: dt.datetime, zone: dt.tzinfo | None = None) -> str:
    """The one way a moment is written, on pages and in posts alike (issue 31 minor: the
    posts said "Giovedì 3 Dicembre", the pages "giovedì 3 dicembre"): "giovedì 3
    dicembre, ore 22:00" in Italian typography, "Thursday 3 December, 22:00" in English,
    in the active language and in ``zone`` (the site's local time by default)."""
    local = at.astimezone(zone) if zone is not None else timezone.localtime(at)
    day = lower_in_italian(formats.date_format(local, "l j F"))
    return _("%(day)s, ore %(time)s") % {"day": day, "time": f"{local:%H:%M}"}


def lower_in_italian(words: str) -> str:
    """Italian writes days and months in lower case ("martedì 1 dicembre"); Django's
    catalogue capitalises them."""
    return words.lower() if language() == "it" else words


def phase_name(label: str) -> str:
    """``D1`` -> "Giorno 1", ``N0`` -> "Notte 0" (a label of another kind stays as it is)."""
    match = _PHASE.match(str(label or ""))
    if not match:
        return str(label or "")
    kind, number = match.groups()
    if kind == "D":
        return _("Giorno %(n)s") % {"n": number}
    return _("Notte %(n)s") % {"n": number}


def cause(key: str, setup_key: str) -> str:
    """A death's cause in words, from the game's setup (the posts use the same words)."""
    return cause_label(setup_key, key, language())


def factions(setup_key: str, keys: list[str] | None) -> str:
    """The winning factions by their names in the active language ("Legge", "Law")."""
    setup = load_setup(setup_key)
    return ", ".join(setup.faction(key, language()) for key in keys or [])
