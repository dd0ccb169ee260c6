"""Load the demo game (a Wild West Wolf table of 16) for the GM account, once."""

from __future__ import annotations

import os
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from games.models import Game
from games.services import game_create

DEMO_NAME = "Demo — Wild West Wolf"
DEMO_SEED = 20180212  # the original edition's start date
DEMO_PLAYERS = [
    "Ada", "Bea", "Cid", "Dan", "Eva", "Fil", "Gio", "Ivo",
    "Lia", "Max", "Nora", "Oto", "Pia", "Rino", "Sara", "Teo",
]  # fmt: skip


class Command(BaseCommand):
    help = "Create the demo game for the GM account (idempotent)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--gm", default=os.environ.get("TABULA_GM_USERNAME", "gm"))

    def handle(self, *args: Any, **options: Any) -> None:
        gm = get_user_model().objects.filter(username=options["gm"]).first()
        if gm is None:
            raise CommandError(f"No user {options['gm']!r}: run `manage.py ensure_gm` first.")
        game = Game.objects.filter(gm=gm, name=DEMO_NAME).first()
        if game is None:
            game = game_create(
                gm=gm,
                name=DEMO_NAME,
                setup_key="wild-west-wolf",
                player_names=DEMO_PLAYERS,
                seed=DEMO_SEED,
            )
            self.stdout.write(self.style.SUCCESS(f"Demo game created: {game.name} (#{game.pk})"))
        else:
            self.stdout.write(f"Demo game present: {game.name} (#{game.pk})")
