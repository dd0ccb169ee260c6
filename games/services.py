"""Writes: every change to a game goes through a function here."""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from games.models import Game, Player
from roles.engine.setups import deal_roles, load_setup


@transaction.atomic
def game_create(
    *,
    gm: AbstractBaseUser,
    name: str,
    setup_key: str,
    player_names: Sequence[str],
    seed: int | None = None,
) -> Game:
    """Create a game and deal the setup's roles at random (seeded, so it can be replayed)."""
    setup = load_setup(setup_key)
    if seed is None:
        seed = secrets.randbits(48)
    roles = deal_roles(setup, player_names, random.Random(seed))
    game = Game.objects.create(
        gm=gm, name=name, setup=setup.key, seed=seed, status=Game.Status.RUNNING
    )
    Player.objects.bulk_create(
        Player(game=game, name=player, seat=seat, role=roles[player])
        for seat, player in enumerate(player_names, start=1)
    )
    return game
