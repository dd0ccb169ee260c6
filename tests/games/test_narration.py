"""The GM's own text above and below a generated forum post, kept with the phase
(issue 13 §2: narration is half of a forum game)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import AuditEvent, Phase
from games.services.phases import current_phase, phase_commit
from tests.factories import make_game

pytestmark = pytest.mark.django_db


def test_the_gms_text_frames_the_post_in_every_format(client, gm_user):
    game = make_game(gm_user)
    n0 = current_phase(game)
    phase_commit(phase=n0, user=gm_user)
    client.force_login(gm_user)
    url = reverse("games:narration", args=[game.pk, n0.pk])
    response = client.post(url, {
        "post_before": "Il sole sorge su Tombstone.", "post_after": "[i]Il saloon riapre.[/i]",
    })  # fmt: skip
    assert response.status_code == 302
    n0.refresh_from_db()
    assert (n0.post_before, n0.post_after) == (
        "Il sole sorge su Tombstone.",
        "[i]Il saloon riapre.[/i]",
    )
    html = client.get(reverse("games:posts", args=[game.pk])).content.decode()
    generated = n0.outcome["posts"]["bbcode"]
    assert f"Il sole sorge su Tombstone.\n\n{generated}\n\n[i]Il saloon riapre.[/i]" in html
    assert html.count("Il sole sorge su Tombstone.") == 3  # the form, BBCode and Markdown
    assert AuditEvent.objects.filter(game=game, kind="narration_set").count() == 1
    client.post(url, {"post_before": "Il sole sorge su Tombstone.", "post_after": ""})
    n0.refresh_from_db()
    assert n0.post_after == ""
    page = client.get(reverse("games:posts", args=[game.pk])).content.decode()
    assert "Il saloon riapre." not in page


def test_only_a_resolved_phase_of_ones_own_game_takes_text(client, gm_user, django_user_model):
    game = make_game(gm_user)
    n0 = current_phase(game)
    client.force_login(gm_user)
    url = reverse("games:narration", args=[game.pk, n0.pk])
    assert client.post(url, {"post_before": "x"}).status_code == 404  # not resolved yet
    phase_commit(phase=n0, user=gm_user)
    other = django_user_model.objects.create_user(username="altro", password="pw-altro-1")
    client.force_login(other)
    assert client.post(url, {"post_before": "x"}).status_code == 404
    assert Phase.objects.get(pk=n0.pk).post_before == ""
