"""Builders for site tests."""

from __future__ import annotations

from games.services import game_create

WWW_NAMES = ["Sam", "Mar", "Pao", "Mia", "Nora", "Vito", "Carla", "Gino", "Anna", "Bruno",
             "Pietro", "Capo", "Sara", "Ivan", "Cac", "Pia"]  # fmt: skip
INQ_NAMES = ["Sara", "Paolo", "Becco", "Gina", "Gianni", "Carlo", "Rita", "Anna", "Bruno",
             "Marco", "Ugo", "Ivo", "Bea", "Tea", "Luca", "Lia", "Leo", "Zeno", "Mara"]  # fmt: skip


def make_game(gm, setup="wild-west-wolf", seed=7, **kwargs):
    names = WWW_NAMES if setup == "wild-west-wolf" else INQ_NAMES
    return game_create(gm=gm, name=kwargs.pop("name", "Partita"), setup_key=setup,
                       player_names=names, seed=seed, **kwargs)  # fmt: skip
