"""Where the Time Car's numbered rules are: the project's own copy (docs/rules/) when it
has one, else shared/rules/ beside the project (or beside its worktree folder)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import CI, ROOT

NAME = "automobile-del-tempo.md"
CANDIDATES = (
    ROOT / "docs" / "rules" / NAME,
    ROOT.parent / "shared" / "rules" / NAME,
    ROOT.parent.parent / "shared" / "rules" / NAME,
)


def rules_text() -> str:
    for path in CANDIDATES:
        if path.is_file():
            return path.read_text(encoding="utf-8")
    where = ", ".join(str(p) for p in CANDIDATES)
    if CI:
        pytest.fail(f"the Time Car's rules file is missing (looked in {where})")
    pytest.skip(f"the Time Car's rules file is not beside the project ({where})")
    raise AssertionError  # unreachable: skip raises


def rules_path() -> Path | None:
    return next((p for p in CANDIDATES if p.is_file()), None)
