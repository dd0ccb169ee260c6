"""The rules engine never imports Django (conventions: pure engine)."""

from __future__ import annotations

import ast

from tests.conftest import ROOT


def test_no_django_import_under_roles_engine():
    offenders = []
    for path in (ROOT / "roles").rglob("*.py"):
        if "management" in path.parts or path.name == "apps.py":
            continue  # `manage.py replay` and the app config are the Django side
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [
                f"{path}: {n}" for n in names if n.split(".")[0] in {"django", "games", "gm"}
            ]
    assert offenders == []
