"""python manage.py replay FILE [--text] [--trace]: a scenario through the rules engine
(manage.py runs it without Django; this command serves call_command)."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand

from games.engine import replay_cli


class Command(BaseCommand):
    help = replay_cli.DESCRIPTION
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def add_arguments(self, parser: Any) -> None:
        replay_cli.add_arguments(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        code = replay_cli.replay(options["scenario"], text=options["text"],
                                 trace=options["trace"], out=self.stdout)  # fmt: skip
        if code:
            sys.exit(code)
