"""Issue 33 §3: the models that moved between apps (TableEvent to desks, the balance
studies to lab) keep their tables, and a database filled by the code before the move
migrates forward with nothing lost."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from desks.models import TableEvent
from games.models import Game, Player
from lab.models import BalanceStudy

BEFORE = [("games", "0011_no_stored_pickle")]


@pytest.mark.django_db(transaction=True)
def test_a_database_of_the_old_layout_migrates_forward_with_its_rows():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)  # the tables as the code before the house left them
    old = executor.loader.project_state(BEFORE).apps
    user = old.get_model("auth", "User").objects.create(username="vecchio")
    game = old.get_model("games", "Game").objects.create(
        name="Tavolo", setup="ribelle", seed=1, gm=user, options={"www.dawn_time": "08:00"}
    )
    player = old.get_model("games", "Player").objects.create(game=game, name="Ada", seat=1,
                                                             role="sceriffo")  # fmt: skip
    old.get_model("games", "TableEvent").objects.create(
        game=game, seq=1, kind="turn", data={"players": [1]}, at=timezone.now(), player=player
    )
    old.get_model("games", "BalanceStudy").objects.create(
        gm=user, setup="wild-west-wolf", games=100, seed=3, variant={"setup": "wild-west-wolf"},
        chunks=1, created_at=timezone.now() - dt.timedelta(hours=1),
    )  # fmt: skip
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    moved = Game.objects.get(name="Tavolo")
    assert Player.objects.get(game=moved).name == "Ada"
    event = TableEvent.objects.get(game=moved)
    assert (event.seq, event.kind, event.data, event.player.name) == (1, "turn", {"players": [1]},
                                                                      "Ada")  # fmt: skip
    assert BalanceStudy.objects.get(gm__username="vecchio").games == 100
    assert "www.dawn_time" not in moved.options  # a retired option is dropped (WWW-D35)
