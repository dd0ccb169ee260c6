"""The referee desk's event log (desks/services.py): shared by every event-log game."""

from __future__ import annotations

import pytest

from desks.services import (
    desk_game_create,
    table_event_append,
    table_event_undo,
    table_events,
    table_events_seal,
)
from games.models import AuditEvent
from games.registry import desk_module  # fmt: skip

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(gm_user):
    roles = {"Ada": "a", "Bea": "b", "Cid": "c"}
    return desk_game_create(gm=gm_user, name="Tavolo", setup_key="any-log", roles=roles, seed=4)


def test_players_are_seated_in_order_with_their_roles(game):
    assert [(p.seat, p.name, p.role) for p in game.players.all()] == [
        (1, "Ada", "a"), (2, "Bea", "b"), (3, "Cid", "c"),
    ]  # fmt: skip
    assert AuditEvent.objects.filter(game=game, kind="game_created").count() == 1
    assert desk_module(game) is None  # not a registered desk setup


def test_events_are_numbered_in_order_and_audited(game, gm_user):
    first = table_event_append(game=game, kind="turn", data={"players": [1]}, user=gm_user)
    second = table_event_append(game=game, kind="note", data={"x": 1}, player=game.players.first())
    assert (first.seq, second.seq) == (1, 2)
    assert [e.kind for e in table_events(game)] == ["turn", "note"]
    assert AuditEvent.objects.filter(game=game, kind="table_turn", user=gm_user).exists()


def test_undo_takes_back_the_last_unsealed_event(game, gm_user):
    table_event_append(game=game, kind="turn", data={}, user=gm_user)
    table_event_append(game=game, kind="turn", data={}, user=gm_user)
    assert table_event_undo(game=game, user=gm_user).seq == 2
    assert [e.seq for e in table_events(game)] == [1]
    assert table_events_seal(game=game) == 1
    assert table_event_undo(game=game, user=gm_user) is None
    assert [e.seq for e in table_events(game)] == [1]
    assert table_event_append(game=game, kind="turn", data={}).seq == 2
