"""Instructions a vote costs a gunicorn worker, counted by callgrind (stable on a shared
machine, unlike the CPU time bench/web.py prints).

    python bench/vote_instructions.py [--votes 300] [--players 32] [--keep-alive]

Prepares the scratch database as bench/web.py does, starts gunicorn as the Dockerfile's CMD
runs it but with one worker, under ``valgrind --tool=callgrind`` (and a long worker
timeout: everything runs ~50 times slower), logs the players in, sends a warm-up, then
--votes votes one after the other as bench/web.py's players send them (each on a new
connection unless --keep-alive), and prints the worker's instructions a vote: the
difference between two callgrind dumps taken around the measured votes (the worker dumps
on a signal, through a two-line C helper built here with valgrind's callgrind.h), so the
figure excludes start-up and imports. The dumps are left in var/ for callgrind_annotate.
Needs valgrind, its headers and a C compiler.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from scratch import fresh_database  # noqa: E402
from web import (  # noqa: E402
    DEFAULT_DB,
    dockerfile_command,
    free_port,
    prepare_site,
    site_env,
    wait_for_server,
)
from web_load import ACKNOWLEDGED, Browser, Player  # noqa: E402


def send(request: bytes, port: int, conn: socket.socket | None) -> tuple[bytes, socket.socket]:
    """One request; its answer (head and body) and the connection, kept if it may be."""
    if conn is None:
        conn = socket.create_connection(("127.0.0.1", port))
    conn.sendall(request)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            break
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = re.search(rb"(?i)\r\ncontent-length: *(\d+)", head)
    while length and len(body) < int(length.group(1)):
        body += conn.recv(65536)
    return head + b"\r\n\r\n" + body, conn


def dump(pid: int, out: Path) -> int:
    """Dump the worker's counts since the last dump; the instructions in it."""
    before = set(out.parent.glob(out.name + "*"))
    os.kill(pid, signal.SIGRTMIN + 1)
    for _ in range(600):
        new = set(out.parent.glob(out.name + "*")) - before
        if new:
            path = max(new, key=lambda p: p.stat().st_mtime)
            time.sleep(0.5)  # written whole
            summary = re.search(rb"^(?:summary|totals): (\d+)", path.read_bytes(), re.M)
            if summary:
                return int(summary.group(1))
        time.sleep(0.2)
    raise SystemExit("no callgrind dump")


HELPER = """#include <valgrind/callgrind.h>
void dump(void) { CALLGRIND_DUMP_STATS; }
"""
# The site's gunicorn configuration, plus a signal on which a worker dumps its counts.
CONFIG = """import ctypes, signal
from gm.gunicorn_conf import *  # noqa: F403
from gm import gunicorn_conf as site

helper = ctypes.CDLL({helper!r})


def post_worker_init(worker):
    site.post_worker_init(worker)
    signal.signal(signal.SIGRTMIN + 1, lambda *_: helper.dump())
"""


def instrumented_config(folder: Path) -> str:
    """A gunicorn config module in ``folder`` (put on the path) and its name."""
    helper = folder / "callgrind_dump.so"
    (folder / "dump.c").write_text(HELPER)
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", str(helper), str(folder / "dump.c")],
                   check=True)  # fmt: skip
    (folder / "callgrind_gunicorn_conf.py").write_text(CONFIG.format(helper=str(helper)))
    return "callgrind_gunicorn_conf"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--votes", type=int, default=300)
    parser.add_argument("--players", type=int, default=32)
    parser.add_argument("--keep-alive", action="store_true",
                        help="one connection a player (gthread: add --keep-alive 600 to "
                             "--worker-args, valgrind is slow)")  # fmt: skip
    parser.add_argument("--worker-args", default="", help="extra gunicorn arguments")
    args = parser.parse_args()

    database = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB)
    fresh_database(database)
    env = {**site_env(database), "PYTHONHASHSEED": "0"}  # the same run, the same count
    tokens = prepare_site(env, args.players)
    port = free_port()
    command = dockerfile_command(port)
    command[command.index("--workers") + 1] = "1"
    folder = Path(tempfile.mkdtemp())
    command[command.index("--config") + 1] = "python:" + instrumented_config(folder)
    env["PYTHONPATH"] = str(folder)
    command += ["--timeout", "3600", *args.worker_args.split()]
    out = ROOT / "var" / "vote.callgrind"
    out.parent.mkdir(exist_ok=True)
    for old in out.parent.glob(out.name + "*"):
        old.unlink()
    valgrind = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}.%p"]
    log = open(f"{out}.log", "w")  # noqa: SIM115 (the server's output, for a failed run)
    server = subprocess.Popen(valgrind + command, cwd=ROOT, env=env, stdout=log, stderr=log)
    try:
        wait_for_server(port, 3000)  # under valgrind, a worker boots slowly
        players = [Player(pk, token, Browser(port)) for pk, token in tokens]
        errors = [e for e in (p.log_in() for p in players) if e]
        assert not errors, errors
        worker = int(Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split()[0])
        conns: dict[int, socket.socket | None] = {}

        def votes(n: int, start: int) -> None:
            for i in range(start, start + n):
                player = players[i % len(players)]
                request = player.vote_request(player.targets[i % len(player.targets)])
                answer, conn = send(request, port, conns.get(player.pk))
                if not (answer.startswith(b"HTTP/1.1 200") and ACKNOWLEDGED.encode() in answer):
                    raise SystemExit(f"vote not acknowledged: {answer[:2000]!r}")
                if args.keep_alive:
                    conns[player.pk] = conn
                else:
                    conn.close()

        votes(len(players) * 2, 0)
        dump(worker, out)
        votes(args.votes, 1000)
        measured = dump(worker, out)
        print(f"{measured / args.votes / 1e6:.3f}M instructions a vote in the worker "
              f"({args.votes} votes{', kept connections' if args.keep_alive else ''})")  # fmt: skip
    finally:
        server.terminate()
        server.wait(timeout=120)


if __name__ == "__main__":
    main()
