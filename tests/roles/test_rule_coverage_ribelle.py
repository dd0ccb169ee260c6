"""Every RIB-R and RIB-D number of Il Ribelle! (docs/rules/ribelle.md) is cited by a test,
and every base-game rule the referee cites (BANG-B…) is documented in docs/replay-ribelle.md."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import ROOT

NUMBER = re.compile(r"\bRIB-([RD])(\d+)\b")
RULES = ROOT / "docs" / "rules" / "ribelle.md"  # the project's own copy: a clone alone passes


def numbers(text: str) -> set[str]:
    return {f"RIB-{kind}{n}" for kind, n in NUMBER.findall(text)}


def test_every_ribelle_rule_number_is_cited():
    defined = numbers(RULES.read_text(encoding="utf-8"))
    assert len(defined) == 22 + 16  # RIB-R1..R22, RIB-D1..D16
    cited: set[str] = set()
    for path in (ROOT / "tests").rglob("*"):
        if path.suffix in {".py", ".yaml"} and path.name != Path(__file__).name:
            cited |= numbers(path.read_text(encoding="utf-8"))
    missing = sorted(defined - cited, key=lambda r: (r[4], int(r[5:])))
    assert missing == [], f"uncited: {', '.join(missing)}"


def test_every_base_rule_the_referee_cites_is_documented():
    source = "".join(
        p.read_text(encoding="utf-8") for p in (ROOT / "roles" / "ribelle").glob("*.py")
    )
    used = set(re.findall(r"BANG-B\d+", source))
    documented = set(
        re.findall(
            r"\*\*(BANG-B\d+)\*\*",
            (ROOT / "docs" / "replay-ribelle.md").read_text(encoding="utf-8"),
        )
    )
    assert used
    assert used <= documented
