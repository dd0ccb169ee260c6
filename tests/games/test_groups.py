"""Group choices and void choices, before the deadline (issue 12 §4): each member of a
group sees the group's choice and who set it; the GM sees a disagreement and which choice
the resolution would use; a choice whose target died is flagged to its player and to the
GM, not dropped silently at dawn."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Phase, Will
from games.services.game import player_link_issue
from games.services.phases import current_phase, phase_commit, phase_preview
from games.services.submissions import action_submit, vote_cast, will_save
from tests.factories import make_game, night_one

pytestmark = pytest.mark.django_db


def page_of(client, player) -> str:
    client.get(reverse("player_enter", args=[player_link_issue(player=player)]))
    return client.get(reverse("player_home")).content.decode()


def gm_phase(client, gm_user, game) -> str:
    client.force_login(gm_user)
    return client.get(reverse("games:phase", args=[game.pk])).content.decode()


def test_the_forms_sent_back_after_a_choice_show_the_group_choice(client, gm_user):
    """The htmx answer to a submission (the forms alone) shows the group's choice too."""
    game = make_game(gm_user)
    night = night_one(game, gm_user)
    capo, indiano = game.players.get(role="capo_indiano"), game.players.get(role="indiano")
    victim = game.players.filter(role="cowboy").first()
    action_submit(phase=night, player=capo, target=victim)
    page_of(client, indiano)
    response = client.post(
        reverse("player_action"),
        {"slot": "pack_kill", "phase": night.pk, "target": victim.name},
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert "Scelta salvata" in html
    assert f'{victim.name} <span class="muted">(di {indiano.name}, alle' in html


def test_indians_see_the_attack_chosen_by_another_indian(client, gm_user):
    """WWW-R77, WWW-D19: one shared slot; every Indian sees it and who set it."""
    game = make_game(gm_user)
    night = night_one(game, gm_user)
    capo, indiano = game.players.get(role="capo_indiano"), game.players.get(role="indiano")
    victim = game.players.filter(role="cowboy").first()
    action_submit(phase=night, player=capo, target=victim)
    html = page_of(client, indiano)
    assert "Scelta del gruppo" in html
    assert f'{victim.name} <span class="muted">(di {capo.name}, alle' in html
    assert "ci sono scelte diverse" not in html
    assert "La scelta è comune a:" in html


def test_disagreement_is_shown_to_the_gm_and_the_members_with_the_choice_that_counts(
    client, gm_user
):
    """WWW-D19: the latest submission counts; the GM is warned before the deadline."""
    game = make_game(gm_user)
    night = night_one(game, gm_user)
    capo, indiano = game.players.get(role="capo_indiano"), game.players.get(role="indiano")
    first, second = game.players.filter(role="cowboy").order_by("seat")[:2]
    action_submit(phase=night, player=capo, target=first)
    action_submit(phase=night, player=indiano, target=second)
    html = page_of(client, capo)
    assert "Nel gruppo ci sono scelte diverse: conta l'ultima inviata." in html
    assert f'{second.name} <span class="muted">(di {indiano.name}' in html
    board = gm_phase(client, gm_user, game)
    assert 'data-disagreement="pack_kill"' in board
    assert f"{capo.name} → {first.name}, {indiano.name} → {second.name}" in board
    assert f"Alla risoluzione conta l'ultima scelta inviata: {second.name}." in board
    # the resolution agrees: the latest choice is the one attacked
    deaths = [d.player for d in phase_preview(night).outcome.deaths]
    assert deaths == [second.name]


def test_no_disagreement_when_the_members_agree(client, gm_user):
    game = make_game(gm_user)
    night = night_one(game, gm_user)
    victim = game.players.filter(role="cowboy").first()
    for role in ("capo_indiano", "indiano"):
        action_submit(phase=night, player=game.players.get(role=role), target=victim)
    board = gm_phase(client, gm_user, game)
    assert "data-disagreement" not in board
    assert 'data-group-choice="pack_kill"' in board


def test_twin_guards_share_the_protection(client, gm_user):
    """INQ-R35, INQ-D11: either Guard sets the pair's protection; the other sees it."""
    game = make_game(gm_user, setup="inquisizione", seed=9)
    night = night_one(game, gm_user)
    first, second = game.players.filter(role="guardia_gemella").order_by("seat")
    farmer = game.players.filter(role="contadino").first()
    action_submit(phase=night, player=first, target=farmer)
    html = page_of(client, second)
    assert f'{farmer.name} <span class="muted">(di {first.name}' in html
    wolf_html = page_of(client, game.players.filter(role="lupo_mannaro").first())
    assert farmer.name + " <span" not in wolf_html  # not a member: nothing of the Guards'


def test_a_target_executed_by_day_is_flagged_before_the_night_deadline(client, gm_user):
    """WWW-D26: night actions are sent from the start of the day; WWW-R36 and WWW-D15:
    the Maestrina cannot accompany a dead player, so her choice would be dropped."""
    game = make_game(gm_user)
    phase_commit(phase=current_phase(game), user=gm_user)  # N0
    day = current_phase(game)
    night = game.phases.get(label="N1")
    maestrina = game.players.get(role="maestrina")
    doomed = game.players.filter(role="cowboy").first()
    action_submit(phase=night, player=maestrina, target=doomed)  # sent by day
    assert "scegli di nuovo" not in page_of(client, maestrina)
    vote_cast(phase=day, player=game.players.get(role="sceriffo"), target=doomed)
    phase_commit(phase=day, user=gm_user)  # D1: the cowboy is executed
    html = page_of(client, maestrina)
    assert f"Il tuo bersaglio {doomed.name} è morto: scegli di nuovo." in html
    board = gm_phase(client, gm_user, game)
    assert 'id="void-choices"' in board
    assert f"{maestrina.name} — Accompagna (N1) → {doomed.name}: {doomed.name} è morto" in board
    # she chooses again: the flag goes
    other = game.players.filter(role="cowboy").exclude(pk=doomed.pk).first()
    action_submit(phase=night, player=maestrina, target=other)
    assert "scegli di nuovo" not in page_of(client, maestrina)
    assert 'id="void-choices"' not in gm_phase(client, gm_user, game)


def test_a_dead_target_of_the_pack_is_flagged_and_the_group_choice_falls_back(client, gm_user):
    """WWW-D19: the Indians' choice on a player executed that day is dropped; the earlier
    standing choice of another Indian is the one the resolution uses."""
    game = make_game(gm_user)
    phase_commit(phase=current_phase(game), user=gm_user)  # N0
    day, night = current_phase(game), game.phases.get(label="N1")
    capo, indiano = game.players.get(role="capo_indiano"), game.players.get(role="indiano")
    kept, doomed = game.players.filter(role="cowboy").order_by("seat")[:2]
    action_submit(phase=night, player=capo, target=kept)
    action_submit(phase=night, player=indiano, target=doomed)
    vote_cast(phase=day, player=game.players.get(role="sceriffo"), target=doomed)
    phase_commit(phase=day, user=gm_user)
    html = page_of(client, indiano)
    assert f"Il tuo bersaglio {doomed.name} è morto: scegli di nuovo." in html
    assert f'{kept.name} <span class="muted">(di {capo.name}' in html
    assert "non vale più" in html
    deaths = [d.player for d in phase_preview(current_phase(game)).outcome.deaths]
    assert deaths == [kept.name]


def sheet(client, gm_user, game) -> str:
    client.force_login(gm_user)
    return client.get(reverse("games:detail", args=[game.pk])).content.decode()


def test_sheet_shows_the_dead_and_the_groups_as_they_are_now(client, gm_user):
    """WWW-R6, WWW-D25: a dead Indian leaves the Indians' chat; WWW-R46, WWW-D23: the dead
    enter the Cemetery once they hand in their will, or at its deadline (22:30 for a day
    death, noon for a night death)."""
    game = make_game(gm_user)
    phase_commit(phase=current_phase(game), user=gm_user)  # N0
    html = sheet(client, gm_user, game)
    assert "Gruppi privati sul forum, come devono essere ora" in html
    assert "Da togliere" not in html
    indiano = game.players.get(role="indiano")
    vote_cast(phase=current_phase(game), player=game.players.get(role="sceriffo"), target=indiano)
    phase_commit(phase=current_phase(game), user=gm_user)  # D1: the Indian is executed
    victim = game.players.filter(role="cowboy").first()
    action_submit(phase=current_phase(game), player=game.players.get(role="capo_indiano"),
                  target=victim)  # fmt: skip
    phase_commit(phase=current_phase(game), user=gm_user)  # N1: the cowboy dies
    # the will deadlines fall on D1 (22:30) and D2 (noon): both days a week from now
    Phase.objects.filter(game=game).update(closes_at=timezone.now() + dt.timedelta(days=7))
    html = sheet(client, gm_user, game)
    dead = html[html.index('id="dead"') :]
    assert f"<td>{indiano.name}</td><td>Indiano</td><td>Giorno 1</td><td>giustiziato</td>" in dead
    assert (
        f"<td>{victim.name}</td><td>Cowboy</td><td>Notte 1</td><td>attaccato dagli Indiani</td>"
        in dead
    )
    indians = html[html.index('data-group="indiani"') :]
    indians = indians[: indians.index("</li>")]
    assert f"Da togliere dal gruppo: {indiano.name} (dalla fine di Giorno 1)" in indians
    assert indiano.name not in indians[: indians.index("Da togliere")]
    cemetery = html[html.index('data-group="cimitero"') :]
    cemetery = cemetery[: cemetery.index("</li>")]
    # neither will deadline has passed: both wait, until one hands in his will
    assert "Nel Cimitero ora: —" in cemetery
    assert f"{indiano.name}, quando consegna il testamento o al più tardi" in cemetery
    assert f"{victim.name}, quando consegna il testamento o al più tardi" in cemetery
    will_save(player=victim, text="Addio.")
    Will.objects.filter(player=victim).update(handed_in_at=timezone.now())
    cemetery = sheet(client, gm_user, game)
    cemetery = cemetery[cemetery.index('data-group="cimitero"') :]
    cemetery = cemetery[: cemetery.index("</li>")]
    assert f"Nel Cimitero ora: {victim.name}" in cemetery
    assert f"{indiano.name}, quando consegna" in cemetery
    # once the deadline has passed he is in, will or not
    Phase.objects.filter(game=game, label="D1").update(
        closes_at=timezone.now() - dt.timedelta(days=2)
    )
    cemetery = sheet(client, gm_user, game)
    cemetery = cemetery[cemetery.index('data-group="cimitero"') :]
    cemetery = cemetery[: cemetery.index("</li>")]
    assert "Da aggiungere" not in cemetery


def test_inquisizione_sheet_lets_the_dead_in_at_once_and_drops_a_dead_guard(client, gm_user):
    """INQ-R3, INQ-R4: no wills, the dead are in the Cemetery at once; INQ-R36: a dead
    Guard leaves the Guards' pair; INQ-R33: the living Becchino reads the Cemetery."""
    game = make_game(gm_user, setup="inquisizione", seed=9)
    phase_commit(phase=current_phase(game), user=gm_user)  # N0
    guard = game.players.filter(role="guardia_gemella").first()
    vote_cast(phase=current_phase(game), player=game.players.get(role="boia"), target=guard)
    phase_commit(phase=current_phase(game), user=gm_user)  # D1: a Guard is executed
    html = sheet(client, gm_user, game)
    guards = html[html.index('data-group="guardie"') :]
    assert f"Da togliere dal gruppo: {guard.name}" in guards[: guards.index("</li>")]
    cemetery = html[html.index('data-group="cimitero"') :]
    cemetery = cemetery[: cemetery.index("</li>")]
    assert f"Nel Cimitero ora: {guard.name}" in cemetery
    assert f"Solo lettura: {game.players.get(role='becchino').name}" in cemetery


def test_two_victims_after_the_capo_is_executed_are_not_a_disagreement(client, gm_user):
    """WWW-R69, WWW-D19: the night after the Capo's execution the Indians attack two; the
    two latest submissions naming different players count, both shown as the choice."""
    game = make_game(gm_user)
    phase_commit(phase=current_phase(game), user=gm_user)  # N0
    capo = game.players.get(role="capo_indiano")
    vote_cast(phase=current_phase(game), player=game.players.get(role="sceriffo"), target=capo)
    phase_commit(phase=current_phase(game), user=gm_user)  # D1: the Capo is executed
    night = current_phase(game)
    first, second = game.players.filter(role="cowboy").order_by("seat")[:2]
    action_submit(phase=night, player=game.players.get(role="indiano"), target=first)
    action_submit(phase=night, player=game.players.get(role="sciamano"), target=second)
    board = gm_phase(client, gm_user, game)
    assert "data-disagreement" not in board
    choice = board[board.index('data-group-choice="pack_kill"') :]
    assert f"Scelta del gruppo:</strong>\n    {first.name} " in choice
    assert f"; {second.name} <span" in choice[: choice.index("</p>")]
    deaths = sorted(d.player for d in phase_preview(night).outcome.deaths)
    assert deaths == sorted([first.name, second.name])
