"""Issue 9, the GM's phase page under a flood of submissions: counts aggregated in SQL,
the submission list a page at a time, and the 20-second refresh sending the board again
only when something changed."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.models import Submission
from games.selectors.board import SUBMISSIONS_PER_PAGE
from games.services.game import player_substitute
from games.services.submissions import vote_cast

pytestmark = pytest.mark.django_db
ROW = re.compile(r'<tr id="submission-(\d+)"')


def flood(day, count):
    """``count`` vote changes, the players in turn, each for the next seat."""
    players = list(day.game.players.order_by("seat"))
    start = timezone.now() - dt.timedelta(hours=1)
    Submission.objects.bulk_create(
        Submission(phase=day, player=players[i % 16], kind=Submission.Kind.VOTE,
                   target=players[(i + 1 + i // 16) % 16], at=start + dt.timedelta(seconds=i))
        for i in range(count)
    )  # fmt: skip


def test_the_list_is_paginated_and_every_submission_is_on_one_page(client, day):
    flood(day, 2 * SUBMISSIONS_PER_PAGE + 7)
    url = reverse("games:phase", args=[day.game_id])
    html = client.get(url).content.decode()
    assert f'data-submissions="{2 * SUBMISSIONS_PER_PAGE + 7}"' in html
    pages = [ROW.findall(html)] + [ROW.findall(client.get(f"{url}?page={n}").content.decode())
                                   for n in (2, 3)]  # fmt: skip
    assert [len(p) for p in pages] == [SUBMISSIONS_PER_PAGE, SUBMISSIONS_PER_PAGE, 7]
    listed = [int(pk) for page in pages for pk in page]
    stored = Submission.objects.filter(phase=day).order_by("-at", "-pk")
    assert listed == list(stored.values_list("pk", flat=True))  # newest first, each once
    assert 'rel="next"' in html
    assert "pagina 1 di 3" in html


def test_the_page_costs_the_same_queries_with_ten_or_five_hundred_submissions(
    client, day, django_capture_on_commit_callbacks
):
    url = reverse("games:phase", args=[day.game_id])
    flood(day, 10)
    with django_capture_on_commit_callbacks(execute=True):
        client.get(url)  # the snapshot is kept
    with CaptureQueriesContext(connection) as few:
        client.get(url)
    flood(day, 490)
    with CaptureQueriesContext(connection) as many:
        html = client.get(url).content.decode()
    assert len(many) == len(few)
    assert 'data-submissions="500"' in html


def test_the_page_reads_the_days_votes_once(client, day, django_capture_on_commit_callbacks):
    """The board and the preview share one read of the phase's submissions (the list reads
    its page of 50, the counts are aggregated in SQL)."""
    flood(day, 300)
    url = reverse("games:phase", args=[day.game_id])
    with django_capture_on_commit_callbacks(execute=True):
        client.get(url)  # the snapshot is kept
    with CaptureQueriesContext(connection) as queries:
        html = client.get(url).content.decode()
    votes = [q["sql"] for q in queries if '"games_submission"."abstain"' in q["sql"]]
    assert len([sql for sql in votes if "LIMIT" not in sql]) == 1, votes
    assert "Totali veri" in html
    assert 'data-submissions="300"' in html


def test_a_second_load_shows_the_same_page_and_a_vote_shows_at_once(client, day):
    """The board, the preview and the post are worked out from every row on each load: a
    reload shows the same page, a new vote is shown at once."""
    flood(day, 300)
    url = reverse("games:phase", args=[day.game_id])
    first = client.get(url).content.decode()
    token = re.compile(r"\b[A-Za-z0-9]{64}\b")  # the CSRF token of each answer
    assert token.sub("", client.get(url).content.decode()) == token.sub("", first)
    sheriff, indian = (day.game.players.get(role=r) for r in ("sceriffo", "indiano"))
    vote_cast(phase=day, player=sheriff, target=indian)
    assert 'data-submissions="301"' in client.get(url).content.decode()


def test_a_flood_of_changes_keeps_the_board_readable(client, day):
    """WWW-D4: changed votes are struck; past the latest ones they are only counted."""
    flood(day, 16 * 40)
    html = client.get(reverse("games:phase", args=[day.game_id])).content.decode()
    tally = html.split("Conteggio voti (pubblico)")[1].split("</ul>")[0]
    assert "voti cambiati prima" in tally
    assert tally.count("<s>") <= 16 * 10


def test_the_refresh_answers_204_until_the_board_changes(client, day):
    url = reverse("games:phase", args=[day.game_id])
    html = client.get(url).content.decode()
    refresh = re.search(r'hx-get="([^"]*part=board[^"]*)"', html).group(1).replace("&amp;", "&")
    unchanged = client.get(refresh, headers={"HX-Request": "true"})
    assert unchanged.status_code == 204
    assert unchanged.content == b""
    sheriff, indian = (day.game.players.get(role=r) for r in ("sceriffo", "indiano"))
    vote_cast(phase=day, player=sheriff, target=indian)
    changed = client.get(refresh, headers={"HX-Request": "true"})
    assert changed.status_code == 200
    board = changed.content.decode()
    assert f"{indian.name} (1)" in board
    fresh = re.search(r'hx-get="([^"]*part=board[^"]*)"', board).group(1).replace("&amp;", "&")
    assert fresh != refresh
    assert client.get(fresh, headers={"HX-Request": "true"}).status_code == 204


def test_a_substitution_sends_the_board_again(client, day, gm_user):
    """A new forum name is shown on the board at the next refresh."""
    url = reverse("games:phase", args=[day.game_id])
    html = client.get(url).content.decode()
    refresh = re.search(r'hx-get="([^"]*part=board[^"]*)"', html).group(1).replace("&amp;", "&")
    player_substitute(player=day.game.players.get(role="sceriffo"), new_name="Nuovo",
                      user=gm_user)  # fmt: skip
    changed = client.get(refresh, headers={"HX-Request": "true"})
    assert changed.status_code == 200
    assert "Nuovo" in changed.content.decode()


def test_the_refresh_with_nothing_new_costs_five_queries(client, day):
    """The session, the user, the game, its phases, and the board's version (the counts,
    the latest audit event and will change: one query)."""
    flood(day, 50)
    url = reverse("games:phase", args=[day.game_id])
    html = client.get(url).content.decode()
    refresh = re.search(r'hx-get="([^"]*part=board[^"]*)"', html).group(1).replace("&amp;", "&")
    with CaptureQueriesContext(connection) as queries:
        assert client.get(refresh, headers={"HX-Request": "true"}).status_code == 204
    assert len(queries) == 5, [q["sql"][:80] for q in queries]
