"""The GM's phase page: who acted, the vote count, entries on a player's behalf, preview,
commit exactly once, undo, and the posts."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.models import AuditEvent, Phase, Submission
from games.services.phases import current_phase, phase_commit
from games.services.submissions import action_submit, vote_cast
from tests.factories import make_game

ROME = ZoneInfo("Europe/Rome")

pytestmark = pytest.mark.django_db


def test_night_zero_board_and_preview(gm, gm_user):
    game = make_game(gm_user)
    marshal = game.players.get(role="maresciallo")
    action_submit(
        phase=current_phase(game), player=marshal, target=game.players.get(role="sceriffo")
    )
    html = gm.get(reverse("games:phase", args=[game.pk])).content.decode()
    assert "Notte 0" in html
    waiting = html.split("Chi deve ancora agire")[1].split("</p>")[0]
    assert game.players.get(role="pianista").name in waiting  # WWW-R18: he must still choose
    assert marshal.name not in waiting
    sheriff = game.players.get(role="sceriffo").name
    assert f"{marshal.name}: {sheriff} è Americano." in html  # the preview's private result
    assert "[b]Alba del Giorno 1.[/b]" in html


def test_the_packs_choice_counts_for_every_indian_on_the_board(gm, gm_user):
    """WWW-R77, WWW-D19: one shared slot for the pack, so once an Indian sent the kill
    no Indian is still waiting for it."""
    game = make_game(gm_user)
    phase_commit(phase=current_phase(game), user=gm_user)
    phase_commit(phase=current_phase(game), user=gm_user)  # D1, nobody voted
    night = current_phase(game)
    assert night.label == "N1"
    chief = game.players.get(role="capo_indiano")
    action_submit(phase=night, player=chief, target=game.players.filter(role="cowboy").first())
    html = gm.get(reverse("games:phase", args=[game.pk])).content.decode()
    waiting = html.split("Chi deve ancora agire")[1].split("</p>")[0]
    for role in ("capo_indiano", "sciamano", "indiano"):
        assert game.players.get(role=role).name not in waiting
    assert game.players.get(role="maresciallo").name in waiting


def test_gm_vote_entry_needs_a_reason_and_keeps_the_forum_time(gm, gm_user):
    game = make_game(gm_user)
    phase_commit(phase=current_phase(game), user=gm_user)
    day = current_phase(game)
    day.opened_at -= dt.timedelta(hours=10)
    day.save(update_fields=["opened_at"])
    posted = (timezone.now() - dt.timedelta(minutes=13)).astimezone(ROME).strftime("%H:%M")
    voter, target = game.players.get(role="sceriffo"), game.players.get(role="indiano")
    url = reverse("games:gm_vote", args=[game.pk])
    gm.post(url, {"voter": voter.pk, "target": target.pk, "at": posted})
    assert Submission.objects.count() == 0
    gm.post(url, {"voter": voter.pk, "target": target.pk, "at": posted, "reason": "post #312"})
    vote = Submission.objects.get()
    assert (vote.phase, vote.entered_by, vote.reason) == (day, gm_user, "post #312")
    assert vote.at.astimezone(ROME).strftime("%H:%M") == posted
    html = gm.get(reverse("games:phase", args=[game.pk])).content.decode()
    assert f"<strong>{target.name} (1)</strong>" in html
    assert AuditEvent.objects.filter(kind="vote", user=gm_user).exists()


def test_vote_count_strikes_changed_votes(gm, gm_user):
    game = make_game(gm_user)
    phase_commit(phase=current_phase(game), user=gm_user)
    day = current_phase(game)
    a, b, c = game.players.filter(role="cowboy")
    vote_cast(phase=day, player=a, target=b)
    vote_cast(phase=day, player=a, target=c)
    html = gm.get(reverse("games:phase", args=[game.pk])).content.decode()
    assert f"<s>{a.name}" in html
    assert f"<strong>{c.name} (1)</strong>" in html
    assert f"<strong>{b.name} (0)</strong>" in html


def test_commit_once_even_when_posted_twice(gm, gm_user):
    game = make_game(gm_user)
    phase = current_phase(game)
    url = reverse("games:gm_commit", args=[game.pk])
    gm.post(url, {"phase": phase.pk})
    second = gm.post(url, {"phase": phase.pk}, follow=True)
    assert "già stata risolta" in second.content.decode()
    assert list(game.phases.values_list("label", "status")) == [
        ("N0", Phase.Status.COMMITTED), ("D1", Phase.Status.OPEN), ("N1", Phase.Status.OPEN),
    ]  # fmt: skip
    assert AuditEvent.objects.filter(kind="commit").count() == 1


def test_posts_page_has_bbcode_and_markdown(gm, gm_user):
    game = make_game(gm_user)
    phase_commit(phase=current_phase(game), user=gm_user)
    day = current_phase(game)
    voter, target = game.players.get(role="sceriffo"), game.players.get(role="indiano")
    vote_cast(phase=day, player=voter, target=target)
    phase_commit(phase=day, user=gm_user)
    html = gm.get(reverse("games:posts", args=[game.pk])).content.decode()
    assert f"[b]Il villaggio giustizia {target.name}.[/b]" in html
    assert f"**Il villaggio giustizia {target.name}.**" in html
    assert f"{target.name} (1): {voter.name} (" in html
    assert "Consegna dei poteri entro" in html
    assert "Indiano" not in html.split("Annunci da incollare")[1]  # no role on death


def test_undo_from_the_page(gm, gm_user):
    game = make_game(gm_user)
    night = current_phase(game)
    phase_commit(phase=night, user=gm_user)
    asked = gm.post(reverse("games:gm_undo", args=[game.pk]), {"phase": night.pk})
    assert current_phase(game).label == "D1"  # issue 12 §3: not without a confirmation
    page = gm.get(asked["Location"]).content.decode()
    assert "Sì, annulla la risoluzione di Notte 0" in page
    gm.post(reverse("games:gm_undo", args=[game.pk]), {"phase": night.pk, "confirm": "1"})
    assert current_phase(game).label == "N0"


def test_another_gms_game_is_404(client, gm_user, django_user_model):
    other = django_user_model.objects.create_user(username="altro", password="pw-altro-1")
    game = make_game(other)
    client.force_login(gm_user)
    assert client.get(reverse("games:phase", args=[game.pk])).status_code == 404
    response = client.post(reverse("games:gm_commit", args=[game.pk]), {"phase": "1"})
    assert response.status_code == 404


def test_phase_page_query_count_does_not_grow_with_players(gm, gm_user):
    counts = []
    for setup in ("wild-west-wolf", "inquisizione", "classic-village"):
        game = make_game(gm_user, setup=setup)
        phase_commit(phase=current_phase(game), user=gm_user)
        with CaptureQueriesContext(connection) as queries:
            assert gm.get(reverse("games:phase", args=[game.pk])).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1] == counts[2]


def test_board_refreshes_by_itself_with_htmx(gm, gm_user):
    game = make_game(gm_user)
    phase_commit(phase=current_phase(game), user=gm_user)
    html = gm.get(reverse("games:phase", args=[game.pk])).content.decode()
    assert 'hx-trigger="every 20s"' in html
    part = gm.get(reverse("games:phase", args=[game.pk]) + "?part=board", HTTP_HX_REQUEST="true")
    text = part.content.decode()
    assert text.lstrip().startswith('<div class="columns" id="board"')
    assert "Promemoria da incollare" in text


def test_tie_break_shows_each_decisive_vote(gm, gm_user):
    """WWW-R10, WWW-D5: the GM sees which vote made each total."""
    game = make_game(gm_user)
    phase_commit(phase=current_phase(game), user=gm_user)
    day = current_phase(game)
    a, b, c = game.players.filter(role="cowboy")
    vote_cast(phase=day, player=a, target=b)
    vote_cast(phase=day, player=b, target=c)
    html = gm.get(reverse("games:phase", args=[game.pk])).content.decode()
    assert f"voto decisivo: {a.name}" in html
    assert f"voto decisivo: {b.name}" in html
    assert f"Ora verrebbe giustiziato {b.name}" in html  # his decisive vote came first


def test_the_night_reminder_names_everyone_alive_and_optional_powers_are_not_owed(gm, gm_user):
    """Issue 12 §4: the pasteable night reminder never outs a power (one @ for every living
    player and the deadline); who still owes a choice is the GM's alone; a once-per-game power
    (WWW-R57, WWW-R61) may be kept, so it is not owed."""
    game = make_game(gm_user)
    phase_commit(phase=current_phase(game), user=gm_user)
    phase_commit(phase=current_phase(game), user=gm_user)  # D1, nobody voted
    assert current_phase(game).label == "N1"
    html = gm.get(reverse("games:phase", args=[game.pk])).content.decode()
    reminder = html.split('id="reminder">')[1].split("</textarea>")[0]
    mentioned = {word[1:] for word in reminder.split() if word.startswith("@")}
    assert mentioned == set(game.players.values_list("name", flat=True))
    assert "Promemoria: la notte finisce" in reminder
    owed = html.split('id="owed">')[1].split("</p>")[0]
    assert game.players.get(role="maresciallo").name in owed
    for role in ("bandito", "pistolero"):
        assert game.players.get(role=role).name not in owed
        assert game.players.get(role=role).name in html.split("potere facoltativo")[1]
