"""Issue 31 major 3: a game its GM archives (off the dashboard, kept, restorable) or
deletes (its name typed again; only before anything is played, or once archived). Only
the owning GM; every change a POST with CSRF after a page that works without JS."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from desks.models import TableEvent
from desks.ribelle.desk import ribelle_game_create
from games.models import AuditEvent, Game, Player, Submission
from games.services.archive import game_archive, game_deletable, game_delete, game_restore
from games.services.clock import deadlines_run
from games.services.phases import current_phase, phase_commit
from tests.factories import make_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def other_gm(django_user_model):
    return django_user_model.objects.create_user(username="altro", password="pw-altro-1")


def test_archive_hides_keeps_and_restores(gm_user):
    """Issue 31 major 3: archived, the game leaves the dashboard's list and nothing of it
    is lost; restored, it is back as it was; both in its audit log."""
    game = make_game(gm_user, name="Doppione")
    players = list(game.players.values_list("name", "role"))
    game_archive(game=game, user=gm_user)
    game.refresh_from_db()
    assert game.archived_at is not None
    assert list(game.players.values_list("name", "role")) == players
    game_archive(game=game, user=gm_user)  # a second click changes nothing
    game_restore(game=game, user=gm_user)
    game.refresh_from_db()
    assert game.archived_at is None
    kinds = list(AuditEvent.objects.filter(game=game).order_by("at", "pk")
                 .values_list("kind", flat=True))  # fmt: skip
    assert kinds[-2:] == ["game_archived", "game_restored"]


def test_delete_needs_the_name_typed(gm_user):
    """Issue 31 major 3: a wrong name deletes nothing; the right one (spaces aside) the
    game and everything in it."""
    game = make_game(gm_user, name="Doppione")
    with pytest.raises(ValidationError, match="non è stata eliminata"):
        game_delete(game=game, user=gm_user, typed_name="doppione")
    assert Game.objects.filter(pk=game.pk).exists()
    assert game_delete(game=game, user=gm_user, typed_name="  Doppione ") == "Doppione"
    assert not Game.objects.filter(pk=game.pk).exists()
    assert not Player.objects.filter(game_id=game.pk).exists()


def test_a_played_game_is_deleted_only_once_archived(gm_user):
    """Issue 31 major 3: after the deal something was sent, or a phase resolved: the game
    is not deleted until archived."""
    game = make_game(gm_user, name="Vera")
    phase_commit(phase=current_phase(game), user=gm_user)
    assert not game_deletable(game)
    with pytest.raises(ValidationError, match="archiviala prima"):
        game_delete(game=game, user=gm_user, typed_name="Vera")
    fresh = make_game(gm_user, name="Nuova")
    first, last = fresh.players.first(), fresh.players.last()
    sent = Submission.objects.create(
        phase=current_phase(fresh), player=first, kind=Submission.Kind.ACTION, target=last
    )
    sent.superseded_at = sent.at  # even one taken back: something was played
    sent.save(update_fields=["superseded_at"])
    assert not game_deletable(fresh)
    game_archive(game=game, user=gm_user)
    game.refresh_from_db()
    game_delete(game=game, user=gm_user, typed_name="Vera")
    assert not Game.objects.filter(pk=game.pk).exists()


def test_a_desk_game_too(gm_user):
    """Issue 31 major 3: the board-game desks' games are on the same dashboard: an empty
    log may go, a logged table only once archived."""
    names = ["Sam", "Vic", "Olga", "Otto", "Rina", "Reb"]
    bang = ribelle_game_create(gm=gm_user, name="Saloon", seed=1, player_names=names)
    assert game_deletable(bang)
    TableEvent.objects.create(game=bang, seq=1, kind="turn", data={})
    assert not game_deletable(bang)
    game_archive(game=bang, user=gm_user)
    bang.refresh_from_db()
    assert game_deletable(bang)


def test_dashboard_lists_archived_apart_with_restore(client, gm_user):
    """Issue 31 major 3: the dashboard shows the running games with «Archivia» (and
    «Elimina» when nothing is played yet), the archived ones under «Archiviate» with
    «Ripristina»."""
    client.force_login(gm_user)
    kept = make_game(gm_user, name="Attiva")
    phase_commit(phase=current_phase(kept), user=gm_user)
    spare = make_game(gm_user, name="Scorta")
    page = client.get(reverse("dashboard")).content.decode()
    assert reverse("games:archive", args=[kept.pk]) in page
    assert reverse("games:delete", args=[kept.pk]) not in page  # played: archive first
    assert reverse("games:delete", args=[spare.pk]) in page
    assert "Archiviate" not in page
    answer = client.post(reverse("games:archive", args=[spare.pk]))
    assert answer.status_code == 302
    page = client.get(reverse("dashboard")).content.decode()
    main, archived = page.split("<h1>")[1].split('id="archived"')
    assert "<strong>Scorta</strong>" not in main
    assert "<strong>Scorta</strong>" in archived
    assert "Ripristina" in archived
    client.post(reverse("games:restore", args=[spare.pk]))
    page = client.get(reverse("dashboard")).content.decode()
    assert 'id="archived"' not in page
    assert "<strong>Scorta</strong>" in page


def test_confirmation_pages_and_the_typed_name(client, gm_user):
    """Issue 31 major 3: GET shows the confirmation (a plain form, no JS); a wrong name
    is refused on the page, the right one deletes."""
    client.force_login(gm_user)
    game = make_game(gm_user, name="Doppione")
    url = reverse("games:delete", args=[game.pk])
    page = client.get(url).content.decode()
    assert 'name="name"' in page
    assert 'method="post"' in page
    assert "csrfmiddlewaretoken" in page
    assert "Archiviare" in client.get(reverse("games:archive", args=[game.pk])).content.decode()
    wrong = client.post(url, {"name": "Altro"})
    assert wrong.status_code == 400
    assert "non è stata eliminata" in wrong.content.decode()
    assert Game.objects.filter(pk=game.pk).exists()
    assert client.post(url, {"name": "Doppione"}).status_code == 302
    assert not Game.objects.filter(pk=game.pk).exists()


def test_only_the_owner_and_only_post_with_csrf(client, gm_user, other_gm):
    """Issue 31 major 3: another GM gets a 404 on every page; restore is POST-only; a POST
    without its CSRF token is refused."""
    game = make_game(gm_user, name="Mia")
    client.force_login(other_gm)
    for name in ("archive", "delete"):
        url = reverse(f"games:{name}", args=[game.pk])
        assert client.get(url).status_code == 404
        assert client.post(url, {"name": "Mia"}).status_code == 404
    assert client.post(reverse("games:restore", args=[game.pk])).status_code == 404
    owner = Client(enforce_csrf_checks=True)
    owner.force_login(gm_user)
    assert owner.get(reverse("games:restore", args=[game.pk])).status_code == 405
    assert owner.post(reverse("games:archive", args=[game.pk])).status_code == 403
    assert owner.post(reverse("games:delete", args=[game.pk]), {"name": "Mia"}).status_code == 403
    game.refresh_from_db()
    assert game.archived_at is None


def test_an_archived_games_clock_waits(gm_user):
    """Issue 31 major 3: archived, a running game's deadlines do not close it (kept as it
    was); restored, the next tick closes what is due."""
    game = make_game(gm_user, name="Ferma")
    phase = current_phase(game)
    phase.closes_at = timezone.now() - dt.timedelta(minutes=1)
    phase.save(update_fields=["closes_at"])
    game_archive(game=game, user=gm_user)
    deadlines_run()
    phase.refresh_from_db()
    assert phase.status == phase.Status.OPEN
    game_restore(game=game, user=gm_user)
    deadlines_run()
    phase.refresh_from_db()
    assert phase.status != phase.Status.OPEN


def test_the_pages_in_english(client, gm_user):
    """Issue 31 major 3: every word of the new pages in English when chosen."""
    client.force_login(gm_user)
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    game = make_game(gm_user, name="Doppione")
    archive_page = client.get(reverse("games:archive", args=[game.pk])).content.decode()
    assert "Archive «Doppione»?" in archive_page
    assert "Yes, archive" in archive_page
    delete_page = client.get(reverse("games:delete", args=[game.pk])).content.decode()
    assert "To confirm, type the game's name: Doppione" in delete_page
    assert "Delete for good" in delete_page
    client.post(reverse("games:archive", args=[game.pk]))
    dashboard = client.get(reverse("dashboard")).content.decode()
    assert "Archived (1)" in dashboard
    assert ">Restore<" in dashboard
    for italian in ("Archiviat", "Ripristina", "Elimina", "partita", "Sì, "):
        assert italian not in dashboard + archive_page + delete_page
