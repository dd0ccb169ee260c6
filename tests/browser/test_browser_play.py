"""Browser: a player acts on a phone, the GM previews and commits, the dawn post has the
death; an Inquisizione day with the Boia's secret vote and a tie."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Phase
from games.services.phases import current_phase, phase_commit
from games.services.submissions import vote_cast
from tests.browser.pages import gm_page, phone_for
from tests.factories import make_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_night_attack_from_a_phone_then_preview_commit_and_dawn_post(
    live_server,
    browser,
    django_user_model,
):
    gm_user = django_user_model.objects.create_user(username="master", password="pw-master-1")
    game = make_game(gm_user, seed=3)
    phase_commit(phase=current_phase(game), user=gm_user)  # N0
    phase_commit(phase=current_phase(game), user=gm_user)  # D1: nobody voted
    indian = game.players.get(role="indiano")
    victim = game.players.filter(role="cowboy").first()

    phone = phone_for(browser, live_server, indian)
    form = phone.locator("form.action", has=phone.locator("input[value=pack_kill]"))
    form.locator("select[name=target]").select_option(victim.name)
    form.locator("button[type=submit]").click()
    phone.wait_for_selector("text=Scelta salvata")  # saved without a reload (htmx)

    gm = gm_page(browser, live_server)
    gm.goto(live_server.url + reverse("games:phase", args=[game.pk]))
    preview = gm.locator("#preview")
    assert f"{victim.name} (attaccato dagli Indiani" in preview.inner_text()
    gm.click("text=Risolvi Notte 1")
    gm.wait_for_selector("text=Fase risolta: Notte 1")
    gm.goto(live_server.url + reverse("games:posts", args=[game.pk]))
    bbcode = gm.locator("textarea.post").first.input_value()
    assert bbcode.startswith("[b]Alba del Giorno 2.[/b]")
    assert f"Stanotte muore {victim.name}." in bbcode
    assert Phase.objects.get(game=game, label="N1").status == Phase.Status.COMMITTED


def test_inquisizione_day_with_boia_secret_vote_and_tie(
    live_server,
    browser,
    django_user_model,
):
    """INQ-R45..R49, INQ-R7: the Boia's secret vote on a wolf weighs three and is timed at
    his public vote; the tie goes to who first received his decisive vote."""
    gm_user = django_user_model.objects.create_user(username="master", password="pw-master-1")
    game = make_game(gm_user, setup="inquisizione", seed=9)
    phase_commit(phase=current_phase(game), user=gm_user)  # N0
    day = current_phase(game)
    boia = game.players.get(role="boia")
    wolf = game.players.filter(role="lupo_mannaro").first()
    farmers = list(game.players.filter(role="contadino"))
    decoy, target = farmers[4], farmers[5]
    vote_cast(phase=day, player=farmers[0], target=target)  # earliest vote on the farmer

    phone = phone_for(browser, live_server, boia)
    public = phone.locator("form.vote").first
    public.locator("select[name=target]").select_option(decoy.name)
    public.locator("button[type=submit]").click()
    phone.wait_for_selector("text=Voto registrato")
    for voter in farmers[1:3]:
        vote_cast(phase=day, player=voter, target=target)  # the farmer reaches 3
    secret = phone.locator("form.vote", has=phone.locator("input[name=secret]"))
    secret.locator("select[name=target]").select_option(wolf.name)
    secret.locator("button[type=submit]").click()
    secret.locator("text=Voto registrato").wait_for()  # the voted form swaps itself (issue 9)
    assert public.locator("select[name=target]").input_value() == decoy.name  # left alone

    gm = gm_page(browser, live_server)
    gm.goto(live_server.url + reverse("games:phase", args=[game.pk]))
    text = gm.locator("body").inner_text()
    assert f"{wolf.name} 3" in text
    assert f"{target.name} 3" in text
    assert f"Ora verrebbe giustiziato {wolf.name}" in text  # timed at the Boia's public vote
    gm.click("text=Risolvi Giorno 1")
    gm.wait_for_selector("text=Fase risolta: Giorno 1")
    gm.goto(live_server.url + reverse("games:posts", args=[game.pk]))
    post = gm.locator("textarea.post").first.input_value()
    assert f"Il villaggio giustizia {wolf.name}." in post
    assert f"{decoy.name} (1): {boia.name}" in post  # the public vote at face value
    assert f"{wolf.name} (" not in post.split("Il villaggio giustizia")[0]  # no secret vote shown
