"""Issue 9, #5: a GM is an ordinary user (no staff, no superuser): the admin belongs to an
operator account created on purpose; GM login is throttled by django-axes; every GM URL
answers 404 with another GM's ids."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.urls import URLPattern, URLResolver, reverse

from games import urls as game_urls
from games.models import AuditEvent, Phase, Player, Submission
from games.services.phases import current_phase, phase_commit
from games.services.submissions import vote_cast
from tests.conftest import ROOT
from tests.factories import make_game

pytestmark = pytest.mark.django_db


def test_5_the_gm_account_is_not_staff_and_an_old_superuser_gm_is_demoted(
    monkeypatch, django_user_model
):
    monkeypatch.setenv("TABULA_GM_PASSWORD", "pw-demo-123")
    call_command("ensure_gm")
    gm = django_user_model.objects.get(username="gm")
    assert not gm.is_staff
    assert not gm.is_superuser
    gm.is_staff = gm.is_superuser = True  # as the previous version made it
    gm.save()
    call_command("ensure_gm")
    gm.refresh_from_db()
    assert not gm.is_staff
    assert not gm.is_superuser


def test_5_a_gm_cannot_open_the_admin_but_the_operator_can(client, gm_user, django_user_model):
    other = django_user_model.objects.create_user(username="altro", password="pw-altro-1")
    game = make_game(other)
    client.force_login(gm_user)
    for url in ("/admin/", "/admin/games/game/", f"/admin/games/game/{game.pk}/change/"):
        response = client.get(url)
        assert response.status_code == 302, url
        assert response.url.startswith("/admin/login/")
    operator = django_user_model.objects.create_superuser("operatore", "", "pw-operatore-1")
    client.force_login(operator)
    assert client.get(f"/admin/games/game/{game.pk}/change/").status_code == 200


def test_5_django_axes_is_locked_in_the_requirements():
    for lock in ("base.lock", "dev.lock"):
        text = (ROOT / "requirements" / lock).read_text()
        assert "django-axes==" in text
        assert "django-csp==" in text


def login(client, password, **extra):
    return client.post(reverse("login"), {"username": "master", "password": password}, **extra)


def test_5_gm_login_is_throttled(client, gm_user, settings):
    settings.AXES_FAILURE_LIMIT = 3
    settings.TRUSTED_PROXY_COUNT = 1
    attacker = {"REMOTE_ADDR": "10.0.0.2", "HTTP_X_FORWARDED_FOR": "203.0.113.9"}
    codes = [login(client, f"guess-{i}", **attacker).status_code for i in range(4)]
    assert codes[:2] == [200, 200]  # the form with its error
    assert codes[-1] == 429
    locked = login(client, "pw-master-1", **attacker)  # even the right password, for now
    assert locked.status_code == 429
    assert "Troppi tentativi di accesso" in locked.content.decode()
    gm = {"REMOTE_ADDR": "10.0.0.2", "HTTP_X_FORWARDED_FOR": "198.51.100.7"}
    assert login(client, "pw-master-1", **gm).status_code == 302  # the GM, behind the proxy


def _id_patterns() -> list[tuple[str, URLPattern]]:
    found = []
    for pattern in game_urls.urlpatterns:
        assert not isinstance(pattern, URLResolver)
        if pattern.pattern.converters:
            found.append((f"{game_urls.app_name}:{pattern.name}", pattern))
    return found


def test_5_every_gm_url_answers_404_with_another_gms_ids(client, gm_user, django_user_model):
    """Walks the URLconf: every GM URL that takes an id, with another GM's game and player
    ids (and my game with his player), by GET and POST: 404 (or 405 for the wrong method),
    never a page, a redirect or an error, and nothing changes."""
    other = django_user_model.objects.create_user(username="altro", password="pw-altro-1")
    theirs = make_game(other)
    phase_commit(phase=current_phase(theirs), user=other)  # something to undo, a day running
    mine = make_game(gm_user)
    their_player = theirs.players.first()
    their_vote = vote_cast(phase=current_phase(theirs), player=their_player,
                           target=theirs.players.last())  # to correct (issue 12 §3)  # fmt: skip
    client.force_login(gm_user)
    patterns = _id_patterns()
    assert len(patterns) >= 13
    before = (Submission.objects.count(), AuditEvent.objects.count(),
              list(Phase.objects.values_list("pk", "status")),
              list(Player.objects.values_list("pk", "name", "token_hash")))  # fmt: skip
    data = {"voter": their_player.pk, "actor": their_player.pk, "player": their_player.pk,
            "target": their_player.pk, "reason": "prova", "kind": "spare",
            "phase": current_phase(theirs).pk, "name": "Intruso", "action": "pause",
            "vote_close_time": "20:00", "day_close_time": "20:15",
            "powers_close_time": "20:30"}  # fmt: skip
    for name, pattern in patterns:
        converters = set(pattern.pattern.converters)
        variants = [{"pk": theirs.pk}]
        if "phase_pk" in converters:
            their_phase = theirs.phases.order_by("index").first().pk
            variants = [{"pk": theirs.pk, "phase_pk": their_phase},
                        {"pk": mine.pk, "phase_pk": their_phase}]  # fmt: skip
        if "sub_pk" in converters:
            variants = [{"pk": theirs.pk, "sub_pk": their_vote.pk},
                        {"pk": mine.pk, "sub_pk": their_vote.pk}]  # fmt: skip
        if "player_pk" in converters:
            variants = [{"pk": theirs.pk, "player_pk": their_player.pk},
                        {"pk": mine.pk, "player_pk": their_player.pk}]  # fmt: skip
        for kwargs in variants:
            url = reverse(name, kwargs=kwargs)
            codes = {client.get(url).status_code, client.post(url, data).status_code}
            assert codes <= {404, 405}, (url, codes)
            assert 404 in codes, url
    after = (Submission.objects.count(), AuditEvent.objects.count(),
             list(Phase.objects.values_list("pk", "status")),
             list(Player.objects.values_list("pk", "name", "token_hash")))  # fmt: skip
    assert after == before
