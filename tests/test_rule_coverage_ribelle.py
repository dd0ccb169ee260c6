"""Every RIB-R and RIB-D number of Il Ribelle! (shared/rules/ribelle.md) is cited by a test,
and every base-game rule the referee cites (BANG-B…) is documented in docs/replay-ribelle.md."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import CI, ROOT

NUMBER = re.compile(r"\bRIB-([RD])(\d+)\b")
# shared/ lies beside the project in CI (and beside the worktrees' parent on a GM's machine)
PLACES = [ROOT.parent / "shared" / "rules", ROOT.parent.parent / "shared" / "rules"]


def rules_file() -> Path:
    for place in PLACES:
        if (place / "ribelle.md").is_file():
            return place / "ribelle.md"
    if CI:
        pytest.fail("shared/rules/ribelle.md is missing: CI lays shared/ beside the project")
    pytest.skip("shared/rules/ribelle.md is not beside the project")


def numbers(text: str) -> set[str]:
    return {f"RIB-{kind}{n}" for kind, n in NUMBER.findall(text)}


def test_every_ribelle_rule_number_is_cited():
    defined = numbers(rules_file().read_text(encoding="utf-8"))
    assert len(defined) == 22 + 13  # RIB-R1..R22, RIB-D1..D13
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
