"""Builders for site tests."""

from __future__ import annotations

import datetime as dt

from games.services.game import game_create
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


LONG_WILL = "\n".join(  # 174 words over several lines: cut after the 150th (WWW-R45)
    " ".join(f"parola{n}" for n in range(start, min(start + 10, 175)))
    for start in range(1, 175, 10)
)
SHORT_WILL = "Fidatevi dello Sceriffo.\nIo ero un semplice cowboy."


def notaio_delivers_two_wills(gm, long_text=LONG_WILL, short_text=SHORT_WILL):
    """A Wild West Wolf game played to the Notaio's N2 delivery (WWW-R41, WWW-R42): the
    first cowboy is executed on D1 and hands in ``long_text``, the second is killed on N1
    and hands in ``short_text``, and on N2 the Notaio delivers both to the third cowboy.
    Returns (game, recipient, executed, killed)."""
    from games.services.phases import current_phase, phase_commit
    from games.services.submissions import action_submit, vote_cast, will_save

    game = make_game(gm)
    first, second, recipient = game.players.filter(role="cowboy").order_by("seat")
    phase_commit(phase=current_phase(game), user=gm)  # N0
    vote_cast(phase=current_phase(game), player=game.players.get(role="sceriffo"), target=first)
    phase_commit(phase=current_phase(game), user=gm)  # D1: the first cowboy is executed
    will_save(player=first, text=long_text)
    action_submit(phase=current_phase(game), player=game.players.get(role="indiano"),
                  target=second)  # fmt: skip
    phase_commit(phase=current_phase(game), user=gm)  # N1: the second dies
    will_save(player=second, text=short_text)
    phase_commit(phase=current_phase(game), user=gm)  # D2: nobody voted
    action_submit(phase=current_phase(game), player=game.players.get(role="notaio"),
                  target=recipient)  # fmt: skip
    phase_commit(phase=current_phase(game), user=gm)  # N2: the delivery
    return game, recipient, first, second


def tomorrow_morning() -> dt.datetime:
    """Tomorrow at 08:00 in Rome: before a night death's will freezes at noon (WWW-R17,
    WWW-R46), and ahead of the database's clock, never behind it, so no deadline dealt
    at that time seems already past to the database (a fixed date would, once passed)."""
    from zoneinfo import ZoneInfo

    now = dt.datetime.now(ZoneInfo("Europe/Rome"))
    return (now + dt.timedelta(days=1)).replace(hour=8, minute=0, second=0, microsecond=0)
