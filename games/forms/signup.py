"""games.forms.signup."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from games.engine import (
    load_setup,
)
from games.forms.validators import validate_name

# What sign-up posts put in front of a name: "1. ", "12) ", "12 ", "- ", "* ", "• ", "@".
_LIST_MARKER = re.compile(r"^\s*(?:\d+\s*[.)\-:]\s*|\d+\s+|[-*•·]\s*)?@?")


# A header of the list, not a name: "ISCRITTI (16/16):", "Iscritti:", "Lista (12/16)".
_HEADER = re.compile(r"(?::\s*$)|\(\s*\d+\s*/\s*\d+\s*\)")


_RESERVES = re.compile(r"riserv|reserve|sostitut|substitut", re.IGNORECASE)

# A one-line list of reserves, "Riserve: A, B" (issue 31 minor: it was read as a player).
_RESERVES_LINE = re.compile(r"^[^\w:]{0,9}(?:riserv|reserve|sostitut|substitut)[^:]{0,30}:",
                            re.IGNORECASE)  # fmt: skip


@dataclass
class SignupLine:
    """One line of a pasted sign-up list: its number, its text, and the name read from it
    ("" for a header or a reserve, with ``note`` saying why it was left out)."""

    number: int
    text: str
    name: str = ""
    note: str = ""
    seat: int = 0  # the name's place in the list


def signup_lines(text: str) -> list[SignupLine]:
    """Every non-blank line of a pasted sign-up list, read: header lines (``ISCRITTI
    (16/16):``) dropped, list markers and leading numbers (``12 Tempesta``) and a leading
    @ removed; after a reserves header, the names are reserves, not players."""
    lines, reserves = [], False
    for number, line in enumerate(re.split(r"\r\n|\r|\n", text), start=1):
        if not line.strip():  # only real line breaks: others are refused
            continue
        if _RESERVES_LINE.match(line) and not _HEADER.search(line):
            reserves = True  # "Riserve: A, B": these and the lines after are reserves
            lines.append(SignupLine(number, line, note=_("riserva")))
            continue
        if _HEADER.search(line):
            reserves = reserves or bool(_RESERVES.search(line))
            lines.append(SignupLine(number, line, note=_("intestazione")))
            continue
        name = _LIST_MARKER.sub("", line, count=1).strip()
        if reserves:
            lines.append(SignupLine(number, line, note=_("riserva")))
        elif name:
            seat = sum(1 for read in lines if read.name) + 1
            lines.append(SignupLine(number, line, name, seat=seat))
    return lines


def parse_player_names(text: str, *, expected: int) -> list[str]:
    """The forum names of a pasted sign-up list, in order (see :func:`signup_lines`).

    Duplicates (ignoring case) and a wrong count are errors that say what to fix.
    """
    names = [line.name for line in signup_lines(text) if line.name]
    errors = []
    seen: dict[str, str] = {}
    duplicates = []
    for name in names:
        key = name.casefold()
        if key in seen and name not in duplicates:
            duplicates.append(name)
        seen.setdefault(key, name)
    if duplicates:
        errors.append(_("Nomi ripetuti: %(names)s.") % {"names": ", ".join(duplicates)})
    for name in names:
        try:
            validate_name(name)  # control and bidi characters would garble the posts
        except ValidationError as exc:
            errors.extend(exc.messages)
    too_long = [n for n in names if len(n) > 80]
    if too_long:
        errors.append(_("Nomi troppo lunghi (massimo 80 caratteri): %(names)s.")
                      % {"names": ", ".join(too_long)})  # fmt: skip
    if len(names) != expected:
        errors.append(
            _("Servono esattamente %(expected)d giocatori: ne hai incollati %(count)d.")
            % {"expected": expected, "count": len(names)}
        )
    if errors:
        raise ValidationError(errors)
    return names


def setup_deadlines(setup_key: str) -> dict[str, dt.time]:
    """The daily deadlines the setup's YAML gives (the one source of their defaults), as
    the game's fields: ``{"vote_close_time": time(22, 0), ...}``."""
    times = load_setup(setup_key).deadlines
    return {f"{name}_time": dt.time.fromisoformat(times[name])
            for name in ("vote_close", "day_close", "powers_close") if name in times}  # fmt: skip
