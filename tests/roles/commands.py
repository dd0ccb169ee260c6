"""`manage.py replay` run from outside, as a GM or a script would, for the replay tests."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import yaml

from tests.conftest import ROOT


def replay(tmp_path, scenario: dict[str, Any], *args: str) -> subprocess.CompletedProcess:
    """Write ``scenario`` to a file and replay it; no database or broker is reachable."""
    path = tmp_path / "scenario.yaml"
    path.write_text(yaml.safe_dump(scenario, allow_unicode=True), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env["DATABASE_URL"] = "postgres://nobody@127.0.0.1:1/none"  # replay must not touch it
    env["REDIS_URL"] = "redis://127.0.0.1:1/0"
    return subprocess.run(
        [sys.executable, "manage.py", "replay", str(path), *args],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
