"""A player's vote: the rows it stores, its htmx answer (the page's own vote form, from the
``vote`` partial of games/player.html, names escaped), a fixed number of queries, and the
flood limit counting each player apart."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from games.forms.player import VoteForm
from games.models import AuditEvent, Player, Submission
from games.services.phases import current_phase
from games.services.submissions import vote_cast
from games.views.throttle import parse_rate
from tests.factories import first_day, login_as, make_game

pytestmark = pytest.mark.django_db


def test_the_vote_form_escapes_names(gm_user):
    game = make_game(gm_user)
    phase = current_phase(game)
    hostile = "<b>\"Ev&l'</b>"
    target = Player(pk=1, name=hostile, game=game)
    at = dt.datetime(2026, 3, 1, 21, 5, tzinfo=dt.UTC)
    form = VoteForm(phase, ["Ada", hostile], Submission(target=target, at=at), True)
    html = render_to_string("games/player.html#vote", {"form": form, "vote_saved": "<ok>"})
    assert "<b>" not in html
    assert html.count("&lt;b&gt;&quot;Ev&amp;l&#x27;&lt;/b&gt;") == 3  # value, label, current
    assert '&lt;/b&gt;" selected>' in html
    assert "&lt;ok&gt;" in html
    assert 'name="secret" value="1"' in html


def test_the_player_page_draws_the_same_vote_form(client, gm_user):
    game = make_game(gm_user)
    day = first_day(game, gm_user)
    sheriff, indian = game.players.get(role="sceriffo"), game.players.get(role="indiano")
    login_as(client, sheriff)
    client.post(reverse("player_vote"), {"target": indian.name, "phase": day.pk})
    page = client.get(reverse("player_home")).content.decode()
    answer = client.post(reverse("player_vote"), {"target": indian.name, "phase": day.pk},
                         headers={"HX-Request": "true"}).content.decode()  # fmt: skip
    start = page.index('<form method="post" action="/io/voto/"')
    form = page[start : page.index("</form>", start) + len("</form>")]
    without_token = 'name="csrfmiddlewaretoken" value="'

    def strip(html: str) -> str:  # the token is masked anew on every response
        head, _, rest = html.partition(without_token)
        return re.sub(r"\(\d\d:\d\d(:\d\d)?\)", "(time)", head + rest.partition('"')[2])

    expected = strip(form).replace(
        "\n      \n", '\n      <p class="notice ok" role="status">Voto registrato.</p>\n', 1
    )
    assert strip(answer).strip() == expected


def test_a_vote_stores_the_rows_the_orm_would(client, gm_user):
    """The submission and its audit event, every field as the vote stores it."""
    game = make_game(gm_user)
    day = first_day(game, gm_user)
    sheriff, indian = game.players.get(role="sceriffo"), game.players.get(role="indiano")
    login_as(client, sheriff)
    before = dt.datetime.now(dt.UTC)
    client.post(reverse("player_vote"), {"target": indian.name, "phase": day.pk})
    vote = Submission.objects.get(phase=day, player=sheriff)
    assert (vote.kind, vote.target, vote.abstain, vote.entered_by, vote.reason) == (
        Submission.Kind.VOTE, indian, False, None, ""
    )  # fmt: skip
    assert (vote.slot, vote.during, vote.fake_role, vote.source, vote.forum_post) == ("",) * 5
    assert (vote.superseded_at, vote.replaces, vote.vision) == (None, None, False)
    assert vote.at <= dt.datetime.now(dt.UTC)  # (the database clock: the test's transaction)
    event = AuditEvent.objects.filter(game=game, kind="vote").get()
    assert (event.player, event.user) == (sheriff, None)
    assert event.detail == {"phase": "D1", "secret": False, "target": indian.name, "reason": ""}
    assert before - dt.timedelta(seconds=5) <= event.at <= dt.datetime.now(dt.UTC)
    withdrawn = vote_cast(phase=day, player=sheriff, target=None)
    assert Submission.objects.get(pk=withdrawn.pk).target is None


def test_rates_read_as_before():
    assert parse_rate("10/m") == (10, 60)
    assert parse_rate("20/10m") == (20, 600)
    assert parse_rate("1000000/m") == (1000000, 60)
    assert parse_rate("3/s") == (3, 1)
    assert parse_rate("5/2h") == (5, 7200)


def test_the_flood_limit_counts_each_player_apart_in_a_window(client, gm_user, settings):
    settings.TABULA_SUBMIT_RATE = "2/h"  # an hour: no new window within the test
    game = make_game(gm_user)
    day = first_day(game, gm_user)
    sheriff, indian = game.players.get(role="sceriffo"), game.players.get(role="indiano")
    login_as(client, sheriff)
    vote = {"target": indian.name, "phase": day.pk}
    htmx = {"HX-Request": "true"}
    answers = [client.post(reverse("player_vote"), vote, headers=htmx).content.decode()
               for _ in range(3)]  # fmt: skip
    assert ["Voto registrato." in a for a in answers] == [True, True, False]
    assert "Troppi invii in poco tempo" in answers[2]
    login_as(client, indian)  # another player has his own count
    answer = client.post(reverse("player_vote"), {"target": sheriff.name, "phase": day.pk},
                         headers={"HX-Request": "true"})  # fmt: skip
    assert "Voto registrato." in answer.content.decode()


def test_a_vote_and_its_answer_take_a_fixed_number_of_queries(
    client, gm_user, django_assert_max_num_queries
):
    """No query per player, per vote or per submission: a vote with its htmx answer,
    the session and the flood limit included, stays under a small fixed bound."""
    game = make_game(gm_user)
    day = first_day(game, gm_user)
    sheriff, indian = game.players.get(role="sceriffo"), game.players.get(role="indiano")
    for voter in game.players.exclude(pk=sheriff.pk):
        vote_cast(phase=day, player=voter, target=sheriff)
    login_as(client, sheriff)
    for _ in range(2):  # a first vote and a change
        with django_assert_max_num_queries(15):
            answer = client.post(reverse("player_vote"), {"target": indian.name, "phase": day.pk},
                                 headers={"HX-Request": "true"})  # fmt: skip
        assert "Voto registrato." in answer.content.decode()
    with django_assert_max_num_queries(15):
        response = client.post(reverse("player_vote"), {"target": "", "phase": day.pk})
    assert response.status_code == 302
