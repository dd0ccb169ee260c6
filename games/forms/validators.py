"""What a name or a text may contain (issue 9, #3 and #10).

A forum name is printed in the official posts, in BBCode and Markdown: a control
character, a line break or a bidirectional override in it would garble the post (or hide
what it says), and PostgreSQL refuses a NUL. Free text (a will, a reason) keeps its line
breaks and tabs but loses the rest of the controls and the bidi overrides.
"""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

# The explicit bidirectional formatting characters (Unicode UAX #9): embeddings,
# overrides, isolates and the implicit marks. All are format characters (Cf), refused with
# the controls; named here for the tests and the reader.
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
# Controls, format characters (bidi, zero-width, tags), surrogates, line and paragraph
# separators. Private-use and not-yet-assigned characters (new emoji) pass: they carry no
# markup and no direction.
FORBIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
JOINERS = frozenset("\u200c\u200d")  # inside emoji sequences and some scripts: harmless
TEXT_WHITESPACE = frozenset("\n\r\t")


def _code(char: str) -> str:
    return f"U+{ord(char):04X}"


def _forbidden(char: str) -> bool:
    return char not in JOINERS and unicodedata.category(char) in FORBIDDEN_CATEGORIES


def forbidden_in_name(name: str) -> list[str]:
    """The characters a forum name may not contain."""
    return [char for char in name if _forbidden(char)]


def forbidden_in_text(text: str) -> list[str]:
    """The characters a free text may not contain (line breaks and tabs are fine)."""
    return [char for char in text if char not in TEXT_WHITESPACE and _forbidden(char)]


def _codes(chars: list[str]) -> str:
    return ", ".join(dict.fromkeys(_code(c) for c in chars))


def validate_name(name: str) -> None:
    """A forum name without control or bidi characters, else a message naming them."""
    bad = forbidden_in_name(name)
    if bad:
        raise ValidationError(
            _("Il nome «%(name)s» contiene caratteri invisibili o di controllo (%(codes)s): "
              "toglili e riprova.") % {"name": _printable(name), "codes": _codes(bad)},
            code="name_control",
        )  # fmt: skip


def validate_text(text: str) -> None:
    """A free text without NUL, control or bidi characters, else a message naming them."""
    bad = forbidden_in_text(text)
    if bad:
        raise ValidationError(
            _("Il testo contiene caratteri invisibili o di controllo (%(codes)s): toglili e "
              "riprova.") % {"codes": _codes(bad)},
            code="text_control",
        )  # fmt: skip


def _printable(name: str) -> str:
    """``name`` with its forbidden characters shown as their code points."""
    bad = set(forbidden_in_name(name))
    return "".join(f"<{_code(c)}>" if c in bad else c for c in name)
