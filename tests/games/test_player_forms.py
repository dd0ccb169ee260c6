"""The player's forms: exactly the legal choices, saved and confirmed, forged input refused."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from games.models import Phase, Submission, Will
from games.services.phases import current_phase, phase_commit
from tests.factories import login_as, make_game

pytestmark = pytest.mark.django_db


def test_night_zero_marshal_form_offers_every_living_player(client, gm_user):
    """WWW-R34, WWW-D13: any living player, himself included."""
    game = make_game(gm_user)
    marshal = game.players.get(role="maresciallo")
    login_as(client, marshal)
    html = client.get(reverse("player_home")).content.decode()
    assert "Indaga su" in html
    form = html.split('value="investigate"')[1].split("</form>")[0]
    assert form.count('<option value="') == 16 + 1  # every player, and "choose"
    assert "Notte 0" in html


def test_teacher_has_nothing_to_send_on_night_zero(client, gm_user):
    """WWW-R18."""
    game = make_game(gm_user)
    login_as(client, game.players.get(role="maestrina"))
    html = client.get(reverse("player_home")).content.decode()
    assert "In questa fase non hai nulla da inviare." in html


def test_action_saved_with_htmx_and_without(client, gm_user):
    game = make_game(gm_user)
    marshal = game.players.get(role="maresciallo")
    indian = game.players.get(role="indiano")
    login_as(client, marshal)
    phase = current_phase(game).pk
    plain = client.post(reverse("player_action"),
                        {"slot": "investigate", "target": indian.name, "phase": phase})  # fmt: skip
    assert plain.status_code == 302
    partial = client.post(reverse("player_action"),
                          {"slot": "investigate", "target": marshal.name, "phase": phase},
                          HTTP_HX_REQUEST="true")  # fmt: skip
    html = partial.content.decode()
    assert html.lstrip().startswith('<section id="forms"')
    assert "Scelta salvata" in html
    assert Submission.objects.filter(player=marshal).count() == 2


@pytest.mark.parametrize("forgery", ["other_game", "illegal", "closed"])
def test_forged_or_late_actions_store_nothing(client, gm_user, forgery):
    game = make_game(gm_user)
    teacher = game.players.get(role="maestrina")
    marshal = game.players.get(role="maresciallo")
    actor, target = marshal, "Zed"  # nobody of this game (names are the game's own)
    if forgery == "illegal":
        actor, target = teacher, marshal.name  # WWW-R18: not on N0
    if forgery == "closed":
        target = marshal.name
        Phase.objects.filter(game=game).update(closes_at=dt.datetime(2020, 1, 1, tzinfo=dt.UTC))
    login_as(client, actor)
    response = client.post(reverse("player_action"),
                           {"slot": "investigate", "target": target,
                            "phase": current_phase(game).pk},
                           HTTP_HX_REQUEST="true")  # fmt: skip
    assert 'role="alert"' in response.content.decode()
    assert Submission.objects.count() == 0


def test_day_vote_and_withdrawal(client, gm_user):
    game = make_game(gm_user)
    phase_commit(phase=current_phase(game), user=gm_user)
    sheriff = game.players.get(role="sceriffo")
    indian = game.players.get(role="indiano")
    login_as(client, sheriff)
    html = client.get(reverse("player_home")).content.decode()
    assert "Voto per il rogo" in html
    assert f'<option value="{sheriff.name}"' not in html.split("Voto per il rogo")[1]  # no self
    day = current_phase(game).pk
    client.post(reverse("player_vote"), {"target": indian.name, "phase": day})
    client.post(reverse("player_vote"), {"target": "", "phase": day})
    votes = list(Submission.objects.filter(player=sheriff).values_list("target__name", flat=True))
    assert votes == [indian.name, None]


def test_boia_has_a_secret_vote_form(client, gm_user):
    """INQ-R45."""
    game = make_game(gm_user, setup="inquisizione")
    phase_commit(phase=current_phase(game), user=gm_user)
    boia = game.players.get(role="boia")
    login_as(client, boia)
    html = client.get(reverse("player_home")).content.decode()
    assert "Voto segreto" in html
    wolf = game.players.filter(role="lupo_mannaro").first()
    client.post(reverse("player_vote"),
                {"target": wolf.name, "secret": "1", "phase": current_phase(game).pk})  # fmt: skip
    assert Submission.objects.get(player=boia).kind == Submission.Kind.SECRET_VOTE


def test_will_form_with_word_counter_and_no_will_for_loners(client, gm_user):
    """WWW-R44, WWW-R45."""
    game = make_game(gm_user)
    cowboy = game.players.filter(role="cowboy").first()
    login_as(client, cowboy)
    html = client.get(reverse("player_home")).content.decode()
    assert 'data-word-limit="150"' in html
    client.post(reverse("player_will"), {"text": "Ero un semplice cowboy."})
    assert Will.objects.get(player=cowboy).text == "Ero un semplice cowboy."
    client.logout()
    login_as(client, game.players.get(role="pianista"))
    assert "data-word-limit" not in client.get(reverse("player_home")).content.decode()


def test_no_session_no_forms(client, gm_user):
    make_game(gm_user)
    assert client.post(reverse("player_action"), {"slot": "investigate"}).status_code == 404


def test_night_actions_can_be_sent_during_the_day(client, gm_user):
    """WWW-D26: night-k actions from the start of day k; a player executed that day has
    his action left out at the night's resolution (with the reason shown to the GM)."""
    game = make_game(gm_user)
    phase_commit(phase=current_phase(game), user=gm_user)
    teacher = game.players.get(role="maestrina")
    cowboy = game.players.filter(role="cowboy").first()
    login_as(client, teacher)
    html = client.get(reverse("player_home")).content.decode()
    assert "Accompagna" in html
    assert "(N1)" in html
    night = game.phases.get(label="N1")
    client.post(reverse("player_action"), {"slot": "accompany", "target": cowboy.name,
                                           "phase": night.pk})  # fmt: skip
    assert Submission.objects.get(player=teacher).phase == night
    from games.services.phases import phase_preview
    from games.services.submissions import vote_cast
    from games.text.words import say_dropped

    day = current_phase(game)
    vote_cast(phase=day, player=cowboy, target=teacher)
    phase_commit(phase=day, user=gm_user)
    preview = phase_preview(current_phase(game))
    refused = [say_dropped(line, game.setup) for line in preview.inputs.dropped]
    assert f"N1: {teacher.name} (Maestrina) è morto e non può agire [WWW-D8]" in refused


def test_spent_powers_are_shown_as_used(client, gm_user):
    """WWW-R74: the Sciamano's vision, once per game."""
    from games.services.submissions import action_submit

    game = make_game(gm_user)
    phase_commit(phase=current_phase(game), user=gm_user)
    phase_commit(phase=current_phase(game), user=gm_user)
    shaman = game.players.get(role="sciamano")
    action_submit(phase=current_phase(game), player=shaman,
                  target=game.players.get(role="sceriffo"), vision=True)  # fmt: skip
    phase_commit(phase=current_phase(game), user=gm_user)
    login_as(client, shaman)
    html = client.get(reverse("player_home")).content.decode()
    assert "Già usato: Chiedi agli spiriti il ruolo di" in html


def test_dead_player_waits_for_the_cemetery_until_will_or_deadline(client, gm_user):
    """WWW-R46, WWW-D23: a player executed by day enters the Cemetery once he hands in
    his will, or at 22:30."""
    from games.services.submissions import vote_cast

    game = make_game(gm_user)
    phase_commit(phase=current_phase(game), user=gm_user)
    day = current_phase(game)
    cowboy = game.players.filter(role="cowboy").first()
    vote_cast(phase=day, player=game.players.get(role="sceriffo"), target=cowboy)
    Phase.objects.filter(pk=day.pk).update(closes_at=dt.datetime(2099, 1, 1, 21, tzinfo=dt.UTC))
    phase_commit(phase=day, user=gm_user)
    login_as(client, cowboy)
    html = client.get(reverse("player_home")).content.decode()
    assert "Entrerai nel Cimitero quando consegni il testamento" in html
    assert "22:30" in html
    client.post(reverse("player_will"), {"text": "Addio.", "hand_in": "1"})
    html = client.get(reverse("player_home")).content.decode()
    assert "Puoi accedere al Cimitero." in html


def test_bandito_picks_a_law_phase_and_inquisizione_has_none(client, gm_user):
    """WWW-R57, WWW-R63: the Bandito names the Law phase he acts in."""
    game = make_game(gm_user)
    phase_commit(phase=current_phase(game), user=gm_user)
    login_as(client, game.players.get(role="bandito"))
    html = client.get(reverse("player_home")).content.decode()
    form = html.split('value="recruit"')[1].split("</form>")[0]
    for law in ("pastore", "notaio", "maresciallo", "maestrina"):
        assert f'<option value="{law}"' in form
    client.logout()
    client.force_login(gm_user)
    inq = make_game(gm_user, setup="inquisizione")
    page = client.get(reverse("games:phase", args=[inq.pk])).content.decode()
    assert 'name="during"' not in page
    www = client.get(reverse("games:phase", args=[game.pk])).content.decode()
    assert '<option value="maestrina">' in www
