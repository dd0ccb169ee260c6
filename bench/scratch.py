"""What the web and deadline benchmarks share: a scratch PostgreSQL database."""

from __future__ import annotations

import subprocess
import urllib.parse


def fresh_database(url: str) -> None:
    """Drop and create the database named by ``url`` (on the same server)."""
    name = urllib.parse.urlparse(url).path.lstrip("/")
    admin = url.rsplit("/", 1)[0] + "/postgres"
    for sql in (f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)', f'CREATE DATABASE "{name}"'):
        subprocess.run(["psql", admin, "-qc", sql], check=True)
