"""The balance study lives outside the rules engine (roles/balance/, docs/balance.md): it is
pure Python like the engine, and the rules version (Game.rules_version, verify_games)
digests the engine and the setup's package, never the study's code, so a change to the
statistics or to the informed model is not a rules change."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from roles.engine import ruleset as ruleset_module
from roles.engine.registry import ruleset_class, ruleset_for
from tests.conftest import ROOT

BALANCE = ROOT / "roles" / "balance"
ENGINE = ROOT / "roles" / "engine"


def test_the_balance_package_imports_no_django():
    modules = sorted(BALANCE.glob("*.py"))
    names = {path.stem for path in modules}
    assert {"study", "stats", "study_report", "informed"} <= names
    offenders = []
    for path in modules:
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Import):
                imported = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                imported = [node.module]
            else:
                continue
            offenders += [
                f"{path.name}: {n}"
                for n in imported
                if n.split(".")[0] in {"django", "games", "gm", "celery"}
            ]
    assert offenders == []


def test_the_engine_keeps_no_study_module():
    assert not {"study.py", "stats.py", "study_report.py", "informed.py"} & {
        p.name for p in ENGINE.glob("*.py")
    }


@pytest.mark.parametrize("setup", ["inquisizione", "wild-west-wolf", "coin-toss"])
def test_the_rules_version_digests_the_engine_and_the_setup_not_the_study(setup, monkeypatch):
    """Every file the version reads is recorded: all of roles/engine/*.py and the setup
    package's modules and YAML, nothing under roles/balance/."""
    read: list[Path] = []
    original = Path.read_bytes

    def recording(self: Path) -> bytes:
        read.append(self.resolve())
        return original(self)

    monkeypatch.setattr(Path, "read_bytes", recording)
    rules = ruleset_class(setup)()
    # the version is digested once per class and process: forget it for this test
    monkeypatch.delitem(ruleset_module._VERSIONS, type(rules), raising=False)
    version = rules.version
    assert version.startswith(f"{setup}@")
    package = Path(__import__(type(rules).__module__, fromlist=["_"]).__file__).resolve().parent
    expected = {p.resolve() for p in ENGINE.glob("*.py")}
    expected |= {p.resolve() for p in (*package.glob("*.py"), *package.glob("*.yaml"))}
    assert set(read) == expected
    assert not [p for p in read if BALANCE.resolve() in p.parents]


def test_the_rules_version_is_digested_once_per_process(monkeypatch):
    """Every vote asks for the version (games/snapshot.py keys the phase's snapshot on it):
    once known, asking again reads no file, from any instance of the class."""
    assert ruleset_for("wild-west-wolf").version.startswith("wild-west-wolf@")
    read: list[Path] = []
    original = Path.read_bytes
    monkeypatch.setattr(Path, "read_bytes", lambda self: read.append(self) or original(self))
    assert ruleset_for("wild-west-wolf").version == ruleset_class("wild-west-wolf")().version
    assert read == []
