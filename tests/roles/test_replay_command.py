"""`manage.py replay` from outside, as the spec says: JSON on stdout and exit 0, or exit 2
with one line on stderr naming the phase, the player and the rule, and nothing on stdout."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest
import yaml
from django.core.management import call_command

from tests.conftest import ROOT
from tests.roles.commands import replay

WWW = {
    "setup": "wild-west-wolf",
    "seed": 7,
    "players": {
        "Sam": "sceriffo", "Mar": "maresciallo", "Pao": "pastore", "Mia": "maestrina",
        "Nora": "notaio", "Vito": "vicesceriffo", "Carla": "cowboy", "Gino": "cowboy",
        "Anna": "cowboy", "Bruno": "bandito", "Pietro": "pistolero", "Capo": "capo_indiano",
        "Sara": "sciamano", "Ivan": "indiano", "Cac": "cacciatore_di_taglie", "Pia": "pianista",
    },
    "phases": [
        {"phase": "N0", "actions": [{"actor": "Mar", "target": "Ivan"},
                                    {"actor": "Pia", "fake_role": "pastore"}]},
        {"phase": "D1", "votes": [{"voter": "Sam", "target": "Ivan"}]},
        {"phase": "N1", "actions": [{"actor": "Capo", "target": "Sam"}]},
    ],
}  # fmt: skip


def test_replay_prints_the_report_as_json(tmp_path):
    result = replay(tmp_path, WWW)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert set(report) == {"setup", "phases", "winners", "winning_factions"}
    assert [p["phase"] for p in report["phases"]] == ["setup", "N0", "D1", "N1"]
    n1 = report["phases"][-1]
    assert n1["deaths"] == [{"player": "Vito", "cause": "pack"}]
    assert "Vito" not in n1["alive"]
    assert report["phases"][2]["execution"] == {"executed": "Ivan", "totals": {"Ivan": 1}}
    assert report["winners"] is None
    assert report["winning_factions"] is None


def test_the_django_command_replays_as_manage_py_does(tmp_path):
    """The replay command through call_command (games/management/commands/replay.py) gives
    the same report: it reaches roles/replay_cli.py through games/engine.py."""
    path = tmp_path / "scenario.yaml"
    path.write_text(yaml.safe_dump(WWW, allow_unicode=True), encoding="utf-8")
    out = io.StringIO()
    call_command("replay", str(path), stdout=out)
    assert json.loads(out.getvalue()) == json.loads(replay(tmp_path, WWW).stdout)


def test_replay_text_prints_the_announcements(tmp_path):
    result = replay(tmp_path, WWW, "--text")
    assert result.returncode == 0, result.stderr
    assert "Il villaggio giustizia Ivan." in result.stdout
    assert "Stanotte muore Vito." in result.stdout


def test_illegal_scenario_exits_2_with_one_line(tmp_path):
    late = {"phase": "N2", "actions": [{"actor": "Vito", "target": "Sam"}]}
    bad = {**WWW, "phases": [*WWW["phases"], {"phase": "D2"}, late]}
    result = replay(tmp_path, bad)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == "N2: Vito (vicesceriffo) is dead and cannot act [WWW-D8]\n"


def test_wrong_player_count_exits_2(tmp_path):
    players = dict(list(WWW["players"].items())[:15])
    result = replay(tmp_path, {**WWW, "players": players})
    assert result.returncode == 2
    assert (
        result.stderr.strip() == "setup: Wild West Wolf needs exactly 16 players, got 15 [WWW-R2]"
    )


def test_malformed_scenario_exits_2(tmp_path):
    result = replay(tmp_path, {**WWW, "phases": [{"phase": "X9"}]})
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1


GAMES = sorted((ROOT / "tests" / "scenarios" / "games").glob("*.yaml"))


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_whole_games_replay_to_their_recorded_report(path):
    """Whole games in the spec's own format, replayed from the command line, give exactly
    the report recorded beside them (every phase, death, result and post)."""
    result = subprocess.run(
        [sys.executable, "manage.py", "replay", str(path)],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))
    assert json.loads(result.stdout) == expected


def test_replay_needs_no_secret_key_no_env_file_and_no_service(tmp_path):
    """Replay is pure: from another directory, with no SECRET_KEY, no .env, DEBUG off."""
    path = tmp_path / "scenario.yaml"
    path.write_text(yaml.safe_dump(WWW, allow_unicode=True), encoding="utf-8")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "DJANGO_READ_DOT_ENV_FILE": "false",
           "DATABASE_URL": "postgres://nobody@127.0.0.1:1/none"}  # fmt: skip
    result = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "replay", str(path)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["phases"][-1]["deaths"] == [{"player": "Vito",
                                                                   "cause": "pack"}]  # fmt: skip
