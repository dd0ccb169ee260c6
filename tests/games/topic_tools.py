"""A day whose votes are given in the thread, and the thread's pages in the generic
format (tests/games/test_topic_deadline.py and test_import_preview_questions.py)."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from django.utils import timezone

from games.models import Phase
from games.services.phases import current_phase, phase_commit
from games.services.topic_settings import topic_settings_update
from tests.factories import make_game

ROME = ZoneInfo("Europe/Rome")


def thread_day(gm_user, *, from_topic=True, deadline_ago=dt.timedelta(minutes=30)):
    """Day 1 of a Wild West Wolf game opened 10 hours ago, its deadline ``deadline_ago``
    past, its votes given in the thread when ``from_topic``."""
    game = make_game(gm_user)
    topic_settings_update(game=game, user=gm_user, votes_from_topic=from_topic,
                          vote_lines=["Voto Nome"], withdraw_lines=["#ritiro"], aliases="",
                          gm_names=[])  # fmt: skip
    phase_commit(phase=current_phase(game), user=gm_user)
    day = current_phase(game)
    now = timezone.now()
    closes_at = (now - deadline_ago).replace(second=0, microsecond=0)  # as a forum writes it
    Phase.objects.filter(pk=day.pk).update(opened_at=now - dt.timedelta(hours=10),
                                           closes_at=closes_at)  # fmt: skip
    day.refresh_from_db()
    return game, day


def page(*posts: tuple[str, dt.datetime, str]) -> str:
    """A generic-format page of the thread: (author, forum time, body)."""
    return "\n".join(f"{author} — {at.astimezone(ROME):%d/%m/%Y %H:%M:%S}\n{body}\n"
                     for author, at, body in posts)  # fmt: skip


def player(game, name):
    return game.players.get(name=name)
