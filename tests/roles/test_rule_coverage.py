"""Every numbered rule, decision and interaction of both rulesets is cited by a test."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import ROOT

RULES_DIR = ROOT / "docs" / "rules"  # the project's own copy: a clone alone passes
RULE_FILES = {"WWW": "wild-west-wolf.md", "INQ": "inquisizione.md"}
NUMBER = re.compile(r"\b(WWW|INQ)-([RDI])(\d+)\b")


def defined(prefix: str) -> set[str]:
    text = (RULES_DIR / RULE_FILES[prefix]).read_text(encoding="utf-8")
    return {f"{p}-{k}{n}" for p, k, n in NUMBER.findall(text) if p == prefix}


def cited() -> set[str]:
    found: set[str] = set()
    for path in (ROOT / "tests").rglob("*"):
        if path.suffix in {".py", ".yaml"} and path.name != Path(__file__).name:
            found |= {f"{p}-{k}{n}" for p, k, n in NUMBER.findall(path.read_text(encoding="utf-8"))}
    return found


@pytest.mark.parametrize("prefix", sorted(RULE_FILES))
def test_every_rule_number_is_cited(prefix):
    missing = sorted(defined(prefix) - cited(), key=lambda r: (r[4], int(r[5:])))
    assert missing == [], f"uncited: {', '.join(missing)}"
