"""Italian first, English available: the UI and the compiled English catalogue."""

from __future__ import annotations

import ast
import re

import pytest
from django.urls import reverse
from django.utils import translation

from tests.conftest import ROOT

PO = ROOT / "locale" / "en" / "LC_MESSAGES" / "django.po"


def po_entries() -> dict[tuple[str, str], str]:
    """(msgctxt, msgid) -> msgstr of the singular entries (a minimal reader of our own file;
    msgctxt "" when the entry has none)."""
    entries: dict[tuple[str, str], str] = {}
    for block in PO.read_text(encoding="utf-8").split("\n\n"):
        if "msgid_plural" in block:
            continue
        parts = re.findall(r'^(msgctxt|msgid|msgstr) ((?:".*"\n?)+)', block + "\n", flags=re.M)
        fields = {k: "".join(ast.literal_eval(s) for s in v.split("\n") if s) for k, v in parts}
        if fields.get("msgid"):
            entries[fields.get("msgctxt", ""), fields["msgid"]] = fields.get("msgstr", "")
    return entries


def test_every_message_has_a_compiled_english_translation():
    entries = po_entries()
    assert len(entries) > 90
    untranslated = [msgid for msgid, msgstr in entries.items() if not msgstr]
    assert untranslated == []
    with translation.override("en"):
        stale = [
            m for (ctx, m), s in entries.items()
            if (translation.pgettext(ctx, m) if ctx else translation.gettext(m)) != s
        ]  # fmt: skip
    assert stale == [], "run `python manage.py compilemessages`"


@pytest.mark.django_db
def test_italian_even_for_an_english_browser(client):
    page = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")
    assert page.headers["Content-Language"] == "it"
    assert "Accesso del master" in page.content.decode()


@pytest.mark.django_db
def test_english_when_chosen(client):
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    page = client.get(reverse("login"))
    assert page.headers["Content-Language"] == "en"
    assert "Game master login" in page.content.decode()
