"""Django's ``{# #}`` comment is one line only: one spread over several lines is printed
into the page as text (base.html's once was, into every page's head)."""

from __future__ import annotations

import re

from tests.conftest import ROOT

UNCLOSED = re.compile(r"\{#(?![^\n]*#\})")


def test_no_template_comment_spans_lines():
    templates = [p for top in ("templates", "games", "desks", "lab", "gm")
                 for p in (ROOT / top).rglob("*.html")]  # fmt: skip
    assert len(templates) > 20
    found = [f"{path.relative_to(ROOT)}:{text[: m.start()].count(chr(10)) + 1}"
             for path in templates
             for text in [path.read_text(encoding="utf-8")]
             for m in UNCLOSED.finditer(text)]  # fmt: skip
    assert found == []
