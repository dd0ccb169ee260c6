"""The English refusals read as English (issue 29 §3): a loot's words carry their article,
so no sentence may put one before them ("finds no a jewel")."""

from __future__ import annotations

import re

import pytest

from roles.automobile_del_tempo.messages import LOOT, TEXT, render


@pytest.mark.parametrize("loot", ["jewel", "strongbox", "purse:250"])
def test_a_missing_loot_reads_as_english(loot):
    """ADT-D5: robbing what the Time Car does not hold."""
    said = render("adt.rob.no_such_loot", {"loot": loot}, "en")
    assert said.startswith("cannot take a ")
    assert "there is none in the Time Car" in said
    assert "no a " not in said


def test_no_template_puts_an_article_before_a_loot():
    """Every template with {loot}: the loot's words begin with their own article."""
    assert all(text.startswith(("a ", "an ")) for text in LOOT.values())
    for key, text in TEXT.items():
        assert not re.search(r"\b(a|an|the|no) \{loot\}", text), key
