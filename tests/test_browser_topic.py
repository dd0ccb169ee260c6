"""Browser (issue 12): a day whose 16 votes are imported from a pasted phpBB page and an
Invision page (one ambiguous name confirmed, one quoted vote ignored, the paste repeated
with nothing added), then a mid-day count."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse

from games.models import Submission
from games.phases import current_phase, phase_commit
from games.topic_votes import topic_settings_update
from tests.factories import make_game
from tests.test_browser_play import gm_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ROME = ZoneInfo("Europe/Rome")
DAYS = ["lun", "mar", "mer", "gio", "ven", "sab", "dom"]
MONTHS = ["gen", "feb", "mar", "apr", "mag", "giu", "lug", "ago", "set", "ott", "nov", "dic"]


def phpbb_stamp(minutes_ago: int) -> str:
    t = dt.datetime.now(ROME) - dt.timedelta(minutes=minutes_ago)
    return f"{DAYS[t.weekday()]} {t.day:02d} {MONTHS[t.month - 1]} {t.year}, {t:%H:%M}"


def phpbb_page(posts: list[tuple[str, int, str]]) -> str:
    lines = ["Lupus in Tabula", "Giorno 1 — si vota", "Rispondi", "11 messaggi • Pagina 1 di 1"]
    for author, ago, body in posts:
        lines += [author, "Messaggi: 120", "Iscritto il: ven 03 gen 2020, 10:12",
                  "Re: Giorno 1 — si vota", f"Messaggio da {author} » {phpbb_stamp(ago)}",
                  *body.split("\n"), "Top"]  # fmt: skip
    return "\n".join([*lines, "Torna a “Partite in corso”"])


def invision_page(posts: list[tuple[str, int, str]]) -> str:
    lines = ["Lupus in Tabula", "Wild West Wolf — Giorno 1"]
    for author, ago, body in posts:
        lines += [author, author, "Membri", " 12", "12 messaggi", f"Inviato {ago} minuti fa",
                  *body.split("\n"), "Link al commento", "Condividi su altri siti"]  # fmt: skip
    return "\n".join(lines)


def test_a_day_of_votes_imported_from_phpbb_and_invision_then_counted(
    live_server, browser, django_user_model
):
    gm_user = django_user_model.objects.create_user(username="master", password="pw-master-1")
    game = make_game(gm_user, seed=3)
    phase_commit(phase=current_phase(game), user=gm_user)  # N0
    day = current_phase(game)
    day.opened_at -= dt.timedelta(hours=6)
    day.save(update_fields=["opened_at"])
    topic_settings_update(game=game, user=gm_user, votes_from_topic=True,
                          vote_lines=["[b]Voto: Nome[/b]", "#voto Nome", "Voto Nome"],
                          withdraw_lines=["#ritiro", "Tolgo il voto"], aliases="",
                          gm_names=["Narratore"])  # fmt: skip
    first = [("Narratore", 300, "Si vota fino alle 22:00.\nVoto: Nome")]
    first += [(name, 290 - 10 * i, "Secondo me è lui.\n[b]Voto: Gino[/b]")
              for i, name in enumerate(["Sam", "Mar", "Pao", "Mia", "Nora", "Vito", "Carla",
                                        "Anna", "Bruno"])]  # fmt: skip
    first.append(("Gino", 150, "Ma siete matti?\n#voto Sam"))
    second = [
        ("Pietro", 100, "Voto Gino"),
        ("Capo", 90, "Voto: Gino"),
        ("Ivan", 80, "Voto: Sam"),
        ("Sara", 70, "Ivan ha detto:\nVoto: Sam\n\nIo no.\nVoto: Gino"),  # quoted vote
        ("Cac", 60, "#voto Gino"),
        ("Pia", 50, "Voto Ca"),  # ambiguous: Carla, Capo or Cac
    ]
    gm = gm_page(browser, live_server)
    phase_url = live_server.url + reverse("games:phase", args=[game.pk])

    def paste(text: str) -> None:
        gm.goto(phase_url)
        gm.fill("#topic textarea[name=text]", text)
        gm.click("#topic button[value=preview]")
        gm.wait_for_selector("#import-rows")

    paste(phpbb_page(first))
    assert "10 voti da salvare" in gm.inner_text("#import-summary")
    gm.click("button[value=save]")
    gm.wait_for_selector("text=Dal topic: 10 voti salvati.")

    paste(invision_page(second))
    rows = gm.inner_text("#import-rows")
    assert "Chi è «ca»?" in rows
    assert "5 voti da salvare" in gm.inner_text("#import-summary")
    pia = gm.locator("tr", has_text="Voto Ca")
    pia.locator("select").select_option(label="Capo")  # the GM confirms the name
    gm.click("button[value=preview]")
    gm.wait_for_selector("text=6 voti da salvare")
    gm.click("button[value=save]")
    gm.wait_for_selector("text=Dal topic: 6 voti salvati.")

    paste(invision_page(second))  # the same page again: nothing to add
    assert "0 voti da salvare" in gm.inner_text("#import-summary")
    assert "già importato" in gm.inner_text("#import-rows")
    gm.click("button[value=save]")
    gm.wait_for_selector("text=Dal topic: 0 voti salvati.")

    votes = Submission.objects.filter(phase=day, kind="vote")
    assert votes.count() == 16
    assert set(votes.values_list("source", flat=True)) == {"topic"}
    assert votes.get(player__name="Sara").target.name == "Gino"  # not the quoted Sam
    assert votes.get(player__name="Pia").target.name == "Capo"

    gm.goto(phase_url)
    gm.click("text=Conta adesso")  # mid-day count, without leaving the page
    count = gm.locator(".count-now textarea[data-format=bbcode]")
    count.wait_for()
    text = count.input_value()
    assert text.startswith("[b]Conteggio voti di D1")
    assert "Gino (13): Sam (" in text
    assert "Sam (2): Gino (" in text
    assert "Mancano" in text
