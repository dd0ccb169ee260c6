"""The GM's submission list drawn in Python (games/submission_rows.py): the same rows the
template drew, escaped as the template escaped, in both languages."""

from __future__ import annotations

import datetime as dt

import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils import timezone, translation

from games.board import submissions_page
from games.models import Submission
from games.phases import current_phase, phase_commit
from games.services import player_substitute
from games.submission_rows import submission_rows_html
from tests.factories import make_game

pytestmark = pytest.mark.django_db

MARKUP = "<b>\"Ev&l'</b>"

# The list as phase.html drew it before (issue 9): the reference the drawn rows must equal.
TEMPLATE_ROWS = """{% load i18n tabula %}
    {% for sub in rows %}
      <tr id="submission-{{ sub.pk }}"{% if sub.superseded_at %} class="superseded"{% endif %}><td>{% if sub.superseded_at %}<s>{{ sub.at|date:"H:i:s" }}</s>{% else %}{{ sub.at|date:"H:i:s" }}{% endif %}</td><td>{{ sub.player.name }}</td>
        <td>{% if sub.superseded_at %}<s>{% endif %}{{ sub.get_kind_display }}{% if sub.slot %} ({{ sub.slot|ability:game.setup }}){% endif %}: {% if sub.target %}{{ sub.target.name }}{% elif sub.fake_role %}{{ sub.fake_role|role:game.setup }}{% else %}—{% endif %}{% if sub.during %} · {{ sub.during|role:game.setup }}{% endif %}{% if sub.abstain %} · {% translate "astensione" %}{% endif %}{% if sub.superseded_at %}</s> <span class="muted">{{ sub.superseded_reason }}</span>{% endif %}</td>
        <td>{% if sub.entered_by %}{{ sub.entered_by }} — {{ sub.reason }}{% else %}{% translate "giocatore" %}{% endif %}{% if not sub.superseded_at %} <a href="{% url 'games:submission_edit' game.pk sub.pk %}">{% translate "Correggi" %}</a>{% endif %}</td></tr>
    {% empty %}<tr><td colspan="4" class="muted">{% translate "Nessun invio." %}</td></tr>{% endfor %}"""  # noqa: E501


@pytest.fixture
def day(gm_user, django_user_model):
    game = make_game(gm_user)
    phase_commit(phase=current_phase(game), user=gm_user)
    day = current_phase(game)
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


def drawn_and_templated(day, language):
    game = day.game
    players = {p.pk: p for p in game.players.all()}
    page = submissions_page(day, 1, Submission.every.filter(phase=day).count())
    models = (Submission.every.filter(phase=day).order_by("-at", "-pk")
              .select_related("player", "target", "entered_by"))  # fmt: skip
    with translation.override(language):
        drawn = submission_rows_html(page, game, players)
        templated = Template(TEMPLATE_ROWS).render(Context({"rows": models, "game": game}))
    return drawn, templated


@pytest.mark.parametrize("language", ["it", "en"])
def test_the_drawn_rows_are_the_templates_rows(day, language):
    drawn, templated = drawn_and_templated(day, language)
    assert templated.split("\n", 1)[1].startswith("    \n      <tr")
    assert "    " + drawn == templated.split("\n", 1)[1]


def test_every_name_and_reason_is_escaped(day):
    drawn, _ = drawn_and_templated(day, "it")
    for raw in (MARKUP, "<i>", "<topic>", "<male>"):
        assert raw not in drawn
    assert "&lt;b&gt;&quot;Ev&amp;l&#x27;&lt;/b&gt;" in drawn
    assert "&lt;i&gt;gm&lt;/i&gt; — dal &lt;topic&gt; &amp; co" in drawn
    assert '<span class="muted">letto &lt;male&gt;</span>' in drawn
    assert "Ruolo da mostrare allo Sciamano (Ruolo da mostrare allo Sciamano)" not in drawn
    assert "Azione (Ruolo da mostrare allo Sciamano): Pastore" in drawn


def test_an_empty_list_says_so(gm_user):
    game = make_game(gm_user)
    with translation.override("en"):
        html = submission_rows_html([], game, {})
    assert html == '<tr><td colspan="4" class="muted">No submissions.</td></tr>'


def test_the_phase_page_shows_the_drawn_rows(client, gm_user, day):
    client.force_login(gm_user)
    html = client.get(reverse("games:phase", args=[day.game_id])).content.decode()
    drawn, _ = drawn_and_templated(day, "it")
    assert drawn in html
