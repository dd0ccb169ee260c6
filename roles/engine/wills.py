"""The words of a will (WWW-R45, WWW-D22): words are whitespace-separated tokens, and a
will that is too long is cut after its last allowed word.

One definition serves the engine's cut, the site's reading and the page's live counter:
the page receives :data:`WORD_PATTERN` and builds its JavaScript ``RegExp`` from it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Exactly the whitespace of Python's ``str.split()``, spelled so that Python's ``re`` and
# JavaScript's ``RegExp`` (with the "u" flag) read it alike: JavaScript's own ``\s``
# differs (it adds U+FEFF and lacks U+001C..U+001F and U+0085).
WORD_PATTERN = r"[^\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+"
_WORD = re.compile(WORD_PATTERN)


@dataclass(frozen=True)
class Cut:
    """A will read against its word limit: the text up to the end of the last word kept
    (its own spacing and line breaks intact), how many words it has and how many go."""

    kept: str
    words: int
    dropped: int
    last_word: str  # the last word kept, where the cut falls ("" for an empty will)

    @property
    def is_cut(self) -> bool:
        return self.dropped > 0


def word_count(text: str) -> int:
    """The words of ``text``, counted as the cut counts them."""
    return sum(1 for _ in _WORD.finditer(text))


def cut_will(text: str, limit: int) -> Cut:
    """``text`` cut after its ``limit``-th word (WWW-R45: the words after it are not
    reported)."""
    found = list(_WORD.finditer(text))
    kept = found[: max(limit, 0)]
    if not kept:
        return Cut("", len(found), len(found), "")
    # from the first word to the end of the last one kept: the will's own spacing and
    # line breaks in between, no stray whitespace around
    return Cut(text[kept[0].start() : kept[-1].end()], len(found), len(found) - len(kept),
               kept[-1].group())  # fmt: skip
