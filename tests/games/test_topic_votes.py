"""Issue 12 §1: votes read from the thread. The preview says what each post would do
(new, changed, withdrawn, refused by the rules, outside the phase, to confirm); saving
goes through vote_cast with the forum time and "from the topic"; a paste read twice adds
nothing; the GM's posts and quoted text never count; a game can take its public votes
from the thread only."""

from __future__ import annotations

import datetime as dt
import re
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.exceptions import ValidationError
from django.urls import reverse

from games.models import AuditEvent, Submission
from games.services.game import player_link_issue
from games.services.phases import current_phase, phase_commit
from games.services.submissions import vote_cast
from games.services.topic_preview import (
    ALREADY,
    ASK,
    CHANGED,
    EDITED_LATE,
    NEW,
    OUTSIDE,
    REFUSED,
    SAME,
    WITHDRAWN,
    topic_import_preview,
)
from games.services.topic_settings import topic_settings_update
from games.services.topic_votes import topic_import_save
from tests.factories import day_one, make_game

pytestmark = pytest.mark.django_db
ROME = ZoneInfo("Europe/Rome")


@pytest.fixture
def day(gm_user):
    """Day 1 of a Wild West Wolf game, opened 10 hours ago."""
    return day_one(gm_user, opened_ago=dt.timedelta(hours=10))[1]


BASE = dt.datetime.now(ROME)


@pytest.fixture(autouse=True)
def _base():
    """One "now" per test for the posts' times (a minute may turn while it runs)."""
    global BASE
    BASE = dt.datetime.now(ROME)


def stamp(minutes_ago: int, seconds: int = 0) -> str:
    moment = BASE - dt.timedelta(minutes=minutes_ago)
    return moment.strftime("%d/%m/%Y %H:%M") + f":{seconds:02d}"


def thread(*posts: tuple[str, int, str]) -> str:
    """A generic-format page: (author, minutes ago, body)."""
    return "\n".join(f"{author} — {stamp(ago, 7)}\n{body}\n" for author, ago, body in posts)


def test_preview_says_what_each_post_would_do(day, gm_user):
    topic_settings_update(game=day.game, user=gm_user, votes_from_topic=False,
                          vote_lines=["[b]Voto: Nome[/b]", "#voto Nome", "Voto Nome"],
                          withdraw_lines=["#ritiro", "Tolgo il voto"], aliases="",
                          gm_names=["Narratore"])  # fmt: skip
    vote_cast(
        phase=day,
        player=day.game.players.get(name="Mia"),
        target=day.game.players.get(name="Sam"),
        at=dt.datetime.now(ROME) - dt.timedelta(hours=2),
    )  # by her link, earlier
    text = thread(
        ("Narratore", 300, "Si vota! Voto: Nessuno"),  # the GM's post
        ("Sam", 240, "[b]Voto: Gino[/b]"),
        ("Pao", 230, "[quote]Voto: Gino[/quote]\nio no. #voto SAM"),
        ("Pao", 220, "Voto Sam"),  # the same again
        ("Pao", 210, "Ci ho ripensato. #ritiro"),
        ("Vito", 200, "Voto Vito"),  # a vote for himself
        ("Sconosciuto", 190, "Voto Gino"),  # not a player
        ("Anna", 180, "Voto Gin"),  # approximate
        ("Bruno", 800, "Voto Gino"),  # before the day opened
        ("Carla", -30, "Voto Gino"),  # in the future
        ("Nora", 170, "Voto per chi mi pare a me oggi"),  # unreadable
        ("Mia", 1, "Voto: Gino"),  # a change of Mia's link vote
    )
    preview = topic_import_preview(phase=day, text=text, gm_username="master")
    status = [(r.post.author, r.status) for r in preview.rows]
    assert status == [
        ("Sam", NEW), ("Pao", NEW), ("Pao", SAME), ("Pao", WITHDRAWN), ("Vito", REFUSED),
        ("Sconosciuto", ASK), ("Anna", ASK), ("Bruno", OUTSIDE), ("Carla", OUTSIDE),
        ("Nora", ASK), ("Mia", CHANGED),
    ]  # fmt: skip
    assert preview.gm_posts == 1
    rows = {r.post.author: r for r in preview.rows}
    assert rows["Anna"].target_choices[0].name == "Gino"  # suggested, not applied
    assert rows["Anna"].note == "nome approssimato"
    assert rows["Sconosciuto"].note == "autore non riconosciuto"
    assert rows["Nora"].note == "riga non leggibile"
    assert rows["Anna"].target is None
    assert rows["Mia"].before.name == "Sam"
    assert "WWW" in rows["Vito"].note or "INQ" in rows["Vito"].note  # the rule cited
    assert Submission.objects.filter(phase=day).count() == 1  # nothing stored


def test_saving_stores_forum_times_from_the_topic_and_a_repeat_adds_nothing(day, gm_user):
    text = thread(("Sam", 60, "Voto: Gino"), ("Pao", 50, "#voto Sam"), ("Sam", 40, "#ritiro"))
    saved = topic_import_save(phase=day, text=text, fmt="", decisions={}, user=gm_user)
    assert len(saved.to_store) == 3
    stored = list(Submission.objects.filter(phase=day).order_by("at"))
    assert [(s.player.name, s.target.name if s.target else None) for s in stored] == [
        ("Sam", "Gino"), ("Pao", "Sam"), ("Sam", None)]  # fmt: skip
    assert {s.source for s in stored} == {"topic"}
    assert all(s.entered_by == gm_user and s.reason == "dal topic" for s in stored)
    expected = dt.datetime.strptime(stamp(60, 7), "%d/%m/%Y %H:%M:%S").replace(tzinfo=ROME)
    assert stored[0].at == expected  # the forum time, to the second
    again = topic_import_save(phase=day, text=text, fmt="", decisions={}, user=gm_user)
    assert again.to_store == []
    assert {r.status for r in again.rows} == {ALREADY}
    later = text + "\n" + thread(("Gino", 10, "Voto Sam"))  # an overlapping later page
    more = topic_import_save(phase=day, text=later, fmt="", decisions={}, user=gm_user)
    assert [(r.post.author, r.status) for r in more.to_store] == [("Gino", NEW)]
    assert Submission.objects.filter(phase=day).count() == 4
    assert AuditEvent.objects.filter(kind="topic_import").count() == 3


def test_a_vote_in_a_quote_of_a_post_not_in_the_paste_is_asked_about(day):
    text = thread(("Sam", 30, "Ugo ha scritto:\nVoto: Gino"))
    (row,) = topic_import_preview(phase=day, text=text).rows
    assert (row.status, row.note, row.target) == (ASK, "forse dentro una citazione", None)


def test_the_gm_settles_doubtful_lines(day, gm_user):
    text = thread(("Anna", 30, "Voto Gin"), ("Sconosciuto", 20, "Voto Sam"))
    preview = topic_import_preview(phase=day, text=text)
    anna, stranger = preview.rows
    pao = day.game.players.get(name="Pao")
    gino = day.game.players.get(name="Gino")
    decisions = {f"t{anna.key[:12]}": str(gino.seat), f"v{stranger.key[:12]}": str(pao.seat)}
    saved = topic_import_save(phase=day, text=text, fmt="", decisions=decisions, user=gm_user)
    assert [(r.voter.name, r.target.name, r.status) for r in saved.rows] == [
        ("Anna", "Gino", NEW), ("Pao", "Sam", NEW)]  # fmt: skip


def test_an_alias_and_a_previous_name_are_known(day, gm_user):
    from games.services.game import player_substitute

    player_substitute(player=day.game.players.get(name="Sam"), new_name="Samuele", user=gm_user)
    topic_settings_update(game=day.game, user=gm_user, votes_from_topic=False,
                          vote_lines=["Voto Nome"], withdraw_lines=["#ritiro"],
                          aliases="il capo = Capo", gm_names=[])  # fmt: skip
    preview = topic_import_preview(phase=day, text=thread(("Sam", 5, "Voto il capo")))
    (row,) = preview.rows
    assert (row.voter.name, row.target.name, row.status) == ("Samuele", "Capo", NEW)


def test_a_game_with_votes_in_the_topic_says_so_on_the_players_page(client, day, gm_user):
    topic_settings_update(game=day.game, user=gm_user, votes_from_topic=True,
                          vote_lines=["Voto Nome"], withdraw_lines=["#ritiro"], aliases="",
                          gm_names=[])  # fmt: skip
    player = day.game.players.get(name="Sam")
    client.get(reverse("player_enter", args=[player_link_issue(player=player)]))
    html = client.get(reverse("player_home")).content.decode()
    assert "si vota nel topic" in html
    assert 'action="/io/voto/"' not in html
    assert "Voto per il rogo" not in html
    response = client.post(reverse("player_vote"), {"phase": day.pk, "target": "Gino"})
    assert response.status_code == 302
    assert not Submission.objects.filter(phase=day, kind="vote").exists()


def test_import_views_preview_then_save(client, day, gm_user):
    client.force_login(gm_user)
    phase_page = client.get(reverse("games:phase", args=[day.game.pk])).content.decode()
    assert "Importa dal topic" in phase_page
    assert "Conta adesso" in phase_page
    text = thread(("Sam", 30, "Voto: Gino"), ("Anna", 20, "Voto Gin"))
    url = reverse("games:topic_import", args=[day.game.pk])
    html = client.post(url, {"text": text, "action": "preview"}).content.decode()
    assert "nuovo voto" in html
    assert "da confermare" in html
    assert "Salva 1 voto" in html
    response = client.post(url, {"text": text, "action": "save"})
    assert response.status_code == 302
    assert Submission.objects.filter(phase=day, source="topic").count() == 1


def test_settings_view_saves_aliases_and_refuses_an_unknown_player(client, day, gm_user):
    client.force_login(gm_user)
    url = reverse("games:topic_settings", args=[day.game.pk])
    form = {
        "votes_from_topic": "1",
        "vote_lines": "Voto Nome\n#voto Nome",
        "withdraw_lines": "#ritiro",
        "aliases": "il capo = Capo",
        "gm_names": "Narratore, GM",
    }
    client.post(url, form)
    settings = day.game.topic
    assert settings.votes_from_topic
    assert settings.aliases == {"il capo": day.game.players.get(name="Capo").seat}
    assert settings.gm_names == ["Narratore", "GM"]
    response = client.post(url, {**form, "aliases": "tizio = Nessuno"}, follow=True)
    assert "Alias non valido" in response.content.decode()
    assert day.game.topic.aliases == {"il capo": day.game.players.get(name="Capo").seat}


def test_a_night_takes_no_votes_from_the_topic(client, gm_user):
    game = make_game(gm_user)  # Night 0
    client.force_login(gm_user)
    response = client.post(reverse("games:topic_import", args=[game.pk]),
                           {"text": "Sam — 12/03/2025 17:00\nVoto Gino", "action": "save"},
                           follow=True)  # fmt: skip
    assert "Si importano i voti solo durante un giorno." in response.content.decode()
    assert not Submission.objects.exists()


def test_a_paused_day_still_takes_posts_after_its_old_deadline(day, gm_user):
    """Paused before its deadline (a pause after it, as an undo holds it, does not move
    the deadline: issue 28 class 6)."""
    day.closes_at = dt.datetime.now(ROME) - dt.timedelta(minutes=30)
    day.paused_at = day.closes_at - dt.timedelta(minutes=1)
    day.save(update_fields=["paused_at", "closes_at"])
    (row,) = topic_import_preview(phase=day, text=thread(("Sam", 10, "Voto Gino"))).rows
    assert row.status == NEW


def test_a_saved_page_can_be_uploaded_and_gives_the_seconds(client, day, gm_user):
    from django.core.files.uploadedfile import SimpleUploadedFile

    moment = (dt.datetime.now(dt.UTC) - dt.timedelta(minutes=20)).replace(microsecond=0)
    html = (
        "<!DOCTYPE html><html><body>"
        '<div id="p1" class="post"><div class="postbody"><p class="author">da <strong>'
        '<a class="username">Sam</a></strong> &raquo; <time datetime="'
        f'{moment.isoformat()}">Oggi</time></p><div class="content">Voto: Gino</div></div></div>'
        "</body></html>"
    )
    client.force_login(gm_user)
    page = SimpleUploadedFile("giorno1.html", html.encode(), content_type="text/html")
    response = client.post(reverse("games:topic_import", args=[day.game.pk]),
                           {"page": page, "text": "", "action": "save"})  # fmt: skip
    assert response.status_code == 302
    vote = Submission.objects.get(phase=day, source="topic")
    assert (vote.player.name, vote.target.name, vote.at) == ("Sam", "Gino", moment)


def test_a_later_copy_of_a_page_with_minutes_ago_times_adds_nothing(day, gm_user):
    """'40 minuti fa' copied again two minutes later reads 42: the same posts, read once."""
    page = "\n".join([
        "Sam", "Sam", "Membri", "12 messaggi", "Inviato {} minuti fa", "Voto: Gino",
        "Link al commento", "Condividi su altri siti",
    ])  # fmt: skip
    first = topic_import_save(phase=day, text=page.format(40), fmt="", decisions={},
                              user=gm_user)  # fmt: skip
    assert [r.status for r in first.rows] == [NEW]
    later = topic_import_preview(phase=day, text=page.format(42))
    assert [r.status for r in later.rows] == [ALREADY]


INVISION = "\n".join([
    "{who}", "{who}", "Membri", "12 messaggi", "Inviato {ago} minuti fa", "{line}",
    "Link al commento", "Condividi su altri siti",
])  # fmt: skip


def test_a_save_a_minute_after_its_preview_stores_what_the_preview_showed(client, day, gm_user):
    """'50 minuti fa' previewed at 10:15:59 and saved at 10:17: the GM's answer for the
    ambiguous line (keyed by the post's time) still applies, and the vote keeps the time
    the preview showed, because the save reads the paste at the preview's instant
    (the form's read_at), not at its own."""
    client.force_login(gm_user)
    url = reverse("games:topic_import", args=[day.game.pk])
    text = INVISION.format(who="Pia", ago=50, line="Voto Ca")  # Carla, Capo or Cac
    html = client.post(url, {"text": text, "action": "preview"}).content.decode()
    assert "da confermare" in html
    read_at = re.search(r'name="read_at" value="([^"]+)"', html)[1]
    (row,) = topic_import_preview(phase=day, text=text, now=dt.datetime.fromisoformat(read_at)).rows
    capo = day.game.players.get(name="Capo")
    later = dt.datetime.fromisoformat(read_at) + dt.timedelta(seconds=61)
    with time_machine.travel(later, tick=False):
        # without the preview's instant the post reads a minute later: the answer is lost
        assert (
            topic_import_preview(
                phase=day, text=text, decisions={f"t{row.key[:12]}": str(capo.seat)}
            ).to_store
            == []
        )
        response = client.post(url, {"text": text, "action": "save", "read_at": read_at,
                                     f"t{row.key[:12]}": str(capo.seat)})  # fmt: skip
    assert response.status_code == 302
    (vote,) = Submission.objects.filter(phase=day, source="topic")
    assert (vote.player.name, vote.target.name) == ("Pia", "Capo")
    assert vote.at == row.at  # the time the preview showed


@pytest.mark.parametrize("read_at", ["domani", "2999-01-01T00:00:00+00:00",
                                     "2020-01-01T00:00:00+00:00", "\x00"])  # fmt: skip
def test_a_preview_instant_from_the_future_too_old_or_garbage_is_refused(
    client, day, gm_user, read_at
):
    client.force_login(gm_user)
    url = reverse("games:topic_import", args=[day.game.pk])
    text = thread(("Sam", 30, "Voto: Gino"))
    response = client.post(url, {"text": text, "action": "save", "read_at": read_at},
                           follow=True)  # fmt: skip
    assert response.status_code == 200
    assert "Anteprima scaduta" in response.content.decode()
    assert not Submission.objects.filter(phase=day, source="topic").exists()


# -- issue 28: real pages ------------------------------------------------------------
def test_a_vote_edited_after_the_deadline_is_shown_apart_and_the_previous_vote_stands(day):
    """Class 3: the edited post is listed with the vote that stands; only that is stored."""
    day.closes_at = BASE - dt.timedelta(minutes=30)
    day.save(update_fields=["closes_at"])
    edited = (BASE - dt.timedelta(minutes=10)).strftime("%d/%m/%Y, %H:%M")
    text = thread(("Sam", 120, "Voto Gino"),
                  ("Sam", 60, f"Voto Mia\nModificato da Sam - {edited}"))  # fmt: skip
    first, late = topic_import_preview(phase=day, text=text).rows
    assert (first.status, first.target.name) == (NEW, "Gino")
    assert (late.status, late.target.name, late.before.name) == (EDITED_LATE, "Mia", "Gino")
    assert "modificato dopo la scadenza" in late.note
    assert "Gino" in late.note


def test_a_late_edit_counts_with_a_warning_when_the_game_says_so(client, day, gm_user):
    """Issue 28 leftover 2: the thread setting "a vote edited after the deadline counts"
    (off by default: the previous vote stands) is saved from the settings form, and then
    the edited vote is stored, with a warning shown in the preview."""
    day.closes_at = BASE - dt.timedelta(minutes=30)
    day.save(update_fields=["closes_at"])
    edited = (BASE - dt.timedelta(minutes=10)).strftime("%d/%m/%Y, %H:%M")
    text = thread(("Sam", 120, "Voto Gino"),
                  ("Sam", 60, f"Voto Mia\nModificato da Sam - {edited}"))  # fmt: skip
    client.force_login(gm_user)
    form = {"votes_from_topic": "1", "vote_lines": "Voto Nome", "withdraw_lines": "#ritiro",
            "aliases": "", "gm_names": "", "edited_late_counts": "1"}  # fmt: skip
    client.post(reverse("games:topic_settings", args=[day.game.pk]), form)
    assert day.game.topic.edited_late_counts
    _first, late = topic_import_preview(phase=day, text=text).rows
    assert (late.status, late.target.name, late.before.name) == (CHANGED, "Mia", "Gino")
    assert "conta lo stesso" in late.note
    url = reverse("games:topic_import", args=[day.game.pk])
    page = client.post(url, {"text": text, "action": "preview"}).content.decode()
    assert "conta lo stesso" in page
    assert "Salva 2 voti" in page
    topic_import_save(phase=day, text=text, fmt="", decisions={}, user=gm_user)
    stored = Submission.objects.filter(phase=day, player__name="Sam").order_by("at").last()
    assert stored.target.name == "Mia"
    del form["edited_late_counts"]  # unticked: refused again, the default
    client.post(reverse("games:topic_settings", args=[day.game.pk]), form)
    day.game.topic.refresh_from_db()
    assert not day.game.topic.edited_late_counts


def test_relative_dates_are_read_against_the_moment_of_the_copy(gm_user):
    """Class 2: the day closed yesterday at 22:00, the page is copied this evening:
    "Ieri, 21:00" is yesterday evening, in time."""
    with time_machine.travel(dt.datetime(2026, 3, 12, 8, 0, tzinfo=ROME), tick=False):
        game = make_game(gm_user)
        phase_commit(phase=current_phase(game), user=gm_user)
        day = current_phase(game)
        day.closes_at = dt.datetime(2026, 3, 12, 22, 0, tzinfo=ROME)
        day.save(update_fields=["closes_at"])
    page = "\n".join(["Sam", "Messaggi: 4", "Re: Giorno 1", "Messaggio da Sam » Ieri, 21:00",
                      "Voto Gino perché ieri taceva", "Top"])  # fmt: skip
    now = dt.datetime(2026, 3, 13, 19, 0, tzinfo=ROME)
    with time_machine.travel(now, tick=False):
        (row,) = topic_import_preview(phase=day, text=page, now=now).rows
    assert (row.status, row.target.name) == (NEW, "Gino")
    assert row.at == dt.datetime(2026, 3, 12, 21, 0, tzinfo=ROME)


def test_the_copy_time_the_gm_gives_anchors_oggi_and_ieri(client, gm_user):
    """Issue 28 leftover 3 (class 2): a page copied at 22:30 on the day and pasted the
    next evening says "Oggi, 21:00" of the day it was copied; the paste form's "copiato
    il" (the game's zone) anchors it there. Left empty, it means now: the next day."""
    with time_machine.travel(dt.datetime(2026, 3, 12, 8, 0, tzinfo=ROME), tick=False):
        game = make_game(gm_user)
        phase_commit(phase=current_phase(game), user=gm_user)
        day = current_phase(game)
        day.closes_at = dt.datetime(2026, 3, 12, 22, 0, tzinfo=ROME)
        day.save(update_fields=["closes_at"])
    topic_settings_update(game=game, user=gm_user, votes_from_topic=True,
                          vote_lines=["Voto Nome"], withdraw_lines=["#ritiro"], aliases="",
                          gm_names=[])  # fmt: skip
    page = "\n".join(["Sam", "Messaggi: 4", "Re: Giorno 1", "Messaggio da Sam » Oggi, 21:00",
                      "Voto Gino", "Top"])  # fmt: skip
    client.force_login(gm_user)
    url = reverse("games:topic_import", args=[game.pk])
    with time_machine.travel(dt.datetime(2026, 3, 13, 19, 0, tzinfo=ROME), tick=False):
        now = client.post(url, {"text": page, "action": "preview"}).content.decode()
        copied = {"text": page, "copied_at": "2026-03-12T22:30"}
        then = client.post(url, {**copied, "action": "preview"}).content.decode()
        assert 'name="copied_at" value="2026-03-12T22:30:00"' in then  # kept by the preview
        client.post(url, {**copied, "action": "save"})
        future = client.post(url, {**copied, "copied_at": "2026-03-13T20:00", "action": "preview"},
                             follow=True).content.decode()  # fmt: skip
    assert "Salva 0 voti" in now  # read as today, 13 March 21:00: not in the day
    assert "Salva 1 voto" in then
    vote = Submission.objects.get(phase=day, source="topic")
    assert (vote.target.name, vote.at) == ("Gino", dt.datetime(2026, 3, 12, 21, 0, tzinfo=ROME))
    assert "Ora della copia non valida" in future


def test_a_page_read_again_keeps_the_order_of_one_minutes_posts(day, gm_user):
    """Issue 32 (found by bench/follow.py): a forum that shows minutes shows Sam's two
    posts of one minute alike. Read once with only the first ("Voto Gino", the same as
    his vote), then with the second ("Voto Mia", stored), the page read a third time
    must not take the first for a change back to Gino: it is above the stored one."""
    minute = (BASE - dt.timedelta(minutes=20)).strftime("%d/%m/%Y %H:%M")
    earlier = (BASE - dt.timedelta(minutes=40)).strftime("%d/%m/%Y %H:%M")
    first = f"Sam — {earlier}\nVoto Gino\n\nSam — {minute}\nVoto Gino\n"
    both = first + f"\nSam — {minute}\nVoto Mia\n"
    topic_import_save(phase=day, text=first, fmt="", decisions={}, user=gm_user)
    topic_import_save(phase=day, text=both, fmt="", decisions={}, user=gm_user)
    again = topic_import_preview(phase=day, text=both)
    assert [r.status for r in again.rows] == [ALREADY, SAME, ALREADY]
    assert not again.to_store


def test_a_post_that_mentions_a_vote_is_listed_with_why_it_was_not_counted(day):
    """Class 8: the GM sees the post, its author and time, and can count it."""
    text = thread(("Sam", 20, "Io voto Gino, che ieri taceva."), ("Mia", 10, "ciao a tutti"))
    preview = topic_import_preview(phase=day, text=text)
    (row,) = preview.rows
    assert (row.post.author, row.status, row.said.text) == (
        "Sam",
        ASK,
        "Io voto Gino, che ieri taceva.",
    )
    assert "non contato" in row.note
    assert row.target_choices  # one click: the GM picks the player
    assert preview.chatter == 1


def test_a_page_over_the_bound_is_refused_in_italian(day):
    with pytest.raises(ValidationError, match="troppo lunga"):
        topic_import_preview(phase=day, text="x" * 2_000_001)


def test_the_import_page_shows_a_late_edit_with_its_notice_and_a_big_page_is_refused(
    client, day, gm_user
):
    day.closes_at = BASE - dt.timedelta(minutes=30)
    day.save(update_fields=["closes_at"])
    edited = (BASE - dt.timedelta(minutes=10)).strftime("%d/%m/%Y, %H:%M")
    text = thread(("Sam", 120, "Voto Gino"),
                  ("Sam", 60, f"Voto Mia\nModificato da Sam - {edited}"))  # fmt: skip
    client.force_login(gm_user)
    url = reverse("games:topic_import", args=[day.game.pk])
    page = client.post(url, {"text": text, "action": "preview"}).content.decode()
    assert "modificato dopo la scadenza" in page
    assert f"avviso di modifica: «Modificato da Sam - {edited}»" in page
    assert "Salva 1 voto" in page
    deep = "<!DOCTYPE html><html><body>" + "<div>" * 3000
    response = client.post(url, {"text": deep, "action": "preview"}, follow=True)
    assert "annidati troppo a fondo" in response.content.decode()


def test_an_ambiguous_name_offers_every_candidate_first_and_chooses_none(day):
    """Class 7: "Sam o Mia" is neither; punctuation and case aside, a name is exact."""
    text = thread(("Pao", 20, "Voto Sam o Mia, non so"), ("Nora", 10, "Voto: GI-NO"))
    either, exact = topic_import_preview(phase=day, text=text).rows
    assert (either.status, either.target, either.note) == (ASK, None, "nome ambiguo")
    assert {p.name for p in either.target_choices[:2]} == {"Sam", "Mia"}
    assert (exact.status, exact.target.name) == (NEW, "Gino")
