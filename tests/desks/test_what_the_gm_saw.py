"""Issue 30 §1-4 on the desks: every form carries what the GM saw (a stale tab is refused,
a double click records once), the end can be undone behind a confirmation, a new game is
dealt once whatever is reloaded, and the Time Car's hiding deadline (ADT-D10)."""

from __future__ import annotations

import datetime as dt
import html
import re
import threading

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from desks.automobile.desk import adt_game_create, adt_log, table_state
from desks.models import TableEvent
from desks.ribelle.desk import ribelle_game_create, ribelle_log
from games.models import AuditEvent, Game
from games.services.backup import game_export_json, game_import, parse_backup
from games.services.game import player_link_issue
from tests.desks.forms import new_game, seen

pytestmark = pytest.mark.django_db
NAMES = ["Sam", "Vic", "Olga", "Otto", "Rina", "Reb"]
STALE = "La partita è cambiata: ricarica la pagina."


@pytest.fixture
def saloon(gm_user):
    game = ribelle_game_create(gm=gm_user, name="Saloon", player_names=NAMES, seed=1)
    roles = dict(zip(NAMES, ["sceriffo", "vice", "fuorilegge", "fuorilegge", "rinnegato",
                             "ribelle"], strict=True))  # fmt: skip
    for player in game.players.all():
        player.role = roles[player.name]
        player.save(update_fields=["role"])
    return game


@pytest.fixture
def train(gm_user):
    return adt_game_create(gm=gm_user, name="Treno", config={"cars": 3, "rounds": 3},
                           bandits={"Ada": "django", "Bea": "belle", "Cid": "tuco"})  # fmt: skip


def words(response) -> str:
    page = re.sub(r"<[^>]+>", "", response.content.decode())
    return re.sub(r"\s+", " ", html.unescape(page))


def test_a_stale_tab_cannot_record_against_a_table_that_moved_on(gm, saloon, gm_user):
    """The elimination form was shown under Sam's turn; another tab logged Reb's turn
    since: the form is refused, nothing is recorded (the Revolution is not lost)."""
    url = reverse("desks:ribelle_event", args=[saloon.pk])
    ribelle_log(game=saloon, kind="turn", players=["Sam"], user=gm_user)
    stale_tab = seen(saloon, kind="eliminated", players=["Olga"], by="Sam", card="bang")
    gm.post(url, seen(saloon, kind="turn", player="Reb", phase="2"))  # the other tab
    before = list(TableEvent.objects.filter(game=saloon).values_list("pk", flat=True))
    response = gm.post(url, stale_tab, follow=True)
    assert STALE in words(response)
    assert list(TableEvent.objects.filter(game=saloon).values_list("pk", flat=True)) == before
    again = gm.post(url, seen(saloon, kind="eliminated", players=["Olga"], by="Reb",
                              card="bang"), follow=True)  # fmt: skip
    assert STALE not in words(again), words(again)
    assert TableEvent.objects.filter(game=saloon, kind="eliminated").count() == 1


def test_the_same_form_sent_twice_records_once(gm, saloon):
    url = reverse("desks:ribelle_event", args=[saloon.pk])
    form = seen(saloon, kind="turn", player="Sam", phase="1")
    gm.post(url, form)
    second = gm.post(url, form, follow=True)
    assert TableEvent.objects.filter(game=saloon).count() == 1
    assert "Evento n. 1 già registrato: il modulo era stato inviato due volte." in words(second)
    assert STALE not in words(second)


def test_a_stale_undo_is_refused_and_undoes_nothing(gm, saloon, gm_user):
    """The undo button names the event it shows (n. 1); another tab logged n. 2 since."""
    ribelle_log(game=saloon, kind="turn", players=["Sam"], user=gm_user)
    page = gm.get(saloon.get_absolute_url()).content.decode()
    assert "Annulla l&#x27;ultimo evento (n. 1)" in page or "Annulla l'ultimo evento (n. 1)" in page
    stale_undo = seen(saloon)
    ribelle_log(game=saloon, kind="turn", players=["Vic"], user=gm_user)
    response = gm.post(reverse("desks:ribelle_undo", args=[saloon.pk]), stale_undo, follow=True)
    assert STALE in words(response)
    assert TableEvent.objects.filter(game=saloon).count() == 2
    undo = seen(saloon)
    gm.post(reverse("desks:ribelle_undo", args=[saloon.pk]), undo)
    twice = gm.post(reverse("desks:ribelle_undo", args=[saloon.pk]), undo, follow=True)
    assert "Questo evento è già stato annullato." in words(twice)
    assert TableEvent.objects.filter(game=saloon).count() == 1


def test_the_end_of_a_game_is_undone_behind_a_confirmation(gm, saloon, gm_user):
    """Issue 30 §2: a misclick that ends the game is not permanent; the end post goes."""
    ribelle_log(game=saloon, kind="turn", players=["Sam"], user=gm_user)
    ribelle_log(game=saloon, kind="eliminated", players=["Olga", "Otto", "Rina"], by="Sam",
                card="gatling", user=gm_user)  # fmt: skip
    saloon.refresh_from_db()
    assert saloon.status == Game.Status.FINISHED
    page = words(gm.get(saloon.get_absolute_url()))
    assert "Sì, annulla la fine della partita" in page
    assert "Fine della partita: vince la Legge" in page
    url = reverse("desks:ribelle_undo", args=[saloon.pk])
    refused = gm.post(url, seen(saloon), follow=True)
    assert "spunta «Sì, annulla la fine della partita»" in words(refused)
    assert TableEvent.objects.filter(game=saloon).count() == 2
    done = words(gm.post(url, seen(saloon, end_confirmed="1"), follow=True))
    assert "Evento n. 2 annullato: la partita riprende." in done
    assert "Fine della partita: vince la Legge" not in done
    saloon.refresh_from_db()
    assert saloon.status == Game.Status.RUNNING
    assert AuditEvent.objects.filter(game=saloon, kind="table_undo", detail__reopened=True)


def test_the_time_car_end_is_undone_too(gm, train, gm_user):
    for _round in range(2):
        adt_log(game=train, kind="stealin", data={}, user=gm_user)
        adt_log(game=train, kind="round_end", data={}, user=gm_user)
    adt_log(game=train, kind="stealin", data={}, user=gm_user)
    adt_log(game=train, kind="round_end", data={}, user=gm_user)
    train.refresh_from_db()
    assert train.status == Game.Status.FINISHED
    url = reverse("desks:adt_undo", args=[train.pk])
    gm.post(url, seen(train, end_confirmed="1"))
    train.refresh_from_db()
    assert train.status == Game.Status.RUNNING
    table, _log = table_state(train)
    assert table.stage == "stealin"


@pytest.mark.parametrize("desk", ["ribelle", "adt"])
def test_a_desk_game_is_dealt_once_whatever_is_sent_again(gm, desk):
    """Issue 30 §3: the answer is a redirect; the same form again (a reload, Back and
    submit) lands on the game dealt; the name cannot be used twice."""
    url = reverse(f"desks:{desk}_new")
    fields = ({"players": "\n".join(NAMES), "language": "it", "event_deck": "none"}
              if desk == "ribelle" else
              {"bandits": "Ada: Django\nBea: belle", "rounds": "3", "language": "it"})  # fmt: skip
    form = new_game(gm, url, name="Doppio", **fields)
    first = gm.post(url, form)
    game = Game.objects.get()
    assert first.status_code == 302
    assert first["Location"] == f"{game.get_absolute_url()}?link=nuovi"
    assert gm.get(first["Location"]).content.decode().count("/p/") >= 2
    again = gm.post(url, form)
    assert again["Location"] == game.get_absolute_url()
    assert Game.objects.count() == 1
    other = gm.post(url, new_game(gm, url, name="doppio", **fields))
    assert "Hai già una partita che si chiama «doppio»" in words(other)
    assert Game.objects.count() == 1


def bea_alone(game, gm_user, hide_by=None):
    adt_log(game=game, kind="stealin", data={}, user=gm_user)
    adt_log(game=game, kind="action", data={"kind": "place", "actor": "Bea",
                                            "to": "locomotive:interior"}, user=gm_user)  # fmt: skip
    adt_log(game=game, kind="action", data={"kind": "move", "actor": "Bea", "to": "time_car"},
            user=gm_user)  # fmt: skip
    data = {"event": None, "hide_by": hide_by.isoformat() if hide_by else None}
    adt_log(game=game, kind="round_end", data=data, user=gm_user)


def test_a_hiding_deadline_in_the_past_is_refused(gm, train, gm_user):
    """ADT-D10."""
    adt_log(game=train, kind="stealin", data={}, user=gm_user)
    past = (timezone.localtime() - dt.timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M")
    response = gm.post(reverse("desks:adt_event", args=[train.pk]),
                       seen(train, kind="round_end", hide_by=past), follow=True)  # fmt: skip
    assert "è già passata: scegline una futura" in words(response)
    assert not TableEvent.objects.filter(game=train, kind="round_end").exists()


def test_at_the_deadline_the_site_hides_him_at_random_sealed_and_tells_him(
    gm, train, gm_user, client, monkeypatch
):
    """ADT-D10: past the deadline, Bea has not chosen: the site hides her under a legal
    spot drawn at random, as the same sealed event as her own choice (ADT-R15: the GM's
    pages do not show where), tells her, and she can no longer choose."""
    soon = timezone.now() + dt.timedelta(minutes=5)
    bea_alone(train, gm_user, hide_by=soon)
    bea = train.players.get(name="Bea")
    phone = client.__class__()
    phone.get(reverse("player_enter", args=[player_link_issue(player=bea)]))
    form = seen(train, under="car1")
    assert 'id="hide-form"' in phone.get(reverse("player_home")).content.decode()
    later = soon + dt.timedelta(seconds=1)
    monkeypatch.setattr(timezone, "now", lambda: later)
    desk = words(gm.get(train.get_absolute_url()))
    assert "Il Bandito Bea non ha scelto entro la scadenza: il sito lo ha nascosto" in desk
    row = TableEvent.objects.get(game=train, kind="hide")
    assert row.sealed
    assert row.player == bea
    assert row.data["under"] in {"locomotive", "car1", "car2", "car3"}
    assert row.data["under"] not in desk.replace("car1:", "")  # the spot is not shown
    audit = AuditEvent.objects.get(game=train, kind="adt_hide")
    assert row.data["under"] not in str(audit.detail)
    page = phone.get(reverse("player_home")).content.decode()
    assert 'id="drawn"' in page
    assert 'id="hide-form"' not in page
    refused = words(phone.post(reverse("desks:player_hide"), form, follow=True))
    assert "Il tempo per nasconderti è scaduto" in refused
    assert TableEvent.objects.filter(game=train, kind="hide").count() == 1
    table, _log = table_state(train)
    assert table.stage == "schemin"
    assert table.game.bandits["Bea"].hidden_under == row.data["under"]


def test_before_the_deadline_nothing_is_drawn(gm, train, gm_user):
    bea_alone(train, gm_user, hide_by=timezone.now() + dt.timedelta(hours=1))
    gm.get(train.get_absolute_url())
    assert not TableEvent.objects.filter(game=train, kind="hide").exists()


def test_can_it_be_done_keeps_the_form_filled_for_apply(gm, train, gm_user):
    """Issue 30 §5: «Si può fare?» answers and keeps the values; «Applica» applies them."""
    url = reverse("desks:adt_event", args=[train.pk])
    adt_log(game=train, kind="stealin", data={}, user=gm_user)
    asked = seen(train, kind="check", action="place", actor="Bea", to="locomotive:roof")
    page = gm.post(url, asked, follow=True).content.decode()
    assert '<option value="place" selected>' in page
    assert '<option value="Bea" selected>' in page
    assert '<option value="locomotive:roof" selected>' in page
    assert not TableEvent.objects.filter(game=train, kind="action").exists()


def test_after_an_action_the_form_offers_the_next_bandit(gm, train, gm_user):
    """Issue 30 §5: the next action's default is the next player's card."""
    adt_log(game=train, kind="stealin", data={}, user=gm_user)
    adt_log(game=train, kind="action", data={"kind": "place", "actor": "Bea",
                                             "to": "locomotive:roof"}, user=gm_user)  # fmt: skip
    page = gm.get(train.get_absolute_url()).content.decode()
    assert '<option value="Cid" selected>' in page


def test_a_dealt_game_imported_twice_does_not_clash_on_its_token(gm, gm_user):
    """The creation token stays with the game it dealt: a backup does not carry it."""
    url = reverse("desks:ribelle_new")
    gm.post(url, new_game(gm, url, name="Saloon", players="\n".join(NAMES), language="it",
                          event_deck="none"))  # fmt: skip
    game = Game.objects.get()
    assert game.creation_token
    document = parse_backup(game_export_json(game))
    assert "creation_token" not in document["rows"]["games.game"][0]["fields"]
    first = game_import(document, gm=gm_user, name="Saloon 2")
    second = game_import(parse_backup(game_export_json(game)), gm=gm_user, name="Saloon 3")
    assert first.creation_token is None
    assert second.creation_token is None


@pytest.mark.django_db(transaction=True)
def test_two_simultaneous_sends_of_one_form_deal_once(gm_user):
    """A double click sends the form twice at once: the lock on the GM's row serves them
    one after the other, and the second finds the first's game."""
    barrier = threading.Barrier(2)
    dealt: list[int] = []

    def send() -> None:
        try:
            barrier.wait()
            game = ribelle_game_create(gm=gm_user, name="Saloon", player_names=NAMES,
                                       creation_token="one-form-" + "x" * 20)  # fmt: skip
            dealt.append(game.pk)
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert Game.objects.count() == 1
    assert dealt == [Game.objects.get().pk] * 2


def test_an_imported_game_issues_every_new_link_in_one_never_cached_answer(gm, saloon):
    """Issue 30 minors: the links came one round trip each («Nuovo link» per player) and a
    reload rotated them again; now all at once, as after a deal, never cached, once."""
    upload = SimpleUploadedFile("b.json", game_export_json(saloon).encode(),
                                content_type="application/json")  # fmt: skip
    sent = gm.post(reverse("games:import"), {"file": upload, "name": "Saloon 2"})
    copy = Game.objects.get(name="Saloon 2")
    assert sent["Location"] == f"{copy.get_absolute_url()}?link=nuovi"
    page = gm.get(sent["Location"])
    assert "no-store" in page["Cache-Control"]
    assert page.content.decode().count("/p/") >= len(NAMES)
    hashes = list(copy.players.order_by("seat").values_list("token_hash", flat=True))
    assert all(hashes)
    again = gm.get(sent["Location"]).content.decode()
    assert "/p/" not in again  # a reload issues none again
    assert list(copy.players.order_by("seat").values_list("token_hash", flat=True)) == hashes


def test_the_next_card_is_one_click_the_next_player_or_the_same_bandit(gm, train, gm_user):
    """Issue 30 §5: the next action's defaults come from the last one: the next player's
    card is preselected, and one link picks the same Bandit's next card instead."""
    adt_log(game=train, kind="stealin", data={}, user=gm_user)
    adt_log(game=train, kind="action", data={"kind": "place", "actor": "Bea",
                                             "to": "locomotive:roof"}, user=gm_user)  # fmt: skip
    page = gm.get(train.get_absolute_url()).content.decode()
    choices = re.search(r'<p class="muted" id="card-choices">.*?</p>', page, re.S)[0]
    assert '<a href="?bandito=Cid#checker">Cid</a>' in choices
    assert '<a href="?bandito=Bea#checker">di nuovo Bea</a>' in choices
    again = gm.get(f"{train.get_absolute_url()}?bandito=Bea").content.decode()
    assert '<option value="Bea" selected>' in again
    assert '<option value="Cid" selected>' not in again
