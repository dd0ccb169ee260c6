"""Load the demo game for the GM account, once: the first setup that ships a ``demo:``
section (its players, seed, Night 0 actions and a few Day 1 votes, by card)."""

from __future__ import annotations

import os
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from games.engine import Setup, available_setups, load_setup
from games.models import Game
from games.services.game import game_create
from games.services.phases import current_phase, phase_commit
from games.services.submissions import action_submit, vote_cast


def demo_setup() -> Setup:
    for key in reversed(available_setups()):
        if (setup := load_setup(key)).demo:
            return setup
    raise CommandError("No setup ships a demo game.")


class Command(BaseCommand):
    @staticmethod
    def play_a_little(game: Game, gm: Any, demo: dict[str, Any]) -> None:
        """Night 0 resolved and a few votes on Day 1, so every page has something to show."""

        def holder(card: str) -> Any:
            return game.players.filter(role=card).order_by("seat").first()

        night = current_phase(game)
        for action in demo.get("night", []):
            target = holder(action["target"]) if action.get("target") else None
            action_submit(phase=night, player=holder(action["actor"]), target=target,
                          fake_role=action.get("fake_role", ""))  # fmt: skip
        phase_commit(phase=night, user=gm)
        votes = demo.get("votes")
        if not votes:
            return
        day = current_phase(game)
        suspect = holder(votes["suspect"])
        players = list(game.players.exclude(pk=suspect.pk).order_by("seat"))
        chosen = {"suspect": suspect, "first": players[0]}
        for voter, target in zip(players, [chosen[t] for t in votes["targets"]], strict=False):
            if voter != target:
                vote_cast(phase=day, player=voter, target=target)

    help = "Create the demo game for the GM account (idempotent)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--gm", default=os.environ.get("TABULA_GM_USERNAME", "gm"))

    def handle(self, *args: Any, **options: Any) -> None:
        gm = get_user_model().objects.filter(username=options["gm"]).first()
        if gm is None:
            raise CommandError(f"No user {options['gm']!r}: run `manage.py ensure_gm` first.")
        setup = demo_setup()
        demo = setup.demo
        game = Game.objects.filter(gm=gm, name=demo["name"]).first()
        if game is None:
            game = game_create(gm=gm, name=demo["name"], setup_key=setup.key,
                               player_names=demo["players"], seed=demo["seed"])  # fmt: skip
            self.play_a_little(game, gm, demo)
            self.stdout.write(self.style.SUCCESS(f"Demo game created: {game.name} (#{game.pk})"))
        else:
            self.stdout.write(f"Demo game present: {game.name} (#{game.pk})")
