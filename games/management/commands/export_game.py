"""python manage.py export_game ID [-o FILE] [--keep-links]: a whole game as one JSON file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Game
from games.services.backup import game_export_json


class Command(BaseCommand):
    help = "Export a game (every row that belongs to it) as one JSON file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_id", type=int)
        parser.add_argument("-o", "--output", help="the file to write (default: stdout)")
        parser.add_argument(
            "--keep-links", action="store_true",
            help="carry the players' private links: they will open the game on the new site",
        )  # fmt: skip

    def handle(self, *args: Any, **options: Any) -> None:
        game = Game.objects.filter(pk=options["game_id"]).first()
        if game is None:
            raise CommandError(f"no game with id {options['game_id']}")
        text = game_export_json(game, keep_links=options["keep_links"])
        if options["output"]:
            Path(options["output"]).write_text(text + "\n", encoding="utf-8")
            self.stderr.write(f"{game.name}: written to {options['output']}")
        else:
            self.stdout.write(text)
