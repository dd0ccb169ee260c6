"""python manage.py simulate SETUP --games N [...]: a balance study (roles/simulate_cli.py;
manage.py runs it without Django; this command serves call_command)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from django.core.management.base import BaseCommand

from games.engine import SetupError, simulate_cli


class Command(BaseCommand):
    help = simulate_cli.DESCRIPTION
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def add_arguments(self, parser: Any) -> None:
        simulate_cli.add_arguments(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        names = ("setup", "games", "option", "swap", "versus_option", "versus_swap", "model",
                 "jobs", "seed", "json", "lang")  # fmt: skip
        try:
            simulate_cli.simulate(argparse.Namespace(**{n: options[n] for n in names}),
                                  out=self.stdout)  # fmt: skip
        except SetupError as exc:
            self.stderr.write(str(exc))
            sys.exit(2)
