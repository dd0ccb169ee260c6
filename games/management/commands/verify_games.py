"""python manage.py verify_games [--game ID ...]: replay every stored game on today's rules
and print any difference with what was stored (exit status 1 when there is one)."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand

from games.models import Game
from games.selectors.verify import verify_games


class Command(BaseCommand):
    help = "Replay every stored game and compare it with what was stored (results, deaths, posts)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--game", type=int, action="append", help="only these game ids")

    def handle(self, *args: Any, **options: Any) -> None:
        games = Game.objects.order_by("pk")
        if options["game"]:
            games = games.filter(pk__in=options["game"])
        verdicts = verify_games(games)
        differing = 0
        for verdict in verdicts:
            game = verdict.game
            note = (
                f" (dealt with other rules: {game.rules_version})"
                if (verdict.version_changed)
                else ""
            )
            if verdict.skipped:
                self.stdout.write(f"#{game.pk} {game.name} [{game.setup}]: skipped, "
                                  f"{verdict.skipped}")  # fmt: skip
            elif verdict.differences:
                differing += 1
                self.stdout.write(f"#{game.pk} {game.name} [{game.setup}]{note}: DIFFERS")
                for line in verdict.differences:
                    self.stdout.write(f"  {line}")
            else:
                self.stdout.write(f"#{game.pk} {game.name} [{game.setup}]{note}: same")
        skipped = sum(1 for v in verdicts if v.skipped)
        self.stdout.write(f"{len(verdicts) - skipped} games replayed, {skipped} skipped, "
                          f"{differing} differ.")  # fmt: skip
        if differing:
            sys.exit(1)
