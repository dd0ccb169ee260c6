"""The compiled engine (roles/native.py): loaded when built (CI tests the speed it ships),
never loaded stale, and the same, byte for byte, as its pure Python source, which stays
the single source of truth: every scenario under tests/scenarios/ replayed (JSON, --text,
--trace) and a few hundred simulated games of each setup and player model."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from roles import native
from tests.conftest import ROOT

CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
SCENARIOS = sorted(str(p) for p in (ROOT / "tests" / "scenarios").rglob("*.yaml"))
SETUPS = ("wild-west-wolf", "inquisizione")
GAMES = 300

# Run in a child process, in the tree given as its working directory: the replays and the
# simulated games, as JSON (what the engine printed, and a digest of every game's phases).
DRIVER = r"""
import contextlib, hashlib, io, json, sys
from roles import native
from roles.replay_cli import replay
from roles.engine.simulate import random_game
from roles.balance.informed import InformedModel

report = {"implementation": native.implementation(), "fallback": native.fallback,
          "replays": {}, "games": {}}
for path in json.loads(sys.argv[1]):
    for mode in ("json", "text", "trace"):
        out, err = io.StringIO(), io.StringIO()
        code = replay(path, text=mode == "text", trace=mode == "trace", out=out, err=err)
        report["replays"][f"{path} {mode}"] = [code, out.getvalue(), err.getvalue()]

def phases(log):
    for label, actions, votes, o in log:
        yield repr((
            label,
            [(a.actor, a.target, a.during, a.fake_role, a.vision) for a in actions],
            [(v.voter, v.target, v.at, v.secret, v.abstain) for v in votes],
            [d.as_dict() for d in o.deaths], [r.as_dict() for r in o.results],
            o.execution.as_dict() if o.execution else None, [str(t) for t in o.trace],
            o.departed,
        ))

for setup in json.loads(sys.argv[2]):
    for model in ("random", "informed"):
        digest = hashlib.sha256()
        for seed in range(int(sys.argv[3])):
            state, log = random_game(setup, seed,
                                     model=InformedModel if model == "informed" else None)
            digest.update(repr((state.winners, state.winning_factions, state.death_order,
                                list(phases(log)))).encode())
        report["games"][f"{setup} {model}"] = digest.hexdigest()
print(json.dumps(report))
"""


def run_driver(tree: Path, *, pure: bool = False, games: int = GAMES) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "TABULA_PURE"}
    if pure:
        env["TABULA_PURE"] = "1"
    result = subprocess.run(
        [sys.executable, "-c", DRIVER, json.dumps(SCENARIOS), json.dumps(SETUPS), str(games)],
        cwd=tree, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout)


def pure_copy(tmp: Path) -> Path:
    """The engine's tree copied without any compiled file: what runs without a build."""
    tree = tmp / "pure"
    skip = shutil.ignore_patterns("*.so", "__pycache__", "*.pyc")
    shutil.copytree(ROOT / "roles", tree / "roles", ignore=skip)
    shutil.copy2(ROOT / "manage.py", tree / "manage.py")
    return tree


requires_build = pytest.mark.skipif(
    not (CI or native.built()),
    reason="no compiled engine here (python3 dev.py test builds it; CI always does)",
)


@requires_build
def test_the_compiled_modules_are_the_ones_loaded():
    """In CI (and wherever a build is up to date) the hot modules run compiled: the speed
    shipped is the speed tested. Every other module of roles/ runs its source."""
    assert native.built(), "CI=true: dev.py test must have built the engine"
    assert native.fallback == ""
    assert native.loaded() == dict.fromkeys(native.MODULES, True)
    assert native.implementation() == "mypyc"


def test_every_compiled_module_has_its_source_and_a_sole_build_list():
    for module in native.MODULES:
        assert native.source(module).is_file(), module
    assert len(set(native.MODULES)) == len(native.MODULES)


def test_a_setup_package_lists_its_own_compiled_modules(tmp_path):
    """A new setup opts in to the build inside its own package (``NATIVE`` in its
    ``__init__.py``, read without importing it): roles/native.py names no setup."""
    for name, init in {
        "villaggio": 'NATIVE = ("rules", "night")\n',
        "plain": '"""A setup that runs as plain Python."""\n',
        "not_a_setup": 'NATIVE = ("rules",)\n',  # no setup.yaml: not a setup package
    }.items():
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text(init)
        if name != "not_a_setup":
            (tmp_path / name / "setup.yaml").write_text("key: x\n")
    assert native.setup_modules(tmp_path) == ("roles.villaggio.rules", "roles.villaggio.night")
    shipped = native.setup_modules()
    assert "roles.wild_west_wolf.rules" in shipped
    assert "roles.inquisizione.night" in shipped
    assert native.ENGINE_MODULES + shipped == native.MODULES
    assert not any(m.startswith("roles.engine.") for m in shipped)
    assert "wild_west_wolf" not in Path(native.__file__).read_text()


@requires_build
def test_the_pure_source_replays_and_simulates_exactly_as_the_compiled_engine(tmp_path):
    compiled = run_driver(ROOT)
    pure = run_driver(pure_copy(tmp_path))
    assert (compiled["implementation"], pure["implementation"]) == ("mypyc", "py")
    assert len(compiled["replays"]) == 3 * len(SCENARIOS) > 0
    for key, (code, out, err) in compiled["replays"].items():
        assert [code, out, err] == pure["replays"][key], key
    assert compiled["games"] == pure["games"]


@requires_build
def test_a_build_older_than_its_sources_is_not_loaded(tmp_path):
    """An edit without a rebuild runs the edited source, never the stale extension; and
    TABULA_PURE=1 runs the source of a build that is up to date."""
    tree = tmp_path / "stale"
    shutil.copytree(ROOT / "roles", tree / "roles", ignore=shutil.ignore_patterns("__pycache__"))
    for shared in ROOT.glob(f"{native.GROUP}__mypyc.*"):
        shutil.copy2(shared, tree / shared.name)
    (tree / "build" / "mypyc").mkdir(parents=True)
    shutil.copy2(native.STAMP, tree / "build" / "mypyc" / native.STAMP.name)
    probe = "from roles import native; print(native.implementation(), native.fallback or '-')"

    def implementation(**env: str) -> str:
        result = subprocess.run(
            [sys.executable, "-c", probe], cwd=tree, capture_output=True, text=True,
            env={**{k: v for k, v in os.environ.items() if k != "TABULA_PURE"}, **env},
        )  # fmt: skip
        assert result.returncode == 0, result.stderr
        return result.stdout.strip()

    assert implementation() == "mypyc -"
    assert implementation(TABULA_PURE="1") == "py TABULA_PURE is set"
    stale = "py the build does not match the sources"
    orphan = (
        tree
        / "roles"
        / "engine"
        / native.extension("roles.engine.votes").name.replace("votes", "wills")
    )  # an extension no longer in the list (a module taken out of MODULES)
    shutil.copy2(native.extension("roles.engine.votes"), orphan)
    assert implementation() == stale
    orphan.unlink()
    votes = tree / "roles" / "engine" / "votes.py"
    votes.write_text(votes.read_text() + "\n# edited after the build\n")
    assert implementation() == stale


def test_the_rules_version_digests_the_sources_only(tmp_path):
    """The rules version (kept with every game) is the same compiled or not: it reads the
    .py and .yaml files, never an extension."""
    probe = (
        "from roles.engine.registry import ruleset_for; from roles import native; "
        "print(native.implementation(), *(ruleset_for(s).version for s in "
        f"{SETUPS!r}))"
    )
    here = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    there = subprocess.run(
        [sys.executable, "-c", probe], cwd=pure_copy(tmp_path), capture_output=True,
        text=True, check=True,
    ).stdout.split()  # fmt: skip
    assert there[0] == "py"
    assert here[1:] == there[1:]


def _plain(value):
    """``value`` with each player as his fields (players compare by identity)."""
    from roles.engine.model import Player

    if isinstance(value, Player):
        return ("player", value.name, value.seat, value.role, value.dealt_role, value.faction,
                value.counts_as, value.alive, value.departed)  # fmt: skip
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_plain(v) for v in value)
    if isinstance(value, set | frozenset):
        return frozenset(_plain(v) for v in value)
    return value
