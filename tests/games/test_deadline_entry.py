"""What a GM may enter on the deadlines' forms (issue 9 finding 1, issue 12: a sensible
deadline, one in the past only confirmed, close now, reopen a closed phase not yet resolved)
and an undo submitted twice (issue 9 finding 7): PostgreSQL, real Redis. The faults the
deadlines survive are in tests/games/test_deadline_faults.py."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from games.models import AuditEvent, Phase
from games.services.deadlines import deadlines_run
from games.services.phases import current_phase, phase_commit, phase_undo
from games.services.submissions import action_submit
from tests.factories import a_night_action, ago, day_one, set_deadline

ROME = ZoneInfo("Europe/Rome")
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("entered", ["0001-01-01T00:00", "9999-12-31T23:59", "1999-01-01T22:00"])
def test_issue9_finding1_a_gm_may_enter_only_a_sensible_deadline(client, gm_user, entered):
    game, day = day_one(gm_user)
    client.force_login(gm_user)
    url = reverse("games:gm_deadline", args=[game.pk])
    response = client.post(url, {"phase": day.pk, "action": "move", "closes_at": entered,
                                 "reason": "prova"}, follow=True)  # fmt: skip
    assert "tra un&#x27;ora fa e 60 giorni" in response.content.decode()
    assert Phase.objects.get(pk=day.pk).closes_at == day.closes_at
    assert client.get(reverse("games:phase", args=[game.pk])).status_code == 200
    assert deadlines_run() == {}


def test_issue12_a_deadline_in_the_past_needs_confirmation_and_close_now(client, gm_user):
    game, day = day_one(gm_user)
    client.force_login(gm_user)
    url = reverse("games:gm_deadline", args=[game.pk])
    past = f"{ago(600).astimezone(ROME):%Y-%m-%dT%H:%M}"
    response = client.post(url, {"phase": day.pk, "action": "move", "closes_at": past,
                                 "reason": "prova"}, follow=True)  # fmt: skip
    assert "la fase si chiuderà subito" in response.content.decode()
    assert Phase.objects.get(pk=day.pk).closes_at == day.closes_at
    client.post(url, {"phase": day.pk, "action": "move", "closes_at": past, "reason": "prova",
                      "confirm_past": "1"})  # fmt: skip
    assert deadlines_run() == {"committed": 1}
    night = current_phase(game)
    client.post(url, {"phase": night.pk, "action": "close_now", "reason": "tutti hanno agito"})
    assert deadlines_run() == {"closed": 1}


# Issue 9 finding 7: a double-submitted undo took back two commits.


def test_issue9_finding7_a_double_submitted_undo_takes_back_one_commit(client, gm_user):
    game, day = day_one(gm_user)
    phase_commit(phase=day, user=gm_user)  # N0 and D1 committed
    client.force_login(gm_user)
    url = reverse("games:gm_undo", args=[game.pk])
    client.post(url, {"phase": day.pk, "players": "1", "confirm": "1"})
    response = client.post(url, {"phase": day.pk, "players": "1", "confirm": "1"}, follow=True)
    assert "già stata annullata" in response.content.decode()
    statuses = dict(game.phases.values_list("label", "status"))
    assert statuses == {"N0": "committed", "D1": "open", "N1": "open"}
    assert AuditEvent.objects.filter(game=game, kind="undo").count() == 1
    with pytest.raises(ValidationError):
        phase_undo(game=game, user=gm_user, phase_id=day.pk)


def test_issue12_a_closed_phase_not_yet_resolved_can_be_reopened(client, gm_user):
    game, day = day_one(gm_user)
    set_deadline(day, ago(2))
    assert deadlines_run() == {"committed": 1}
    night = current_phase(game)
    set_deadline(night, ago(1))
    assert deadlines_run() == {"closed": 1}  # waiting for the GM's preview
    client.force_login(gm_user)
    url = reverse("games:gm_deadline", args=[game.pk])
    page = client.get(reverse("games:phase", args=[game.pk])).content.decode()
    assert "Riapri con una nuova scadenza" in page
    later = (timezone.now() + dt.timedelta(hours=2)).astimezone(ROME)
    response = client.post(url, {"phase": night.pk, "action": "reopen", "reason": "ritardo",
                                 "closes_at": f"{later:%Y-%m-%dT%H:%M}"}, follow=True)  # fmt: skip
    assert "N1 riaperta." in response.content.decode()
    night.refresh_from_db()
    assert night.status == Phase.Status.OPEN
    assert night.closes_at == later.replace(second=0, microsecond=0)
    wolf, target = a_night_action(game, night)
    action_submit(phase=night, player=wolf, target=target)
    response = client.post(url, {"phase": night.pk, "action": "reopen", "reason": "x",
                                 "closes_at": f"{later:%Y-%m-%dT%H:%M}"}, follow=True)  # fmt: skip
    assert "solo una fase chiusa" in response.content.decode()
