"""Browser (issue 12, done-when): the GM's real day, walked in Debian's Chromium. Day 1's
16 votes imported from a pasted phpBB page and an Invision page (one ambiguous name
confirmed, one quoted vote ignored, the paste repeated with nothing added:
tests/test_browser_topic.import_a_day_of_votes), a mid-day count, a wrong time corrected,
the day resolved; a night whose pasteable reminder reveals nothing, closed by its clock
and reopened; an undo of that night that lists and keeps the next day's votes, which come
back when the night is resolved again. And a player withdrawing a saved night choice."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Phase, Submission
from games.services.clock import deadlines_run
from games.services.phases import current_phase
from games.services.submissions import vote_cast
from roles.engine.setups import load_setup
from tests.browser.pages import phone_for
from tests.browser.topic import import_a_day_of_votes
from tests.factories import make_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ROME = ZoneInfo("Europe/Rome")


def test_the_gms_real_day(live_server, browser, django_user_model):
    gm, game, day = import_a_day_of_votes(live_server, browser, django_user_model)
    phase_url = live_server.url + reverse("games:phase", args=[game.pk])

    # a mid-day count, ready to paste
    gm.goto(phase_url)
    gm.click("text=Conta adesso")
    count = gm.locator(".count-now textarea[data-format=bbcode]")
    count.wait_for()
    assert "Gino (13): Sam (" in count.input_value()

    # a wrong time corrected: the old row stays, struck; the new one carries the reason
    wrong = Submission.objects.get(phase=day, player__name="Pia")
    right = (timezone.now() - dt.timedelta(minutes=200)).astimezone(ROME).replace(microsecond=0)
    gm.goto(phase_url)
    gm.locator(f"#submission-{wrong.pk} a", has_text="Correggi").click()
    gm.fill("#fix-form input[name=at]", f"{right:%H:%M:%S}")
    gm.fill("#fix-form input[name=reason]", "ora letta male nel topic")
    gm.click("#fix-form button[value=correct]")
    gm.wait_for_selector("text=Invio di Pia corretto")
    fixed = Submission.objects.get(phase=day, player__name="Pia")
    assert fixed.at == right
    assert fixed.target.name == "Capo"
    assert fixed.reason == "ora letta male nel topic"
    assert gm.locator(f"#submission-{wrong.pk}.superseded s").count() == 2  # struck
    assert Submission.objects.filter(phase=day).count() == 16  # still 16 votes

    # Day 1 resolved; the night's reminder names everyone alive and no power
    gm.click("form[action$='/fase/risolvi/'] button")
    gm.wait_for_selector("text=Fase risolta")
    night = current_phase(game)
    assert night.label == "N1"
    reminder = gm.locator("#reminder").input_value()
    living = [p for p in game.players.all() if f"@{p.name}" in reminder]
    roles = [card.name for card in load_setup(game.setup).cards.values()]
    assert len(living) == 15  # Gino was executed: everyone else, power or not
    assert not [role for role in roles if role in reminder]
    assert "Gino" not in reminder

    # the night's clock closes it; the GM reopens it with a new deadline
    Phase.objects.filter(pk=night.pk).update(closes_at=timezone.now() - dt.timedelta(seconds=1))
    assert deadlines_run() == {"closed": 1}
    gm.goto(phase_url)
    gm.click("text=Riapri con una nuova scadenza")
    reopen = gm.locator("form", has=gm.locator("button[value=reopen]"))
    later = (timezone.now() + dt.timedelta(hours=3)).astimezone(ROME)
    reopen.locator("input[name=closes_at]").fill(f"{later:%Y-%m-%dT%H:%M}")
    reopen.locator("input[name=reason]").fill("un giocatore era senza rete")
    reopen.locator("button[value=reopen]").click()
    gm.wait_for_selector("text=N1 riaperta.")
    night.refresh_from_db()
    assert night.status == Phase.Status.OPEN

    # Night 1 resolved; Day 2's first votes arrive; then the GM undoes the night
    gm.click("form[action$='/fase/risolvi/'] button")
    gm.wait_for_selector("text=Fase risolta")
    day2 = current_phase(game)
    assert day2.label == "D2"
    voters = list(game.players.exclude(name="Gino").order_by("seat")[:3])
    for voter, target in zip(voters, voters[1:] + voters[:1], strict=True):
        vote_cast(phase=day2, player=voter, target=target)
    sent = list(Submission.objects.filter(phase=day2).order_by("at")
                .values_list("player__name", "target__name", "at"))  # fmt: skip
    gm.goto(phase_url)
    gm.click("text=Annulla la risoluzione di Notte 1")
    kept = gm.inner_text("#undo-kept")  # before confirming, the GM sees what it affects
    assert all(voter.name in kept for voter in voters)
    assert "Invii successivi interessati (3)" in gm.inner_text("#undo-effects")
    gm.click("text=Sì, annulla la risoluzione di Notte 1")
    gm.wait_for_selector("text=Risoluzione di Notte 1 annullata.")
    assert current_phase(game).label == "N1"
    assert not game.phases.filter(label="D2").exists()

    gm.click("form[action$='/fase/risolvi/'] button")  # resolved again: Day 2 reopens
    gm.wait_for_selector("text=Fase risolta")
    day2 = current_phase(game)
    back = list(Submission.objects.filter(phase=day2).order_by("at")
                .values_list("player__name", "target__name", "at"))  # fmt: skip
    assert back == sent  # the votes came back, with their times
    assert gm.locator("#kept-refused").count() == 0
    board = gm.inner_text("#submissions")
    assert all(voter.name in board for voter in voters)


def test_a_player_withdraws_his_saved_night_choice_from_his_phone(
    live_server, browser, django_user_model
):
    """§3: the Maresciallo saves his N0 choice, then withdraws it (htmx, no reload): the
    row is kept, superseded, and the night resolves without it."""
    gm_user = django_user_model.objects.create_user(username="master", password="pw-master-1")
    game = make_game(gm_user, seed=3)
    marshal = game.players.get(role="maresciallo")
    target = game.players.exclude(pk=marshal.pk).order_by("seat").first()
    phone = phone_for(browser, live_server, marshal)
    phone.select_option("form.action select[name=target]", label=target.name)
    phone.click("form.action button:text('Salva')")
    phone.wait_for_selector("text=Scelta salvata")
    phone.click("text=Ritira la scelta")
    phone.wait_for_selector("text=Scelta ritirata per Notte 0")
    assert phone.locator("text=Ritira la scelta").count() == 0
    assert not Submission.objects.filter(player=marshal).exists()
    assert Submission.every.get(player=marshal).superseded_reason == "ritirata dal giocatore"
