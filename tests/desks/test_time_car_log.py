"""Issue 30 minors: the Time Car's log says what each move was (the action, the Bandit,
from → to) and explains the referee's own forced moves (Braking pushing a Bandit into
the Time Car, Django's push, ADT-D9), one compact row per action."""

from __future__ import annotations

import html
import re

import pytest

from desks.automobile.desk import adt_game_create, adt_log

pytestmark = pytest.mark.django_db


@pytest.fixture
def gm(client, gm_user):
    client.force_login(gm_user)
    return client


def log_rows(response) -> list[str]:
    page = response.content.decode()
    log = page[page.index('id="log"') :]
    log = log[: log.index("</ol>")]
    log = re.sub(r'<a href="[^"]*" class="rule">([^<]*)</a>', r"\1", log)
    rows = re.findall(r'<li id="event-\d+">(.*?)</li>\s*(?=<li id="event-|$)', log + "\n", re.S)
    return [re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", r))).strip() for r in rows]


def test_each_move_and_each_forced_move_is_a_sentence(gm, gm_user):
    """ADT-R4 (a move into the Time Car), ADT-D9 (Django firing from the Time Car pushes
    his victim), ADT-R20 (Braking pushes the Locomotive's roof into the Time Car)."""
    game = adt_game_create(gm=gm_user, name="Treno", config={"cars": 3, "rounds": 3},
                           bandits={"Ada": "django", "Bea": "belle", "Cid": "tuco"})  # fmt: skip
    adt_log(game=game, kind="stealin", data={}, user=gm_user)
    for data in (
        {"kind": "place", "actor": "Ada", "to": "locomotive:interior"},
        {"kind": "move", "actor": "Ada", "to": "time_car"},
        {"kind": "place", "actor": "Cid", "to": "locomotive:interior"},
        {"kind": "fire", "actor": "Ada", "target": "Cid"},
        {"kind": "place", "actor": "Bea", "to": "locomotive:roof"},
        {"kind": "marshal", "to": "car1:interior"},
    ):
        adt_log(game=game, kind="action", data=data, user=gm_user)
    adt_log(game=game, kind="round_end", data={"event": "braking"}, user=gm_user)
    rows = log_rows(gm.get(game.get_absolute_url()))
    assert rows[2].startswith(
        "Movimento · Ada — Ada: entra nell'Automobile del Tempo dall'interno della Locomotiva"
    )
    assert "Ada: l'interno della Locomotiva → l'Automobile del Tempo [ADT-R4]" in rows[2]
    assert rows[4].startswith("Fuoco · Ada — Ada: ")
    assert "Cid (spinto dal colpo di Django): l'interno della Locomotiva → " in rows[4]
    assert "[ADT-D9]" in rows[4]
    assert rows[6].startswith("Sceriffo — Sceriffo: mossa del gioco base")  # named once
    assert "Sceriffo: l'interno della Locomotiva → l'interno del Vagone 1" in rows[6]
    assert rows[7].startswith("Fine del round — Evento del round: Frenata.")
    assert "Bea (Frenata): il tetto della Locomotiva → l'Automobile del Tempo [ADT-R20]" in rows[7]
