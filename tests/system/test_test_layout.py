"""The tests' own house (issue 33 §6): a test module imports what it shares from a helper
module (tests/factories.py, tests/browser/pages.py, tests/games/topic_tools.py...), never
from another test module, whose tests would be collected twice and whose helpers hide."""

from __future__ import annotations

import ast

from tests.conftest import ROOT


def imported_modules(path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


# the one reader of other test modules, for what their marks say, not for a helper
READS_MARKS = {"tests/roles/engine/test_option_coverage.py"}  # which option each tests


def test_no_test_module_imports_another():
    offenders = sorted(
        f"{path.relative_to(ROOT)} imports {name}"
        for path in (ROOT / "tests").rglob("*.py")
        if str(path.relative_to(ROOT)) not in READS_MARKS
        for name in imported_modules(path)
        if name.startswith("tests.") and name.rsplit(".", 1)[-1].startswith("test_")
    )
    assert offenders == []
