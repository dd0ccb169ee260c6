"""Issue 9, 300 votes/s: what the vote path does without the ORM and the template engine
writes and answers exactly what they did (the rows, the audit event, the form's HTML), its
shared snapshot is never stale, and the flood limit still counts in one round trip."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.template import engines
from django.urls import reverse
from django.utils import translation

from games.forms_player import VoteForm
from games.models import AuditEvent, Player, Submission
from games.phases import current_phase
from games.submitting import vote_cast
from games.vote_form import vote_form_html
from gm.sessions import SessionStore
from gm.throttle import parse_rate
from tests.factories import make_game
from tests.test_vote_snapshot import day_one, login_as

pytestmark = pytest.mark.django_db

# The vote form as the page's template wrote it before it was drawn in Python (the
# ``vote-form`` partial of games/player.html): the HTML must not change by a byte.
TEMPLATE = """{% load i18n %}
    <form method="post" action="{% url 'player_vote' %}" class="card vote" hx-post="{% url 'player_vote' %}" hx-target="this" hx-swap="outerHTML">{% csrf_token %}
      {% if vote_saved %}<p class="notice ok" role="status">{{ vote_saved }}</p>{% endif %}
      <input type="hidden" name="phase" value="{{ form.phase.pk }}">
      {% if form.secret %}<input type="hidden" name="secret" value="1">{% endif %}
      <label>{% if form.secret %}{% translate "Voto segreto (solo il master lo vede)" %}{% else %}{% translate "Voto per il rogo" %}{% endif %}
        <select name="target">
          <option value="">{% translate "— nessuno (ritira il voto) —" %}</option>
          {% with chosen=form.current.target.name %}{% for name in form.targets %}<option value="{{ name }}"{% if chosen == name %} selected{% endif %}>{{ name }}</option>{% endfor %}{% endwith %}
        </select>
      </label>
      {% if form.secret %}<label class="option"><input type="checkbox" name="abstain" value="1"{% if form.current.abstain %} checked{% endif %}> {% translate "Astieniti in segreto (il voto pubblico non vale)" %}</label>{% endif %}
      {% if form.current %}<p class="muted">{% translate "Voto attuale" %}: {{ form.current.target.name|default:_("nessuno") }} ({{ form.current.at|date:"H:i" }})</p>{% endif %}
      <button type="submit">{% translate "Vota" %}</button>
    </form>"""  # noqa: E501


def test_the_vote_form_is_the_templates_html_byte_for_byte(gm_user):
    game = make_game(gm_user)
    phase = current_phase(game)
    hostile = "<b>\"Ev&l'</b>"
    target = Player(pk=1, name=hostile, game=game)
    names = ["Ada", hostile, "Zoë"]
    at = dt.datetime(2026, 3, 1, 21, 5, tzinfo=dt.UTC)
    template = engines["django"].from_string(TEMPLATE)
    currents = [
        None,
        Submission(target=target, at=at),
        Submission(target=None, at=at, abstain=True),
    ]
    cases = 0
    for language in ("it", "en"):
        with translation.override(language):
            for secret in (False, True):
                for current in currents:
                    for saved in ("", "Voto <registrato>."):
                        for token in ("TOKEN", "", "NOTPROVIDED"):
                            form = VoteForm(phase, names, current, secret)
                            expected = template.render(
                                {"form": form, "vote_saved": saved, "csrf_token": token}
                            )
                            assert vote_form_html(form, token, saved) == expected
                            cases += 1
    assert cases == 72
    assert "&lt;b&gt;&quot;Ev&amp;l&#x27;&lt;/b&gt;" in vote_form_html(form, "t")


def test_the_player_page_draws_the_same_vote_form(client, gm_user):
    game = make_game(gm_user)
    day = day_one(game, gm_user)
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
        return re.sub(r"\(\d\d:\d\d\)", "(time)", head + rest.partition('"')[2])

    expected = strip(form).replace(
        "\n      \n", '\n      <p class="notice ok" role="status">Voto registrato.</p>\n', 1
    )
    assert strip(answer).strip() == expected


def test_a_vote_stores_the_rows_the_orm_would(client, gm_user):
    """The submission and its audit event, written in one statement: every field as
    ``Submission.objects.create`` and ``audit`` wrote them."""
    game = make_game(gm_user)
    day = day_one(game, gm_user)
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
    day = day_one(game, gm_user)
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


def test_a_session_is_verified_once_and_never_shared(settings):
    """The decoded session is kept by its stored text and the signing key: a copy for
    each reader, a tampered text refused, another key refusing the old text."""
    store = SessionStore()
    text = store.encode({"player_id": 7, "groups": ["a"]})
    first, second = SessionStore().decode(text), SessionStore().decode(text)
    assert first == second == {"player_id": 7, "groups": ["a"]}
    first["groups"].append("b")
    first["player_id"] = 8
    assert SessionStore().decode(text) == {"player_id": 7, "groups": ["a"]}
    assert SessionStore().decode(text[:-2] + ("A" if text[-2] != "A" else "B") + text[-1]) == {}
    settings.SECRET_KEY = "another-key-" + "y" * 50
    assert SessionStore().decode(text) == {}
