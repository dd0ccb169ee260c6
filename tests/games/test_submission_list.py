"""The GM's submission list on the phase page (the ``submission-row`` partial of
games/phase.html): every name, account and reason escaped, the labels in the setup's words."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.template.loader import render_to_string
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from games.models import Submission
from games.selectors.board import submissions_page
from games.services.game import player_substitute
from games.services.phases import current_phase, phase_commit
from tests.factories import day_one, make_game

pytestmark = pytest.mark.django_db

MARKUP = "<b>\"Ev&l'</b>"


@pytest.fixture
def day(gm_user, django_user_model):
    game, day = day_one(gm_user)
    seated = list(game.players.order_by("seat"))
    player_substitute(player=seated[0], new_name=MARKUP, user=gm_user)
    other_gm = django_user_model.objects.create_user(username="<i>gm</i>", password="x")
    now = timezone.now()
    rows = [
        {"player": seated[0], "kind": "vote", "target": seated[1]},
        {"player": seated[1], "kind": "vote", "target": None},  # withdrawn
        {"player": seated[2], "kind": "vote", "target": seated[0], "entered_by": other_gm,
         "reason": "dal <topic> & co"},
        {"player": seated[3], "kind": "secret", "target": None, "abstain": True},
        {"player": seated[4], "kind": "action", "slot": "fake_role", "fake_role": "pastore"},
        {"player": seated[5], "kind": "action", "slot": "shoot", "target": seated[0],
         "during": "bandito"},
        {"player": seated[0], "kind": "vote", "target": seated[2], "superseded_at": now,
         "superseded_reason": "letto <male>"},
        {"player": seated[6], "kind": "action", "slot": "unknown_slot", "target": seated[7],
         "entered_by": gm_user, "reason": "", "superseded_at": now},
    ]  # fmt: skip
    for i, fields in enumerate(rows):
        Submission.objects.create(phase=day, at=now - dt.timedelta(minutes=i), **fields)
    return day


def rows_html(day, language: str) -> str:
    page = submissions_page(day, 1, Submission.every.filter(phase=day).count())
    with translation.override(language):
        return "".join(
            render_to_string(
                "games/phase.html#submission-row", {"row": row, "game": day.game, "phase": day}
            )
            for row in page
        )


def test_every_name_and_reason_is_escaped(day):
    drawn = rows_html(day, "it")
    for raw in (MARKUP, "<i>", "<topic>", "<male>"):
        assert raw not in drawn
    assert "&lt;b&gt;&quot;Ev&amp;l&#x27;&lt;/b&gt;" in drawn
    assert "&lt;i&gt;gm&lt;/i&gt; — dal &lt;topic&gt; &amp; co" in drawn
    assert '<span class="muted">letto &lt;male&gt;</span>' in drawn
    assert "Ruolo da mostrare allo Sciamano (Ruolo da mostrare allo Sciamano)" not in drawn
    assert "Azione (Ruolo da mostrare allo Sciamano): Pastore" in drawn
    assert drawn.count('class="superseded"') == 2
    assert drawn.count(">Correggi</a>") == 6


def test_the_phase_page_lists_the_rows_in_a_fixed_number_of_queries(client, gm_user, day):
    """No query per row: more submissions (by other players, entered by a GM) cost the
    page no more queries."""
    client.force_login(gm_user)
    url = reverse("games:phase", args=[day.game_id])
    client.get(url)  # whatever a first visit warms
    with CaptureQueriesContext(connection) as before:
        html = client.get(url).content.decode()
    assert html.count('id="submission-') == 8
    players = list(day.game.players.order_by("seat"))
    for i, player in enumerate(players[8:] * 3):
        Submission.objects.create(
            phase=day, player=player, kind="vote", target=players[0], entered_by=gm_user,
            reason=f"r{i}", at=timezone.now(),
        )  # fmt: skip
    client.get(url)  # the board worked out again for the new rows
    with CaptureQueriesContext(connection) as after:
        html = client.get(url).content.decode()
    assert html.count('id="submission-') == 8 + 3 * len(players[8:])
    assert len(after) <= len(before)


def test_an_empty_list_says_so(client, gm_user):
    game = make_game(gm_user)
    phase_commit(phase=current_phase(game), user=gm_user)
    client.force_login(gm_user)
    html = client.get(reverse("games:phase", args=[game.pk])).content.decode()
    assert '<tr><td colspan="4" class="muted">Nessun invio.</td></tr>' in html
