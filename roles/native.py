"""The rules engine compiled with mypyc, its pure-Python source the single source of truth.

The hot modules (:data:`MODULES`) are compiled in place into C extensions next to their
``.py`` files, as black and mypy ship themselves; every other module, and every module when
no build is there, runs as plain Python with the same results. Nothing compiled is ever
committed (``*.so`` and ``build/`` are git-ignored): ``python3 dev.py run`` and ``test``
rebuild when the sources changed, and the Dockerfile builds them in a build stage.

    python roles/native.py build    # compile in place (needs mypy, setuptools, a C compiler)
    python roles/native.py status   # which modules are loaded compiled
    python roles/native.py clean    # remove the extensions (back to pure Python)

A build records the digest of the sources it compiled (:data:`STAMP`). When the sources
have changed since (an edit without a rebuild), the package ``roles`` loads the pure
source instead of the stale extensions (:func:`guard`), so an edit is never hidden by an
old build; ``TABULA_PURE=1`` forces the pure source too.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import subprocess

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build" / "mypyc"
STAMP = BUILD / "sources.blake2b"
GROUP = "tabula_engine"  # the shared library: tabula_engine__mypyc.*.so at the root

# The generic modules compiled: the engine's hot path (the model, the messages every trace
# line and refusal is made of, the votes, the abilities, the ruleset, the simulator) and the
# balance lab's player model and counting. The rest (options, the loading of setups, the
# reports) runs once per game or per study and stays pure; so does RuleViolation
# (roles/engine/errors.py), which other games' rules subclass in plain Python.
ENGINE_MODULES = (
    "roles.engine.model",
    "roles.engine.statuses",
    "roles.engine.messages",
    "roles.engine.votes",
    "roles.engine.tally",
    "roles.engine.abilities",
    "roles.engine.mechanics",
    "roles.engine.legality",
    "roles.engine.deal",
    "roles.engine.ruleset",
    "roles.engine.simple",
    "roles.engine.simulate",
    "roles.balance.counting",
    "roles.balance.informed",
    "roles.balance.stats",
)
NATIVE = "NATIVE"  # the name a setup package's __init__.py lists its compiled modules in


def setup_modules(roles: Path | None = None) -> tuple[str, ...]:
    """Each setup package's own compiled modules (a package under roles/ with a
    ``setup.yaml``): the module names its ``__init__.py`` lists as ``NATIVE = ("rules",
    ...)``, read without importing it (this runs as ``roles`` is imported). A package that
    lists none runs as plain Python: a new setup opts in inside its own package."""
    found: list[str] = []
    for init in sorted((roles or ROOT / "roles").glob("*/__init__.py")):
        if not (init.parent / "setup.yaml").is_file():
            continue
        for node in ast.parse(init.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Assign) and any(
                isinstance(target, ast.Name) and target.id == NATIVE for target in node.targets
            ):
                names = ast.literal_eval(node.value)
                found.extend(f"roles.{init.parent.name}.{name}" for name in names)
    return tuple(found)


# Every module compiled: the generic ones, then each setup package's.
MODULES = ENGINE_MODULES + setup_modules()


def source(module: str) -> Path:
    return ROOT.joinpath(*module.split(".")).with_suffix(".py")


def digest() -> str:
    """The digest of what a build compiles: the modules' sources and this file."""
    h = hashlib.blake2b(digest_size=16)
    for path in [Path(__file__), *(source(m) for m in MODULES)]:
        h.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def extension(module: str) -> Path | None:
    """The module's compiled extension beside its source, if one was built."""
    path = source(module)
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = path.with_name(path.stem + suffix)
        if candidate.exists():
            return candidate
    return None


def extensions() -> list[Path]:
    """Every compiled extension under roles/ (those of :data:`MODULES`, and any left by
    an older list)."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return sorted(path for path in (ROOT / "roles").rglob("*") if path.name.endswith(suffixes))


def built() -> bool:
    """Whether the extensions present are exactly those of :data:`MODULES`, built from
    the sources as they are now."""
    try:
        stamp = STAMP.read_text().strip()
    except OSError:
        return False
    expected = {extension(m) for m in MODULES}
    return stamp == digest() and None not in expected and expected == set(extensions())


def compiled(module: ModuleType) -> bool:
    """Whether ``module`` was loaded from a compiled extension."""
    return isinstance(getattr(module, "__loader__", None), importlib.machinery.ExtensionFileLoader)


def implementation() -> str:
    """``mypyc`` when the engine runs compiled, ``py`` when it runs its pure source (a
    snapshot pickled by one is not read by the other: games/snapshot.py keys on it)."""
    return "mypyc" if compiled(importlib.import_module("roles.engine.model")) else "py"


def loaded() -> dict[str, bool]:
    """Each module of :data:`MODULES`, imported: True when it runs compiled."""
    return {m: compiled(importlib.import_module(m)) for m in MODULES}


fallback = ""  # why the pure source runs although extensions are there ("" if it does not)


class _PureFinder:
    """Finds every module of roles/ that has an extension as its ``.py`` source."""

    def find_spec(
        self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if not name.startswith("roles.") or extension(name) is None:
            return None
        file = source(name)
        if not file.is_file():
            return None
        loader = importlib.machinery.SourceFileLoader(name, str(file))
        return importlib.util.spec_from_file_location(name, file, loader=loader)


def guard() -> None:
    """Called as the package ``roles`` is imported: unless the extensions match the sources
    (or with ``TABULA_PURE=1``), the compiled modules are loaded from their source."""
    if not extensions():
        return  # nothing built: plain Python anyway
    pure = os.environ.get("TABULA_PURE", "").lower() in {"1", "true", "yes"}
    if not pure and built():
        return
    global fallback  # silent here: `replay` keeps its one line on stderr; dev.py says it
    fallback = "TABULA_PURE is set" if pure else "the build does not match the sources"
    if not any(isinstance(f, _PureFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _PureFinder())


def clean() -> None:
    for ext in extensions():
        ext.unlink(missing_ok=True)
    for shared in ROOT.glob(f"{GROUP}__mypyc.*"):
        shared.unlink()
    STAMP.unlink(missing_ok=True)


def build(python: str = sys.executable) -> subprocess.CompletedProcess[str]:
    """Compile :data:`MODULES` in place with mypyc (in a child process: setuptools and
    mypy are heavy imports); the stamp is written only when the build succeeded."""
    import subprocess  # here: every import of roles runs guard(), never a build

    BUILD.mkdir(parents=True, exist_ok=True)
    clean()  # a failed build leaves the pure source, and no module leaves an orphan
    sources = digest()
    result = subprocess.run(
        [python, str(Path(__file__).resolve()), "_setup"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if result.returncode == 0 and all(extension(m) is not None for m in MODULES):
        STAMP.write_text(sources + "\n")
    return result


def _setup() -> None:
    """The setuptools build itself (run by :func:`build` in a child process)."""
    from mypyc.build import mypycify
    from setuptools import setup

    paths = [str(source(m).relative_to(ROOT)) for m in MODULES]
    setup(
        name="tabula-engine",
        ext_modules=mypycify(["--ignore-missing-imports", *paths], opt_level="3", group_name=GROUP),
        script_args=[
            "build_ext",
            "--inplace",
            f"--build-temp={BUILD / 'temp'}",
            f"--build-lib={BUILD / 'lib'}",
        ],
    )


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "status"
    if command == "_setup":
        os.chdir(ROOT)
        _setup()
        return 0
    if command == "build":
        result = build()
        sys.stdout.write(result.stdout[-4000:])
        sys.stderr.write(result.stderr[-4000:])
        return result.returncode
    if command == "clean":
        clean()
        return 0
    if command == "status":
        if fallback:
            print(f"pure Python fallback: {fallback}")
        for module, native in loaded().items():
            print(f"{module}: {'compiled' if native else 'pure'}")
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main(sys.argv[1:]))
