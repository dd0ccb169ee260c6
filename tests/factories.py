"""Builders for site tests."""

from __future__ import annotations

from games.services import game_create
from roles.engine.setups import load_setup

WWW_NAMES = ["Sam", "Mar", "Pao", "Mia", "Nora", "Vito", "Carla", "Gino", "Anna", "Bruno",
             "Pietro", "Capo", "Sara", "Ivan", "Cac", "Pia"]  # fmt: skip
INQ_NAMES = ["Sara", "Paolo", "Becco", "Gina", "Gianni", "Carlo", "Rita", "Anna", "Bruno",
             "Marco", "Ugo", "Ivo", "Bea", "Tea", "Luca", "Lia", "Leo", "Zeno", "Mara"]  # fmt: skip


def make_game(gm, setup="wild-west-wolf", seed=7, **kwargs):
    names = {"wild-west-wolf": WWW_NAMES, "inquisizione": INQ_NAMES}.get(setup) or [
        f"Giocatore{i + 1}" for i in range(load_setup(setup).players)
    ]
    return game_create(gm=gm, name=kwargs.pop("name", "Partita"), setup_key=setup,
                       player_names=names, seed=seed, **kwargs)  # fmt: skip
