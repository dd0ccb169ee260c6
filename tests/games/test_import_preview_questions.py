"""Issue 31 minor: "Import preview: an already imported vote still asks "Chi è «zef»?";
"fuori fase (03/12 18:25 – 03/12 18:26)" shows a window nobody can read." A post read
before asks nothing again and shows the vote it stored; a post outside the phase says when
it was written and what it missed, in the one date style, in both languages."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from games.models import Phase, Submission
from games.services.topic_preview import ALREADY, LATE, OUTSIDE, topic_import_preview
from games.services.topic_votes import topic_import_save
from tests.games.topic_tools import page, player, thread_day

pytestmark = pytest.mark.django_db
ROME = ZoneInfo("Europe/Rome")


def test_a_vote_imported_before_asks_nothing_again(gm_user, client):
    game, day = thread_day(gm_user, from_topic=False, deadline_ago=dt.timedelta(minutes=-60))
    posted = timezone.now() - dt.timedelta(minutes=30)
    text = page(("Sam", posted, "Voto zef"))
    (row,) = topic_import_preview(phase=day, text=text).rows
    assert row.target_choices  # "Chi è «zef»?": the GM says Gino
    decisions = {f"t{row.key[:12]}": str(player(game, "Gino").seat)}
    topic_import_save(phase=day, text=text, fmt="", decisions=decisions, user=gm_user)
    assert Submission.objects.get().target == player(game, "Gino")

    (again,) = topic_import_preview(phase=day, text=text).rows
    assert again.status == ALREADY
    assert again.target_choices == []
    assert again.voter_choices == []
    assert again.target == player(game, "Gino")  # the vote it stored
    client.force_login(gm_user)
    html = client.post(reverse("games:topic_import", args=[game.pk]),
                       {"text": text, "action": "preview"}).content.decode()  # fmt: skip
    assert "Chi è «zef»?" not in html
    assert "<strong>già importato</strong>: Gino" in html
    assert f'name="t{row.key[:12]}"' not in html


@pytest.fixture
def evening_day(gm_user):
    """The issue's Day 1: opened Thursday 3 December 2026 at 18:26, deadline 22:00."""
    game, day = thread_day(gm_user, from_topic=False)
    Phase.objects.filter(pk=day.pk).update(
        opened_at=dt.datetime(2026, 12, 3, 18, 26, tzinfo=ROME),
        closes_at=dt.datetime(2026, 12, 3, 22, 0, tzinfo=ROME),
    )
    day.refresh_from_db()
    return game, day


def _notes(day) -> dict[str, tuple[str, str]]:
    text = page(
        ("Sam", dt.datetime(2026, 12, 3, 18, 25, tzinfo=ROME), "Voto zef"),
        ("Pao", dt.datetime(2026, 12, 2, 23, 50, tzinfo=ROME), "Voto Gino"),
        ("Vito", dt.datetime(2026, 12, 3, 22, 5, tzinfo=ROME), "Voto Gino"),
        ("Mia", dt.datetime(2026, 12, 4, 9, 0, tzinfo=ROME), "Voto Gino"),
    )
    now = dt.datetime(2026, 12, 3, 23, 0, tzinfo=ROME)
    rows = topic_import_preview(phase=day, text=text, now=now).rows
    return {r.post.author: (r.status, r.note, bool(r.target_choices)) for r in rows}


def test_outside_the_phase_reads_as_a_sentence_in_the_one_date_style(evening_day):
    _game, day = evening_day
    notes = _notes(day)
    assert notes["Sam"] == (OUTSIDE, "scritto giovedì 3 dicembre, ore 18:25, prima "
                            "dell'apertura del Giorno 1 (ore 18:26)", False)  # fmt: skip
    assert notes["Pao"][1] == ("scritto mercoledì 2 dicembre, ore 23:50, prima dell'apertura "
                               "del Giorno 1 (giovedì 3 dicembre, ore 18:26)")  # fmt: skip
    assert notes["Vito"][:2] == (LATE, "scritto giovedì 3 dicembre, ore 22:05, dopo la "
                                 "scadenza (ore 22:00): non conta")  # fmt: skip
    assert notes["Mia"][0] == OUTSIDE
    assert notes["Mia"][1].startswith("scritto venerdì 4 dicembre, ore 09:00, più tardi di")
    assert "–" not in "".join(note for _status, note, _ask in notes.values())


def test_outside_the_phase_in_english(evening_day):
    _game, day = evening_day
    with translation.override("en"):
        notes = _notes(day)
    assert notes["Sam"][1] == ("written Thursday 3 December, 18:25, before Day 1 opened "
                               "(18:26)")  # fmt: skip
    assert notes["Vito"][1] == ("written Thursday 3 December, 22:05, after the deadline "
                                "(22:00): it does not count")  # fmt: skip
    assert notes["Mia"][1].startswith("written Friday 4 December, 09:00, later than now")
