"""Issue 30 minors on the BANG! desk: a forum post for each elimination, a Revolution that
ends the game does not say the game goes on, and the grammar of the posts and sentences
("vince la Legge", never "vincono la Legge"; "è il Ribelle!", never "è il Ribelle!.")."""

from __future__ import annotations

import html
import re

import pytest

from desks.ribelle.desk import ribelle_game_create, ribelle_log
from desks.ribelle.text import message

pytestmark = pytest.mark.django_db
NAMES = ["Sam", "Vic", "Olga", "Otto", "Rina", "Reb"]
ROLES = ["sceriffo", "vice", "fuorilegge", "fuorilegge", "rinnegato", "ribelle"]
WRONG = ("vincono la Legge", "vincono il Rinnegato", "è il Ribelle!.", "victory to")


@pytest.fixture
def saloon(gm_user):
    game = ribelle_game_create(gm=gm_user, name="Saloon", player_names=NAMES, seed=1)
    roles = dict(zip(NAMES, ROLES, strict=True))
    for player in game.players.all():
        player.role = roles[player.name]
        player.save(update_fields=["role"])
    return game


@pytest.fixture
def gm(client, gm_user):
    client.force_login(gm_user)
    return client


def desk(gm, game) -> str:
    page = re.sub(r"<[^>]+>", " ", gm.get(game.get_absolute_url()).content.decode())
    return re.sub(r"\s+", " ", html.unescape(page))


def shot(game, *players, by, card="bang"):
    ribelle_log(game=game, kind="eliminated", players=list(players), by=by, card=card)


def test_an_elimination_has_its_forum_post(gm, saloon):
    """BANG-B7, BANG-B9: the eliminated player's role and the reward, for the thread."""
    ribelle_log(game=saloon, kind="turn", players=["Sam"], phase=2)
    shot(saloon, "Olga", by="Sam")
    page = desk(gm, saloon)
    assert "[b]Eliminazione: Olga[/b]" in page
    assert "Eliminazione di Olga: era Fuorilegge. (BANG-B7)" in page  # whatever her gender
    assert "Sam ha eliminato un Fuorilegge: pesca 3 carte. (BANG-B9)" in page
    assert "**Elimination: Olga**" in page


def test_the_winners_agree_with_their_verb(gm, saloon):
    """RIB-R16, BANG-B5: "vince il Rinnegato (Rina)", "vince la Legge"."""
    ribelle_log(game=saloon, kind="turn", players=["Sam"], phase=2)
    shot(saloon, "Olga", "Otto", "Vic", "Reb", by="Sam", card="gatling")
    ribelle_log(game=saloon, kind="turn", players=["Rina"], phase=2)
    shot(saloon, "Sam", by="Rina")
    page = desk(gm, saloon)
    assert "vince il Rinnegato (Rina)" in page
    assert "Fine della partita: vince il Rinnegato" in page
    assert "Game over: the Renegade wins" in page
    assert [w for w in WRONG if w in page] == []


def test_the_law_wins_in_the_singular(gm, saloon):
    ribelle_log(game=saloon, kind="turn", players=["Sam"], phase=2)
    shot(saloon, "Olga", "Otto", "Rina", by="Sam", card="gatling")
    page = desk(gm, saloon)
    assert "Fine della partita: vince la Legge" in page
    assert [w for w in WRONG if w in page] == []


def test_a_revolution_that_ends_the_game_does_not_say_it_goes_on(gm, saloon):
    """RIB-R17: the Rebel!'s Gatling eliminates the Sheriff and the last Outlaws and
    Renegade: the Revolution happens at the end of the card and the game ends there."""
    ribelle_log(game=saloon, kind="turn", players=["Reb"], phase=2)
    shot(saloon, "Olga", "Otto", "Rina", "Sam", by="Reb", card="gatling")
    page = desk(gm, saloon)
    assert "[b]Rivoluzione! Reb è il nuovo Sceriffo[/b]" in page
    assert "Il gioco continua" not in page
    assert "The game goes on" not in page
    assert "la partita finisce qui, senza un nuovo turno. (RIB-R17)" in page
    assert "Fine della partita: vince la Legge" in page


def test_the_reveal_sentence_ends_once():
    """The Rebel!'s own page says it when he reveals (RIB-R9)."""
    assert message("rib.reveal", {"player": "Reb"}) == "Reb scopre il suo ruolo: è il Ribelle!"
