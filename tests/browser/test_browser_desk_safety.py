"""Browser, issue 30 §1-4: a GM with two tabs on a BANG! desk (the stale tab's elimination
and undo are refused, nothing recorded); the game-ending misclick undone behind its
checkbox, without JavaScript; a deal page reloaded and sent again from Back deals once;
the Time Car's hiding deadline passed: the Bandit is hidden by the site and told."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from desks.models import TableEvent
from games.models import Game
from tests.browser.pages import gm_page, phone_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
NAMES = ["Sam", "Vic", "Olga", "Otto", "Rina", "Reb"]
STALE = "La partita è cambiata: ricarica la pagina."


def deal_bang(gm) -> Game:
    gm.click("text=Nuova partita BANG! con Il Ribelle!")
    gm.fill("input[name=name]", "Saloon")
    gm.fill("textarea[name=players]", "\n".join(NAMES))
    gm.fill("input[name=seed]", "12")
    gm.click("text=Crea e distribuisci i ruoli")
    gm.wait_for_selector("text=Ruoli distribuiti")
    return Game.objects.get(name="Saloon")


def submit(page, form: str, **selects: str) -> None:
    box = page.locator(form)
    for name, value in selects.items():
        box.locator(f"select[name={name}]").select_option(value)
    with page.expect_navigation():
        box.locator("button[type=submit]").first.click()


def test_a_stale_tab_and_a_stale_undo_are_refused_and_the_end_is_undone(
    live_server, browser, django_user_model
):
    django_user_model.objects.create_user(username="master", password="pw-master-1")
    gm = gm_page(browser, live_server)
    game = deal_bang(gm)
    sheriff = game.players.get(role="sceriffo").name
    outlaws = list(game.players.filter(role__in=["fuorilegge", "rinnegato"])
                   .values_list("name", flat=True))  # fmt: skip
    submit(gm, "#turn-form", player=sheriff, phase="1")
    other = gm.context.new_page()  # the second tab
    other.goto(gm.url.split("#")[0])
    gm.reload()

    # tab 1 shows the elimination form under the Sheriff's turn; tab 2 logs a turn since
    next_player = next(n for n in NAMES if n != sheriff)
    submit(other, "#turn-form", player=next_player, phase="1")
    box = gm.locator("#elimination-form")
    box.locator(f"input[name=players][value='{outlaws[0]}']").check()
    submit(gm, "#elimination-form", by=sheriff)
    assert STALE in gm.inner_text("main")
    assert not TableEvent.objects.filter(game=game, kind="eliminated").exists()

    # tab 1's undo names event 1; the table moved on: refused, nothing undone
    gm.go_back()
    gm.wait_for_load_state()
    assert TableEvent.objects.filter(game=game).count() == 2
    gm.goto(gm.url.split("#")[0])
    other.reload()
    submit(other, "#turn-form", player=sheriff, phase="2")
    submit(gm, "#undo-form")
    assert STALE in gm.inner_text("main")
    assert TableEvent.objects.filter(game=game).count() == 3

    # the Sheriff's Gatling ends the game; the misclick is undone with the checkbox
    gm.reload()
    box = gm.locator("#elimination-form")
    for name in outlaws:
        box.locator(f"input[name=players][value='{name}']").check()
    submit(gm, "#elimination-form", by=sheriff)
    assert gm.locator("#game-over").count() == 1
    end_post = gm.locator(".post-block h3", has_text="Fine della partita")
    assert end_post.count() == 1
    gm.locator("#undo-form input[name=end_confirmed]").check()
    submit(gm, "#undo-form")
    assert "la partita riprende" in gm.inner_text("main")
    assert gm.locator("#game-over").count() == 0
    assert end_post.count() == 0
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING


def test_reload_and_back_do_not_deal_a_second_game(live_server, browser, django_user_model):
    django_user_model.objects.create_user(username="master", password="pw-master-1")
    gm = gm_page(browser, live_server)
    game = deal_bang(gm)
    roles = list(game.players.values_list("role", flat=True))
    gm.reload()  # the answer was a redirect: a reload is a GET
    assert "già stati mostrati" in gm.inner_text("main")
    gm.go_back()  # the filled form, as it was sent
    gm.wait_for_selector("textarea[name=players]")
    gm.click("text=Crea e distribuisci i ruoli")
    # the same form (its token) lands on the game; a form the browser fetched again
    # (a new token) is refused for its name: either way, no second deal
    gm.wait_for_selector("text=/già stata creata con questo modulo|Hai già una partita/")
    assert Game.objects.count() == 1
    assert list(game.players.values_list("role", flat=True)) == roles


def test_past_the_hiding_deadline_the_bandit_is_hidden_and_told(
    live_server, browser, django_user_model
):
    gm_user = django_user_model.objects.create_user(username="master", password="pw-master-1")
    gm = gm_page(browser, live_server)
    gm.click("text=Nuova partita Colt Express con l'Automobile del Tempo")
    gm.fill("input[name=name]", "Treno")
    gm.fill("textarea[name=bandits]", "Ada: Django\nBea: Belle\nCid: Tuco")
    gm.fill("input[name=rounds]", "3")
    gm.click("text=Crea la partita")
    gm.wait_for_selector("text=Partita creata")
    game = Game.objects.get(name="Treno")
    submit(gm, "#stealin-form")
    for action, to in (("place", "locomotive:interior"), ("move", "time_car")):
        gm.locator("#checker select[name=action]").select_option(action)
        gm.locator("#checker select[name=actor]").select_option("Bea")
        gm.locator("#checker select[name=to]").select_option(to)
        with gm.expect_navigation():
            gm.locator("#checker button[value=action]").click()
    past = (timezone.localtime() - dt.timedelta(minutes=5)).strftime("%Y-%m-%dT%H:%M")
    gm.fill("#round-end-form input[name=hide_by]", past)
    gm.locator("#round-end-form input[name=hide_by]").evaluate("e => e.removeAttribute('min')")
    submit(gm, "#round-end-form")
    assert "è già passata: scegline una futura" in gm.inner_text("main")
    soon = timezone.localtime() + dt.timedelta(minutes=5)
    gm.fill("#round-end-form input[name=hide_by]", soon.strftime("%Y-%m-%dT%H:%M"))
    submit(gm, "#round-end-form")
    assert "Bea è solo nell'Automobile del Tempo" in gm.inner_text("#awaiting")

    # the deadline passes (moved to a second ago rather than waiting five minutes)
    end = TableEvent.objects.get(game=game, kind="round_end")
    end.data["hide_by"] = (timezone.now() - dt.timedelta(seconds=1)).isoformat()
    end.save(update_fields=["data"])
    phone = phone_for(browser, live_server, game.players.get(name="Bea"))
    assert "Non hai scelto entro la scadenza" in phone.inner_text("#drawn")
    assert phone.locator("#hide-form").count() == 0
    gm.reload()
    assert "Bea non ha scelto entro la scadenza" in gm.inner_text("ol.log")
    assert gm.locator("#awaiting").count() == 0
    assert gm_user.pk
