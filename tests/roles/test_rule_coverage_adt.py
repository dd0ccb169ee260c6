"""Every numbered rule and DECISION of L'Automobile del Tempo (ADT-Rn, ADT-Dn) is cited by
a test (the sibling of test_rule_coverage.py, for the Time Car's rules file)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import ROOT
from tests.roles.automobile_del_tempo.rules_file import rules_text

NUMBER = re.compile(r"\bADT-([RD])(\d+)\b")


def cited() -> set[str]:
    found: set[str] = set()
    for path in (ROOT / "tests").rglob("*"):
        if path.suffix in {".py", ".yaml"} and path.name != Path(__file__).name:
            found |= {f"ADT-{k}{n}" for k, n in NUMBER.findall(path.read_text(encoding="utf-8"))}
    return found


def test_every_time_car_rule_and_decision_is_cited():
    defined = {f"ADT-{k}{n}" for k, n in NUMBER.findall(rules_text())}
    assert len(defined) == 30  # ADT-R1..R20 and ADT-D1..D10
    missing = sorted(defined - cited(), key=lambda r: (r[4], int(r[5:])))
    assert missing == [], f"uncited: {', '.join(missing)}"
