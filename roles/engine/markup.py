"""One escaping for every post the GM pastes into the forum (issue 27 §7): the Werewolf
day and night posts, the spoiler, "Conta adesso", the BANG and the Time Car posts.

Every text that comes from a player (names above all) or from the engine goes through
``escape`` for its format, so a sign-up name like ``[/b][url=…]`` or ``](javascript:…)``
prints as itself and never as markup (issue 9, #10); the only markup in a post is the one
its writer adds around escaped text. Pure Python: the engine, the site and the desks share it.
"""

from __future__ import annotations

import re

FORMATS = ("bbcode", "markdown")
# BBCode has no escape: a zero-width space after "[" keeps any "[tag]" from being one.
_BBCODE_OPEN = "[\u200b"
# Markdown: the characters that open inline markup anywhere (links, emphasis, code, HTML,
# strike-through, tables), and what makes a block when it starts a line.
_MARKDOWN_INLINE = re.compile(r"([\\`*_\[\]<>~&|])")
_MARKDOWN_BLOCK = re.compile(r"^(\s*)([#+\-=>]|\d+(?=[.)]))", re.MULTILINE)


def escape(text: str, fmt: str) -> str:
    """``text`` (a name, an engine sentence) as literal text in ``fmt`` (``bbcode`` or
    ``markdown``)."""
    if fmt == "bbcode":
        return text.replace("[", _BBCODE_OPEN)
    text = _MARKDOWN_INLINE.sub(r"\\\1", text)
    return _MARKDOWN_BLOCK.sub(
        lambda m: f"{m[1]}\\{m[2]}" if not m[2].isdigit() else f"{m[1]}{m[2]}\\", text
    )
