"""Issue 9: the referee desks' forms (BANG! con Il Ribelle!, L'Automobile del Tempo) under
hostile input, as the Werewolf forms in test_hostile_input: never a server error, nothing
stored; a desk URL with a game of another kind is a 404."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from desks.automobile.desk import adt_game_create
from desks.models import TableEvent
from desks.ribelle.desk import ribelle_game_create
from games.models import AuditEvent, Game, Player
from games.services.game import player_link_issue
from tests.factories import make_game
from tests.hostile import (
    GM_FORMS,
    HYPOTHESIS,
    IMPORT_FORMS,
    PLAYER_FORMS,
    hostile_any,
    hostile_date,
    hostile_id,
    hostile_text,
)

pytestmark = pytest.mark.django_db

DESK_FORMS = {
    "desks:ribelle_new": {"name": hostile_text, "players": hostile_text, "seed": hostile_id,
                          "language": hostile_any, "event_deck": hostile_any,
                          "requires_rebel_source": hostile_any,
                          "skips_pre_phase_checks": hostile_any},
    "desks:adt_new": {"name": hostile_text, "bandits": hostile_text, "cars": hostile_id,
                      "rounds": hostile_id, "horses_and_stagecoach": hostile_any,
                      "roof_step": hostile_any, "stagecoach_los": hostile_any,
                      "language": hostile_any},
    "desks:ribelle_event": {"kind": st.sampled_from(["turn", "eliminated", "returns"]),
                            "player": hostile_text, "phase": hostile_id,
                            "players": hostile_text, "card": hostile_any, "by": hostile_text,
                            "during": hostile_text, "via": hostile_any, "seen": hostile_text},
    # (the other kinds read no field: they are valid whatever else is sent)
    "desks:adt_event": {"kind": st.sampled_from(["check", "apply"]),
                        "action": hostile_any, "actor": hostile_text, "to": hostile_text,
                        "target": hostile_text, "loot": hostile_any, "event": hostile_any,
                        "hide_by": hostile_date, "seen": hostile_text},
    "desks:ribelle_undo": {"seen": hostile_text, "end_confirmed": hostile_any},
    "desks:adt_undo": {"seen": hostile_text, "end_confirmed": hostile_any},
}  # fmt: skip
PLAYER_DESK_FORMS = {"desks:player_hide": {"under": hostile_text, "seen": hostile_text}}


def snapshot() -> tuple:
    return (
        list(Game.objects.order_by("pk").values_list("pk", "name", "status")),
        list(Player.objects.order_by("pk").values_list("pk", "name", "token_hash")),
        TableEvent.objects.count(), AuditEvent.objects.count(),
    )  # fmt: skip


@pytest.fixture
def desks(gm_user):
    names = ["Sam", "Vic", "Olga", "Otto", "Rina", "Reb"]
    bang = ribelle_game_create(gm=gm_user, name="Saloon", seed=1, player_names=names)
    train = adt_game_create(gm=gm_user, name="Treno", config={"cars": 3, "rounds": 3},
                            bandits={"Ada": "django", "Bea": "belle", "Cid": "tuco"})  # fmt: skip
    gm = Client()
    gm.force_login(gm_user)
    player = Client()
    token = player_link_issue(player=train.players.first())
    assert player.get(reverse("player_enter", args=[token])).status_code == 302
    return {"ribelle": bang, "adt": train}, gm, player


def url_of(name: str, games: dict) -> str:
    if name.endswith("_new") or name in PLAYER_DESK_FORMS:
        return reverse(name)
    return reverse(name, args=[games["ribelle" if "ribelle" in name else "adt"].pk])


@HYPOTHESIS
@given(post=st.sampled_from(sorted({**DESK_FORMS, **PLAYER_DESK_FORMS})).flatmap(
    lambda n: st.tuples(st.just(n), st.fixed_dictionaries({**DESK_FORMS,
                                                           **PLAYER_DESK_FORMS}[n]))))  # fmt: skip
def test_hostile_desk_forms_never_error_and_store_nothing(desks, post):
    games, gm, player = desks
    name, data = post
    before = snapshot()
    client = player if name in PLAYER_DESK_FORMS else gm
    response = client.post(url_of(name, games), data)
    assert response.status_code < 500, (name, data)
    assert snapshot() == before, (name, data)


def test_a_desk_url_with_a_game_of_another_kind_is_404(gm_user, desks):
    games, gm, _player = desks
    werewolf = make_game(gm_user)
    before = snapshot()
    for name in ("ribelle_event", "ribelle_undo", "adt_event", "adt_undo"):
        other = games["adt"] if "ribelle" in name else games["ribelle"]
        for game in (werewolf, other):
            response = gm.post(reverse(f"desks:{name}", args=[game.pk]), {"kind": "turn"})
            assert response.status_code == 404, (name, game.setup)
    assert snapshot() == before


def test_the_hostile_forms_cover_every_post_url_of_the_site():
    """A new POST form must be added to the hostile tests: every URL of the games and the
    players, minus the pages that only read and the POSTs with no field (rotate, undo,
    the Rebel!'s reveal; their CSRF and wrong methods are tested above)."""
    from django.urls import get_resolver

    names = set()

    def walk(patterns, namespace=""):
        for pattern in patterns:
            if hasattr(pattern, "url_patterns"):
                walk(pattern.url_patterns, f"{namespace}{pattern.namespace}:" if pattern.namespace
                     else namespace)  # fmt: skip
            elif pattern.name:
                names.add(f"{namespace}{pattern.name}")

    walk(get_resolver().url_patterns)
    posting = {n for n in names if n.startswith(("games:", "desks:", "player_")) or n == "login"}
    read_only = {"games:detail", "games:audit", "games:spoiler", "games:phase", "games:posts",
                 "games:wills", "player_home", "player_enter", "games:backup",
                 "games:gm_undo_confirm", "games:rulebook",
                 "games:follow_panel"}  # fmt: skip
    no_fields = {"games:rotate", "desks:player_reveal", "games:archive", "games:restore"}
    covered = {*GM_FORMS, *PLAYER_FORMS, *DESK_FORMS, *PLAYER_DESK_FORMS, *IMPORT_FORMS}
    assert posting - read_only - {"games:count_now"} - no_fields == covered
