"""A vote is judged on the state rebuilt from the committed phases (issue 27 §1: no
engine state is stored), and a phase of another game is refused like a closed one."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from games.models import Submission
from games.services.phases import current_phase, phase_commit, phase_undo
from games.services.submissions import vote_cast
from tests.factories import first_day, login_as, make_game

pytestmark = pytest.mark.django_db


def all_queries(captured):
    """Every query of the request, the session's included (only the test's own savepoints
    are left out: outside a test the vote's transaction is the outermost)."""
    return [q["sql"] for q in captured.captured_queries if "SAVEPOINT" not in q["sql"]]


def keep_snapshot(client, django_capture_on_commit_callbacks, phase, target):
    with django_capture_on_commit_callbacks(execute=True):  # the first vote keeps the snapshot
        client.post(reverse("player_vote"), {"target": target.name, "phase": phase.pk})


def test_9_a_phase_of_another_game_is_refused_like_a_closed_one(client, gm_user):
    game, other = make_game(gm_user), make_game(gm_user, name="Altra")
    day, foreign = first_day(game, gm_user), first_day(other, gm_user)
    sheriff = game.players.get(role="sceriffo")
    login_as(client, sheriff)
    response = client.post(reverse("player_vote"),
                           {"target": game.players.exclude(pk=sheriff.pk)[0].name,
                            "phase": foreign.pk}, headers={"HX-Request": "true"})  # fmt: skip
    assert "Questa fase è chiusa" in response.content.decode()
    assert not Submission.objects.filter(player=sheriff).exists()
    assert day.pk != foreign.pk


def execute(game, day, victim, user):
    """Day one: everyone else votes ``victim``, and the GM commits."""
    for voter in game.players.exclude(pk=victim.pk):
        vote_cast(phase=day, player=voter, target=victim)
    phase_commit(phase=day, user=user)
    day.refresh_from_db()
    assert day.outcome["execution"]["executed"] == victim.name


def test_www_d4_a_vote_for_the_executed_is_refused_on_the_next_day(gm_user):
    """WWW-D4: no vote for a player out of the game, judged on the rebuilt state; after
    an undo of the day the same vote is legal again."""
    game = make_game(gm_user)
    day = first_day(game, gm_user)
    victim = game.players.get(role="pastore")
    execute(game, day, victim, gm_user)
    phase_commit(phase=current_phase(game), user=gm_user)  # the night
    day2 = current_phase(game)
    voter = game.players.get(role="sceriffo")
    with pytest.raises(ValidationError, match="WWW-D4"):
        vote_cast(phase=day2, player=voter, target=victim)
    phase_undo(game=game, user=gm_user)
    phase_undo(game=game, user=gm_user)
    day.refresh_from_db()
    vote_cast(phase=day, player=voter, target=victim)
