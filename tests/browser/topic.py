"""The thread import walked in the browser: forum pages as phpBB and Invision render them,
and the GM's import of Day 1's votes from both (tests/browser/test_browser_topic.py and
test_browser_gm_day.py walk it; test_browser_topic_late.py reuses the phpBB page)."""

from __future__ import annotations

import datetime as dt
import html
from zoneinfo import ZoneInfo

from django.urls import reverse

from games.models import Submission
from games.services.topic_settings import topic_settings_update
from tests.browser.pages import gm_page
from tests.factories import day_one

ROME = ZoneInfo("Europe/Rome")
DAYS = ["lun", "mar", "mer", "gio", "ven", "sab", "dom"]
MONTHS = ["gen", "feb", "mar", "apr", "mag", "giu", "lug", "ago", "set", "ott", "nov", "dic"]


def phpbb_stamp(minutes_ago: int) -> str:
    t = dt.datetime.now(ROME) - dt.timedelta(minutes=minutes_ago)
    return f"{DAYS[t.weekday()]} {t.day:02d} {MONTHS[t.month - 1]} {t.year}, {t:%H:%M}"


def phpbb_page(posts: list[tuple[str, int, str]]) -> str:
    """A phpBB (prosilver) topic page, marked up as viewtopic_body.html renders it."""
    out = ['<!DOCTYPE html><html lang="it"><body><h2 class="topic-title">Giorno 1 — si vota'
           "</h2><div class=\"pagination\">11 messaggi • Pagina 1 di 1</div>"]  # fmt: skip
    for n, (author, ago, body) in enumerate(posts):
        text = "<br>".join(html.escape(line) for line in body.split("\n"))
        out.append(
            f'<div id="p{n}" class="post has-profile"><div class="inner"><dl class="postprofile">'
            f'<dt><a class="username">{author}</a></dt><dd class="profile-posts"><strong>'
            f'Messaggi:</strong> 120</dd></dl><div class="postbody"><h3>Re: Giorno 1 — si vota'
            f'</h3><p class="author"><span class="sr-only">Messaggio</span> <span>da <strong>'
            f'<a class="username">{author}</a></strong> &raquo; </span><time datetime="">'
            f'{phpbb_stamp(ago)}</time></p><div class="content">{text}</div></div></div></div>'
        )
    return "".join([*out, "</body></html>"])


def invision_page(posts: list[tuple[str, int, str]]) -> str:
    """An Invision Community topic page (cPost articles, ipsQuote blockquotes)."""
    out = ['<!DOCTYPE html><html lang="it"><body><h1>Wild West Wolf — Giorno 1</h1>']
    for author, ago, body in posts:
        paragraphs = []
        for part in body.split("\n\n"):
            if part.startswith("QUOTE "):
                who, quoted = part[6:].split(":", 1)
                paragraphs.append(
                    f'<blockquote class="ipsQuote" data-ipsquote-username="{who}">'
                    f'<div class="ipsQuote_citation">{who} ha detto:</div>'
                    f'<div class="ipsQuote_contents"><p>{html.escape(quoted.strip())}</p></div>'
                    "</blockquote>"
                )
            else:
                paragraphs += [f"<p>{html.escape(line)}</p>" for line in part.split("\n")]
        out.append(
            f'<article class="cPost ipsComment"><aside class="cAuthorPane"><h3 class='
            f'"cAuthorPane_author"><strong><a>{author}</a></strong></h3><ul><li>Membri</li>'
            f'<li>12 messaggi</li></ul></aside><div class="ipsComment_content"><div class='
            f'"ipsComment_meta">Inviato <time datetime="">{ago} minuti fa</time></div><div '
            f'data-role="commentContent">{"".join(paragraphs)}</div><ul><li>Link al commento'
            "</li><li>Condividi su altri siti</li></ul></div></article>"
        )
    return "".join([*out, "</body></html>"])


def import_a_day_of_votes(live_server, browser, django_user_model):
    """The GM imports Day 1's 16 votes from a phpBB page and an Invision page (one
    ambiguous name confirmed, one quoted vote ignored, the paste repeated with nothing
    added); returns his page, the game and the day (also walked by test_browser_gm_day)."""
    gm_user = django_user_model.objects.create_user(username="master", password="pw-master-1")
    game, day = day_one(gm_user, seed=3, opened_ago=dt.timedelta(hours=6))
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
        ("Sara", 70, "QUOTE Ivan: Voto: Sam\n\nIo no.\nVoto: Gino"),  # a quoted vote
        ("Cac", 60, "#voto Gino"),
        ("Pia", 50, "Voto Ca"),  # ambiguous: Carla, Capo or Cac
    ]
    gm = gm_page(browser, live_server)
    gm.context.grant_permissions(["clipboard-read", "clipboard-write"])
    phase_url = live_server.url + reverse("games:phase", args=[game.pk])

    forum = gm.context.new_page()  # the forum's topic page, in another tab

    def paste(page: str) -> None:
        """Select the whole forum page, copy it, paste it on the phase page."""
        forum.set_content(page)
        forum.keyboard.press("Control+A")
        forum.keyboard.press("Control+C")
        gm.goto(phase_url)
        gm.click("#topic textarea[name=text]")
        gm.keyboard.press("Control+V")
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
    return gm, game, day
