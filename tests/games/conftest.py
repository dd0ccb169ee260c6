"""Fixtures of the games tests: the local test forum of issue 32 and a thread-vote day."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.cache import cache
from django.utils import timezone

from games.services.phases import current_phase, phase_commit
from games.services.topic_settings import topic_settings_update
from tests.factories import make_game


@pytest.fixture
def forum(httpserver, settings):
    """The local test forum: its one address allowed, robots.txt cached afresh."""
    settings.TABULA_FOLLOW_ALLOW_PRIVATE = [f"{httpserver.host}:{httpserver.port}"]
    settings.TABULA_FOLLOW_TIMEOUT_SECONDS = 2.0
    cache.clear()
    httpserver.expect_request("/robots.txt").respond_with_data("User-agent: *\nAllow: /\n")
    return httpserver


@pytest.fixture
def thread_day(gm_user):
    """Day 1 of a thread-vote game, opened 5 hours ago, closing in 2 hours."""
    game = make_game(gm_user)
    phase_commit(phase=current_phase(game), user=gm_user)
    phase = current_phase(game)
    now = timezone.now()
    phase.opened_at, phase.closes_at = now - dt.timedelta(hours=5), now + dt.timedelta(hours=2)
    phase.save(update_fields=["opened_at", "closes_at"])
    topic_settings_update(game=game, user=gm_user, votes_from_topic=True,
                          vote_lines=["[b]Voto: Nome[/b]", "Voto Nome"],
                          withdraw_lines=["#ritiro"], aliases="",
                          gm_names=["Narratore"])  # fmt: skip
    return phase
