"""The referee desk's event log (desks/services.py): shared by every event-log game."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from desks.models import TableEvent
from desks.services import (
    desk_game_create,
    event_mark,
    last_event_mark,
    table_event_append,
    table_event_undo,
    table_events,
    table_seen_check,
)
from games.models import AuditEvent, Game
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


def test_undo_takes_back_the_last_event_but_never_a_secret_one(game, gm_user):
    table_event_append(game=game, kind="turn", data={}, user=gm_user)
    table_event_append(game=game, kind="turn", data={}, user=gm_user)
    assert table_event_undo(game=game, user=gm_user).seq == 2
    assert [e.seq for e in table_events(game)] == [1]
    TableEvent.objects.filter(game=game).update(sealed=True)  # a Bandit's hiding (ADT-R15)
    with pytest.raises(ValidationError) as refused:
        table_event_undo(game=game, user=gm_user)
    assert refused.value.code == "secret"
    assert [e.seq for e in table_events(game)] == [1]
    assert table_event_append(game=game, kind="turn", data={}).seq == 2


def test_a_stale_form_is_refused_and_the_same_form_twice_records_once(game, gm_user):
    """Issue 30 §1: a form carries the last event its page showed (its number and time: the
    number 2 comes back after an undo, the pair does not)."""
    assert last_event_mark(game) == "0"
    assert table_seen_check(game=game, seen="0", kind="turn", data={}, user=gm_user) is None
    first = table_event_append(game=game, kind="turn", data={"players": [1]}, user=gm_user)
    again = table_seen_check(game=game, seen="0", kind="turn", data={"players": [1]}, user=gm_user)
    assert again == first  # the double click: already recorded
    for other in ({"kind": "turn", "data": {"players": [2]}}, {"kind": "x", "data": {}}):
        with pytest.raises(ValidationError, match=r"La partita è cambiata: ricarica la pagina\."):
            table_seen_check(game=game, seen="0", user=gm_user, **other)
    second = table_event_append(game=game, kind="turn", data={}, user=gm_user)
    table_event_undo(game=game, user=gm_user, seen=event_mark(second))
    third = table_event_append(game=game, kind="turn", data={}, user=gm_user)
    assert third.seq == second.seq
    assert last_event_mark(game) == event_mark(third) != event_mark(second)
    with pytest.raises(ValidationError) as stale:
        table_seen_check(game=game, seen=event_mark(second), kind="turn", data={}, user=gm_user)
    assert stale.value.code == "stale"


def test_a_stale_undo_is_refused_and_a_second_press_undoes_nothing_more(game, gm_user):
    """Issue 30 §1: the undo names the event it shows."""
    first = table_event_append(game=game, kind="turn", data={}, user=gm_user)
    second = table_event_append(game=game, kind="turn", data={}, user=gm_user)
    with pytest.raises(ValidationError) as stale:
        table_event_undo(game=game, user=gm_user, seen=event_mark(first))
    assert stale.value.code == "stale"
    assert table_event_undo(game=game, user=gm_user, seen=event_mark(second)).seq == second.seq
    with pytest.raises(ValidationError) as gone:
        table_event_undo(game=game, user=gm_user, seen=event_mark(second))
    assert gone.value.code == "gone"
    assert [e.pk for e in table_events(game)] == [first.pk]


def test_the_end_is_undone_only_when_confirmed_and_the_game_runs_again(game, gm_user):
    """Issue 30 §2: no mistake permanent, the end included."""
    last = table_event_append(game=game, kind="turn", data={}, user=gm_user)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    with pytest.raises(ValidationError) as unconfirmed:
        table_event_undo(game=game, user=gm_user, seen=event_mark(last))
    assert unconfirmed.value.code == "end"
    assert (
        table_event_undo(game=game, user=gm_user, seen=event_mark(last), end_confirmed=True).seq
        == 1
    )
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    assert AuditEvent.objects.get(game=game, kind="table_undo").detail["reopened"] is True
