"""python manage.py import_game FILE [--gm USERNAME] [--name NAME]: a game from its backup."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.services.backup import game_import, parse_backup
from games.services.backup_schema import MAX_BACKUP_BYTES


class Command(BaseCommand):
    help = "Import a game exported by export_game; the players' links must then be issued anew."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")
        parser.add_argument("--gm", default="gm", help="the GM who will own it (default: gm)")
        parser.add_argument("--name", help="a new name, when the GM has a game with this one")

    def handle(self, *args: Any, **options: Any) -> None:
        user = get_user_model().objects.filter(username=options["gm"]).first()
        if user is None:
            raise CommandError(f"no user named {options['gm']!r}")
        path = Path(options["file"])
        try:
            if path.stat().st_size > MAX_BACKUP_BYTES:  # refused before it is read
                raise CommandError(f"{path}: over {MAX_BACKUP_BYTES >> 20} MB, not a backup")
            raw = path.read_bytes()
        except OSError as exc:
            raise CommandError(str(exc)) from exc
        try:
            game = game_import(parse_backup(raw), gm=user, name=options["name"])
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from exc
        without_link = game.players.filter(token_hash__isnull=True).count()
        self.stdout.write(f"{game.name}: imported as game {game.pk} for {user.get_username()}")
        if without_link:
            self.stdout.write(
                f"{without_link} players have no valid private link: issue new ones on the "
                "game page."
            )
