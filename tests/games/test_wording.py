"""Italian as forums write it (issue 13 §2): phases, dates, the audit log's times."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import translation

from games.models import AuditEvent
from games.templatetags.wording import local_moment, phase_short, when
from games.text.presentation import describe
from games.text.words import phase_name
from roles.engine.announce import cause_label
from tests.factories import make_game

ROME = dt.timezone(dt.timedelta(hours=1))  # December in Europe/Rome


def test_phases_read_as_italian_forums_write_them():
    with translation.override("it"):
        assert [phase_name(x) for x in ("N0", "D1", "N1")] == ["Notte 0", "Giorno 1", "Notte 1"]
        assert [phase_short(x) for x in ("D1", "N1")] == ["G1", "N1"]
    with translation.override("en"):
        assert [phase_name(x) for x in ("D2", "N2")] == ["Day 2", "Night 2"]
        assert phase_short("D2") == "D2"
    assert phase_name("fine") == "fine"


def test_dates_in_italian_typography_and_local_time():
    moment = dt.datetime(2026, 12, 1, 21, 0, tzinfo=dt.UTC)  # 22:00 in Rome
    with translation.override("it"):
        assert when(moment) == "martedì 1 dicembre, ore 22:00"
    with translation.override("en"):
        assert when(moment) == "Tuesday 1 December, 22:00"
    assert when(None) == ""


def test_audit_details_in_local_time_without_microseconds():
    with translation.override("it"):
        assert local_moment("2026-12-01T21:30:05.123456+00:00") == "1 dic 22:30:05"
    assert local_moment("D1") == "D1"
    assert local_moment(3) == 3


@pytest.mark.django_db
def test_pages_name_the_phase_in_words(client, gm_user):
    game = make_game(gm_user)
    client.force_login(gm_user)
    html = client.get(reverse("games:phase", args=[game.pk])).content.decode()
    assert "<h1>Notte 0</h1>" in html
    AuditEvent.objects.create(
        game=game, kind="deadline_moved", detail={"old": "2026-12-01T21:30:05.123456+00:00"}
    )
    audit = client.get(reverse("games:audit", args=[game.pk])).content.decode()
    assert "da martedì 1 dicembre, ore 22:30 a" in audit  # issue 31 minor: a sentence
    assert ".123456" not in audit


def test_an_indian_is_named_the_same_way_by_every_result():
    """The Maresciallo's answer (his card: "Americano oppure Indiano") and the Maestrina's
    Indian (WWW-D15: she learns the name of one Indian) read alike: "X è Indiano"."""
    with translation.override("it"):
        marshal = describe("wild-west-wolf", "investigation", "Vesper", "indiano")
        teacher = describe("wild-west-wolf", "spotted", None, "Vesper")
    assert marshal == teacher == "Vesper è Indiano."


def test_the_night_kill_is_told_in_the_setups_own_words():
    assert cause_label("wild-west-wolf", "pack", "it") == "attaccato dagli Indiani"
    assert cause_label("wild-west-wolf", "pack", "en") == "attacked by the Indians"
    assert cause_label("inquisizione", "pack", "it") == "sbranato dai Lupi Mannari"
    assert cause_label("classic-village", "pack", "it") == "ucciso nella notte"  # the generic
