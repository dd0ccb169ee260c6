"""Issue 31 minor: "Inquisizione's "Chi deve ancora agire" lists the Postino (optional)
while the Templare is under "potere facoltativo": one rule for optional powers." Which
power a player may leave unused is the abilities' data (``optional_rule``), and the GM's
board reads it for both lists."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.engine import optional_rule, rebuild
from games.selectors.board import phase_board
from games.services.phases import current_phase, phase_commit
from tests.factories import make_game

pytestmark = pytest.mark.django_db

OPTIONAL = {  # every power the rules let its holder leave unused, with the rule that says so
    "inquisizione": {
        ("postino", "redirect"): "INQ-R29",  # "may choose" a recipient; §7.0 "optional (R)"
        ("templare", "designate"): "INQ-R50",  # "may indicate" another player
    },
    "wild-west-wolf": {  # once per game: kept for a later night
        ("bandito", "recruit"): "WWW-R57",
        ("pistolero", "shoot"): "WWW-R61",
        ("sciamano", "vision"): "WWW-R74",
    },
}


@pytest.mark.parametrize("setup", sorted(OPTIONAL))
def test_the_optional_powers_and_their_rules(gm_user, setup):
    """INQ-R29, INQ-R50, WWW-R57, WWW-R61, WWW-R74: the powers a player "may" use; every
    other power (the Seer's probe INQ-R27, the pack's maul INQ-R54, the Pianista's N0
    choice WWW-R90, ...) is one the GM waits for."""
    built = rebuild(make_game(gm_user, setup=setup))
    found = {
        (role, ability.key): optional_rule(ability)
        for role in {p.dealt_role for p in built.state.players}
        for ability in built.rules.card_abilities(role)
        if optional_rule(ability)
    }
    assert found == OPTIONAL[setup]


def _names(game, *roles: str) -> set[str]:
    return set(game.players.filter(role__in=roles).values_list("name", flat=True))


def test_inquisizione_postino_and_templare_are_optional_not_owed(gm_user, client):
    """INQ-R29 (the Postino "may choose"), INQ-R50 (the Templare "may indicate"): both
    under "potere facoltativo"; the Seer (INQ-R27) and the Inquisitore (INQ-R44) owe."""
    game = make_game(gm_user, setup="inquisizione")
    board = phase_board(game, current_phase(game))  # N0
    waiting = {p.name for p in board.waiting}
    may_act = {p.name for p in board.may_act}
    assert _names(game, "postino", "templare") <= may_act
    assert not waiting & _names(game, "postino", "templare")
    assert _names(game, "veggente", "inquisitore") <= waiting
    client.force_login(gm_user)
    html = client.get(reverse("games:phase", args=[game.pk])).content.decode()
    owed = html.split('id="owed">', 1)[1].split("</p>", 1)[0]
    for name in _names(game, "postino", "templare"):
        assert name not in owed


def test_wild_west_wolf_once_per_game_powers_are_optional(gm_user):
    """WWW-R57, WWW-R61: the Bandito and the Pistolero may keep their one shot; the
    Maestrina (WWW-R36) and the Notaio (WWW-R42) owe their night's choice."""
    game = make_game(gm_user)
    phase_commit(phase=current_phase(game), user=gm_user)  # N0
    phase_commit(phase=current_phase(game), user=gm_user)  # D1
    board = phase_board(game, current_phase(game))  # N1
    assert _names(game, "bandito", "pistolero") <= {p.name for p in board.may_act}
    assert _names(game, "maestrina", "notaio") <= {p.name for p in board.waiting}
