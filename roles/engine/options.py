"""A setup's options as a GM sets them: each one typed, named and explained.

Every option of a setup (its YAML ``options:`` plus the common ones) has a kind — a
``flag`` (yes/no), a ``number``, a ``time`` (``HH:MM``, Europe/Rome) or a ``choice`` among
the values of ``option_choices`` — an Italian label and one line of help (what it changes),
English beside them. The YAML gives them under ``option_fields:``; the kind follows from
the default (a text is a ``choice`` when it has choices, a ``time`` when the YAML says
``type: time``; a free text is refused). A value is checked against its kind before a game
stores it, so "alle dieci e mezza" never reaches the rules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

TIME = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")
KINDS = ("flag", "number", "time", "choice")

# The words of the options every setup has (roles.engine.setups.COMMON_OPTIONS); a setup's
# YAML may give its own under option_fields.
COMMON_OPTION_WORDS: dict[str, dict[str, dict[str, str]]] = {
    "reveal_role_on_death": {
        "label": {"it": "Rivela il ruolo alla morte", "en": "Reveal the role on death"},
        "help": {
            "it": "Gli annunci di morte dicono il ruolo del morto.",
            "en": "Death announcements name the dead player's role.",
        },
    },
    "announce_cause_of_death": {
        "label": {"it": "Annuncia la causa della morte", "en": "Announce the cause of death"},
        "help": {
            "it": "Gli annunci di morte dicono come è morto il giocatore.",
            "en": "Death announcements say how the player died.",
        },
    },
    "dead_members_share_win": {
        "label": {"it": "Vincono anche i morti", "en": "The dead share the win"},
        "help": {
            "it": "I membri morti di una fazione vincono con lei.",
            "en": "A faction's dead members win with it.",
        },
    },
    "allow_self_vote": {
        "label": {"it": "Voto per sé stessi", "en": "Self-votes"},
        "help": {
            "it": "Un giocatore può votare per sé stesso.",
            "en": "A player may vote for himself.",
        },
    },
    "allow_vote_change": {
        "label": {"it": "Cambio del voto", "en": "Vote changes"},
        "help": {
            "it": "Un voto si può cambiare o ritirare fino alla chiusura della votazione.",
            "en": "A vote may be changed or withdrawn until the vote closes.",
        },
    },
    "reveal_all_at_end": {
        "label": {"it": "Rivela tutti i ruoli alla fine", "en": "Reveal every role at the end"},
        "help": {
            "it": "Il post di fine partita elenca il ruolo di ogni giocatore.",
            "en": "The end-of-game post lists every player's role.",
        },
    },
}


class OptionError(ValueError):
    """An option's words or kind are missing or do not fit its default."""


@dataclass(frozen=True, slots=True)
class OptionField:
    """One option of a setup as the new-game form offers it."""

    name: str  # "www.day_death_will_deadline"
    kind: str  # one of KINDS
    default: Any
    label: dict[str, str]  # lang -> words
    help: dict[str, str]  # lang -> one line: what it changes
    choices: tuple[str, ...] = ()
    choice_labels: dict[str, dict[str, str]] = field(default_factory=dict)  # value -> lang ->

    def words(self, what: dict[str, str], lang: str) -> str:
        return what.get(lang) or what["it"]

    def check(self, value: Any) -> str | None:
        """Why ``value`` cannot be this option's value (None when it can)."""
        if self.kind == "flag":
            return None if isinstance(value, bool) else "must be true or false"
        if self.kind == "number":
            ok = isinstance(value, int) and not isinstance(value, bool) and value >= 1
            return None if ok else "must be a whole number from 1"
        if self.kind == "time":
            return None if isinstance(value, str) and TIME.match(value) else "must be HH:MM"
        return None if value in self.choices else f"must be one of {', '.join(self.choices)}"


def _words(name: str, what: str, data: Any) -> dict[str, str]:
    if not isinstance(data, dict) or not data.get("it"):
        raise OptionError(f"option {name} needs an Italian {what} ('it')")
    return {str(lang): str(text) for lang, text in data.items()}


def option_fields(
    options: dict[str, Any], choices: dict[str, tuple[str, ...]], spec: dict[str, Any], prefix: str
) -> dict[str, OptionField]:
    """Every option typed and worded, from the YAML's ``option_fields`` (``spec``) and the
    common words; raises :class:`OptionError` naming the first option that does not fit."""
    unknown = set(spec) - set(options)
    if unknown:
        raise OptionError(f"option_fields names no option: {', '.join(sorted(unknown))}")
    fields = {}
    for name, default in options.items():
        given = dict(COMMON_OPTION_WORDS.get(name.removeprefix(prefix), {}))
        given.update(spec.get(name) or {})
        if isinstance(default, bool):
            kind = "flag"
        elif isinstance(default, int):
            kind = "number"
        elif name in choices:
            kind = "choice"
        elif given.get("type") == "time":
            kind = "time"
        else:
            raise OptionError(f"option {name} is free text: give it choices or 'type: time'")
        if given.get("type", kind) != kind:
            raise OptionError(f"option {name} is a {kind}, not a {given['type']}")
        labels = given.get("choices") or {}
        option = OptionField(
            name=name, kind=kind, default=default,
            label=_words(name, "label", given.get("label")),
            help=_words(name, "help", given.get("help")),
            choices=tuple(choices.get(name, ())),
            choice_labels={
                str(value): _words(f"{name}: {value}", "label", labels.get(value))
                for value in choices.get(name, ())
            },
        )  # fmt: skip
        problem = option.check(default)
        if problem:
            raise OptionError(f"option {name}: the default {default!r} {problem}")
        fields[name] = option
    return fields
