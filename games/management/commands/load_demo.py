"""Load the demo game (a Wild West Wolf table of 16) for the GM account, once."""

from __future__ import annotations

import os
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from games.models import Game
from games.phases import action_submit, current_phase, phase_commit, vote_cast
from games.services import game_create

DEMO_NAME = "Demo — Wild West Wolf"
DEMO_SEED = 20180212  # the original edition's start date
DEMO_PLAYERS = [
    "Ada", "Bea", "Cid", "Dan", "Eva", "Fil", "Gio", "Ivo",
    "Lia", "Max", "Nora", "Oto", "Pia", "Rino", "Sara", "Teo",
]  # fmt: skip


class Command(BaseCommand):
    @staticmethod
    def play_a_little(game: Game, gm: Any) -> None:
        """Night 0 resolved and a few votes on Day 1, so every page has something to show."""
        marshal = game.players.get(role="maresciallo")
        pianist = game.players.get(role="pianista")
        suspect = game.players.get(role="indiano")
        night = current_phase(game)
        action_submit(phase=night, player=marshal, target=suspect)
        action_submit(phase=night, player=pianist, fake_role="pastore")
        phase_commit(phase=night, user=gm)
        day = current_phase(game)
        players = list(game.players.exclude(pk=suspect.pk))
        for voter, target in zip(players[:5], [suspect, suspect, players[0], suspect, players[0]],
                                 strict=True):  # fmt: skip
            if voter != target:
                vote_cast(phase=day, player=voter, target=target)

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
            self.play_a_little(game, gm)
            self.stdout.write(self.style.SUCCESS(f"Demo game created: {game.name} (#{game.pk})"))
        else:
            self.stdout.write(f"Demo game present: {game.name} (#{game.pk})")
