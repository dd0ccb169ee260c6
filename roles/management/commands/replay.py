"""python manage.py replay FILE [--text] [--trace]: a scenario through the rules engine."""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand

from roles.engine.errors import RuleViolation
from roles.replay import ScenarioError, load_scenario, report_text, run_scenario


class Command(BaseCommand):
    help = "Replay a scenario file (docs/spec/scenarios.md) and print what happened as JSON."
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("scenario", help="path to the scenario YAML file")
        parser.add_argument("--text", action="store_true", help="print the announcements")
        parser.add_argument("--trace", action="store_true", help="add each phase's reasons")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            report = run_scenario(load_scenario(options["scenario"]), trace=options["trace"])
        except (RuleViolation, ScenarioError) as exc:
            sys.stderr.write(f"{exc}\n")
            sys.exit(2)
        if options["text"]:
            self.stdout.write(report_text(report), ending="")
        else:
            self.stdout.write(json.dumps(report, ensure_ascii=False, indent=2))
