"""Builders for site tests: the one place a test gets a game, a day, a night, a player's
session or the new-game form's defaults (issue 33 §6: one factory module)."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable
from zoneinfo import ZoneInfo

from django import forms
from django.urls import reverse
from django.utils import timezone

from games.forms.game import GameCreateForm
from games.models import AuditEvent, Game, Phase, Player
from games.services.game import game_create, player_link_issue
from games.services.phases import current_phase, phase_commit
from games.services.submissions import action_submit, vote_cast, will_save
from gm.celery import app
from roles.engine.setups import load_setup

WWW_NAMES = ["Sam", "Mar", "Pao", "Mia", "Nora", "Vito", "Carla", "Gino", "Anna", "Bruno",
             "Pietro", "Capo", "Sara", "Ivan", "Cac", "Pia"]  # fmt: skip
INQ_NAMES = ["Sara", "Paolo", "Becco", "Gina", "Gianni", "Carlo", "Rita", "Anna", "Bruno",
             "Marco", "Ugo", "Ivo", "Bea", "Tea", "Luca", "Lia", "Leo", "Zeno", "Mara"]  # fmt: skip


def make_game(gm, setup="wild-west-wolf", seed=7, **kwargs) -> Game:
    """A dealt game of ``setup`` (Wild West Wolf by default) on its Night 0."""
    names = {"wild-west-wolf": WWW_NAMES, "inquisizione": INQ_NAMES}.get(setup) or [
        f"Giocatore{i + 1}" for i in range(load_setup(setup).players)
    ]
    return game_create(gm=gm, name=kwargs.pop("name", "Partita"), setup_key=setup,
                       player_names=names, seed=seed, **kwargs)  # fmt: skip


def first_day(game: Game, gm) -> Phase:
    """Commit ``game``'s Night 0 and return its Day 1."""
    phase_commit(phase=current_phase(game), user=gm)
    return current_phase(game)


def day_one(gm, *, opened_ago: dt.timedelta | None = None, **kwargs) -> tuple[Game, Phase]:
    """A new game (``make_game``'s arguments) on its Day 1; with ``opened_ago`` the day
    opened that long ago, so forum times and votes dated earlier today fall within it."""
    game = make_game(gm, **kwargs)
    day = first_day(game, gm)
    if opened_ago is not None:
        day.opened_at -= opened_ago
        day.save(update_fields=["opened_at"])
    return game, day


def night_one(game: Game, gm) -> Phase:
    """Commit ``game``'s Night 0 and a Day 1 nobody voted in; return Night 1."""
    first_day(game, gm)
    phase_commit(phase=current_phase(game), user=gm)
    return current_phase(game)


def ago(seconds: float) -> dt.datetime:
    return timezone.now() - dt.timedelta(seconds=seconds)


def a_night_action(game: Game, night: Phase) -> tuple[Player, Player]:
    """A legal night action: the Indians' chief attacks a cowboy (actor, target)."""
    return game.players.get(role="capo_indiano"), game.players.filter(role="cowboy").first()


def set_deadline(phase: Phase, when: dt.datetime) -> None:
    Phase.objects.filter(pk=phase.pk).update(closes_at=when)


def commits(game: Game) -> int:
    return AuditEvent.objects.filter(game=game, kind="commit").count()


def wait_for(predicate: Callable[[], object], seconds: float = 30.0) -> bool:
    """Poll ``predicate`` until it holds (True) or ``seconds`` pass (False)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return False


def worker_idle(timeout: float = 30.0) -> None:
    """Wait until the test's Celery worker has run every task queued before this call: a
    ping queued after them answers only then (one worker process, its queue in order)."""
    app.send_task("gm.ping", args=["idle"]).get(timeout=timeout)


def login_as(client, player: Player) -> None:
    """Open ``player``'s private link in ``client``: its session is the player's."""
    client.get(reverse("player_enter", args=[player_link_issue(player=player)]))


def new_game_data(**changes) -> dict:
    """What the new-game page posts with its defaults (every option at its default)."""
    form = GameCreateForm(setup_key="wild-west-wolf")
    data = {"name": "Partita", "setup": "wild-west-wolf", "players": "\n".join(WWW_NAMES),
            "language": "it", "vote_close_time": "22:00", "day_close_time": "22:15",
            "powers_close_time": "22:30", "confirmed": "1"}  # fmt: skip
    for name, field in form.fields.items():
        if name.startswith("opt_"):
            if isinstance(field, forms.BooleanField):
                if field.initial:
                    data[name] = "on"
            else:
                data[name] = str(field.initial)
    return {**data, **changes}


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
    now = dt.datetime.now(ZoneInfo("Europe/Rome"))
    return (now + dt.timedelta(days=1)).replace(hour=8, minute=0, second=0, microsecond=0)
