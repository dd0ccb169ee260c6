"""A rule of the house: a player changes his vote at most TABULA_VOTE_CHANGES_MAX times
in one phase (30 unless set); past it, whoever stores the vote (the player, the GM, the
thread import), a clear message naming the cap, and nothing stored."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import ValidationError

from games.models import Submission
from games.services.submissions import vote_cast
from games.services.topic_votes import topic_import_save

pytestmark = pytest.mark.django_db
ROME = ZoneInfo("Europe/Rome")


def test_the_cap_is_thirty_changes_unless_set(settings):
    assert settings.TABULA_VOTE_CHANGES_MAX == 30


def test_a_player_past_the_cap_is_refused_with_the_cap_named(day, settings):
    settings.TABULA_VOTE_CHANGES_MAX = 3
    sam, gino, pao = (day.game.players.get(name=n) for n in ("Sam", "Gino", "Pao"))
    for target in (gino, pao, None, gino):  # a vote, then three changes (one a withdrawal)
        vote_cast(phase=day, player=sam, target=target)
    with pytest.raises(ValidationError) as refused:
        vote_cast(phase=day, player=sam, target=pao)
    assert refused.value.messages == [
        "Sam ha già cambiato voto 3 volte in D1: il limite è di 3 cambi di voto per fase."
    ]
    assert Submission.objects.filter(phase=day, player=sam).count() == 4  # nothing stored
    vote_cast(phase=day, player=pao, target=sam)  # the others vote on
    # the GM's entry counts the same (the same vote function)
    with pytest.raises(ValidationError):
        vote_cast(phase=day, player=sam, target=pao, entered_by=day.game.gm, reason="dal topic")


def test_a_thread_import_past_the_cap_is_refused_whole(day, gm_user, settings):
    settings.TABULA_VOTE_CHANGES_MAX = 2
    day.opened_at -= dt.timedelta(hours=2)  # the posts fall in the day
    day.save(update_fields=["opened_at"])
    now = dt.datetime.now(ROME)
    bodies = ["Voto Gino", "Voto Pao", "Voto Gino", "Voto Pao"]  # a vote and three changes
    text = "\n".join(
        f"Sam — {(now - dt.timedelta(minutes=40 - i)).strftime('%d/%m/%Y %H:%M')}:07\n{body}\n"
        for i, body in enumerate(bodies)
    )
    with pytest.raises(ValidationError) as refused:
        topic_import_save(phase=day, text=text, fmt="", decisions={}, user=gm_user)
    assert "il limite è di 2 cambi di voto per fase" in refused.value.messages[0]
    assert not Submission.objects.filter(phase=day).exists()  # one transaction: none kept
