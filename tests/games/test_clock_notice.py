"""Issue 31 major 4: when the clock resolves a phase by itself, the GM's dashboard and
phase page say what closed, when, and the result, until the GM puts the notice away."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format

from games.models import Phase
from games.selectors.notices import clock_notice
from games.services.clock import deadlines_run
from games.services.phases import current_phase, phase_commit, phase_undo
from games.services.submissions import vote_cast
from tests.factories import make_game

pytestmark = pytest.mark.django_db


def day_one(gm_user):
    game = make_game(gm_user, name="Far West")
    phase_commit(phase=current_phase(game), user=gm_user)
    return game, current_phase(game)


def closed_by_the_clock(game, day):
    """Day 1's deadline passed: the tick resolves it. Returns when, in Rome."""
    Phase.objects.filter(pk=day.pk).update(closes_at=timezone.now() - dt.timedelta(seconds=1))
    assert deadlines_run() == {"committed": 1}
    day.refresh_from_db()
    return day.committed_at.astimezone(ZoneInfo("Europe/Rome"))


def when_words(at):
    return f"{date_format(at, 'l j F')} alle {at:%H:%M}"


def test_the_notice_says_what_closed_when_and_who_was_executed(client, gm_user):
    """Issue 31 major 4: the dashboard and the phase page say "Il Giorno 1 si è chiuso da
    solo <day> alle <time>: giustiziato <name>." until the GM dismisses it."""
    game, day = day_one(gm_user)
    sheriff, indian = game.players.get(role="sceriffo"), game.players.get(role="indiano")
    vote_cast(phase=day, player=sheriff, target=indian)
    assert clock_notice(game) is None
    at = closed_by_the_clock(game, day)
    expected = f"Il Giorno 1 si è chiuso da solo {when_words(at)}: giustiziato {indian.name}."
    assert clock_notice(game).sentence == expected
    client.force_login(gm_user)
    assert expected in client.get(reverse("dashboard")).content.decode()
    page = client.get(reverse("games:phase", args=[game.pk])).content.decode()
    assert expected in page
    notice = clock_notice(game)
    answer = client.post(reverse("games:clock_notice_seen", args=[game.pk]),
                         {"event": notice.event_id, "back": "phase"})  # fmt: skip
    assert answer.status_code == 302
    assert answer["Location"] == reverse("games:phase", args=[game.pk])
    assert clock_notice(game) is None
    assert expected not in client.get(reverse("dashboard")).content.decode()
    assert expected not in client.get(reverse("games:phase", args=[game.pk])).content.decode()


def test_a_night_the_clock_resolved_names_its_dead(gm_user):
    """Issue 31 major 4: a night resolved by itself (the game says so) names who died, or
    says nobody did."""
    game, day = day_one(gm_user)
    game.auto_commit_nights = True
    game.save(update_fields=["auto_commit_nights"])
    phase_commit(phase=day, user=gm_user)  # the GM resolves the day: no notice for it
    assert clock_notice(game) is None
    night = current_phase(game)
    Phase.objects.filter(pk=night.pk).update(closes_at=timezone.now() - dt.timedelta(seconds=1))
    assert deadlines_run() == {"committed": 1}
    night.refresh_from_db()
    at = night.committed_at.astimezone(ZoneInfo("Europe/Rome"))
    expected = f"La Notte 1 si è chiusa da sola {when_words(at)}: nessun morto."
    assert clock_notice(game).sentence == expected


def test_an_undo_puts_the_notice_away_and_a_gm_commit_makes_none(gm_user):
    """Issue 31 major 4: the notice is about the clock's result; undone, it is gone, and the
    GM's own commit of the same day brings none."""
    game, day = day_one(gm_user)
    closed_by_the_clock(game, day)
    assert clock_notice(game) is not None
    phase_undo(game=game, user=gm_user)
    assert clock_notice(game) is None
    phase_commit(phase=current_phase(game), user=gm_user)
    assert clock_notice(game) is None


def test_another_gm_cannot_dismiss(client, gm_user, django_user_model):
    game, day = day_one(gm_user)
    closed_by_the_clock(game, day)
    other = django_user_model.objects.create_user(username="altro", password="pw-altro-1")
    client.force_login(other)
    url = reverse("games:clock_notice_seen", args=[game.pk])
    assert client.post(url, {"event": clock_notice(game).event_id}).status_code == 404
    assert clock_notice(game) is not None


def test_the_notice_in_english(client, gm_user):
    """Issue 31 major 4: the GM reads the notice in his interface's language."""
    game, day = day_one(gm_user)
    at = closed_by_the_clock(game, day)
    client.force_login(gm_user)
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    page = client.get(reverse("dashboard")).content.decode()
    with translation.override("en"):
        day_words = date_format(at, "l j F")
    expected = f"Day 1 closed by itself on {day_words} at {at:%H:%M}: nobody was executed."
    assert expected in page
    assert "Seen, hide" in page
    assert "si è chiuso" not in page
