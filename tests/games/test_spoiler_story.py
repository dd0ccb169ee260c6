"""The end-of-game spoiler (issue 13, section 4): the whole story, phase by phase, from the
record: night actions, votes with their times and changes, the Boia's secret vote, the
Templare's designation, the GM's corrections with their reasons, the results and the wills;
as a forum post (BBCode with [spoiler] blocks, Markdown with <details>), in Italian or
English, and as JSON; no phase after the end."""

from __future__ import annotations

import re
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse

from games.models import Game, Submission
from games.services.game import player_substitute
from games.services.phases import current_phase, override_add, phase_commit
from games.services.submissions import action_submit, vote_cast
from games.text.spoiler_posts import escape_bbcode, escape_markdown
from tests.factories import make_game
from tests.played import played_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("before_noon")]


def spoiler_of(client, game, **params):
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return client.get(reverse("games:spoiler", args=[game.pk]) + "?" + query)


def block(post: str, title: str) -> str:
    """One phase's [spoiler] block of a BBCode post."""
    return post.split(f"[spoiler={title}]\n", 1)[1].split("[/spoiler]", 1)[0]


def test_the_bbcode_post_tells_every_phase(client, gm_user):
    game = played_game(gm_user)
    zone = ZoneInfo(game.time_zone)
    client.force_login(gm_user)
    post = spoiler_of(client, game, format="bbcode").content.decode()
    assert post.startswith("[b]Spoiler — Partita[/b]\n\nVincitori: ")
    titles = re.findall(r"\[spoiler=([^\]]+)\]", post)
    assert titles == [
        "Ruoli",
        "Notte 0",
        "Giorno 1",
        "Notte 1",
        "Giorno 2",
        "Notte 2",
        "Giorno 3",
        "Testamenti",
    ]  # N3 was opened, never played
    marshal = game.players.get(role="maresciallo")
    indian = game.players.get(role="indiano")
    first, second, third = game.players.filter(role="cowboy").order_by("seat")
    n0 = block(post, "Notte 0")
    first_try, second_try = Submission.objects.filter(player=marshal, kind="action").order_by("at")
    at = f"{second_try.at.astimezone(zone):%H:%M}"
    assert (
        f"[*][s]{first_try.at.astimezone(zone):%H:%M} {marshal.name} (Maresciallo): "
        f"Indaga su: {second.name}[/s]" in n0
    )  # superseded: only the last counts
    assert f"[*]{at} {marshal.name} (Maresciallo): Indaga su: {indian.name}\n" in n0
    assert f"[*]{marshal.name}: {indian.name} è Indiano." in n0  # the result
    d1 = block(post, "Giorno 1")
    sheriff = game.players.get(role="sceriffo")
    notaio = game.players.get(role="notaio")
    votes = d1.split("[b]Voti[/b]\n[list]\n", 1)[1].split("[/list]", 1)[0].splitlines()
    assert [re.sub(r"\d\d:\d\d ", "", v) for v in votes] == [
        f"[*][s]{sheriff.name}: vota {second.name}[/s]",
        f"[*]{sheriff.name}: cambia voto: {first.name}",
        f"[*]{marshal.name}: vota {first.name}",
        f"[*][s]{third.name}: vota {first.name}[/s]",
        f"[*]{third.name}: ritira il suo voto",
        f"[*]{notaio.name}: vota {first.name} — inserito dal master: votato nel thread alle 21:58",
    ]
    assert f"Giustiziato: {first.name} ({first.name} 3)" in d1
    assert f"Muore {first.name}: giustiziato" in d1
    d2 = block(post, "Giorno 2")
    pastore = game.players.get(role="pastore")
    assert f"[b]Correzioni del master[/b]\n[list]\n[*]uccide {pastore.name}: ha abbandonato " \
           "la partita\n[/list]" in d2  # fmt: skip
    assert f"Muore {pastore.name}: correzione del master" in d2
    n2 = block(post, "Notte 2")
    assert f"{notaio.name} (Notaio): Consegna i testamenti a: {third.name}" in n2
    assert f"{third.name}: Il Notaio ti consegna i testamenti di: {first.name}, {second.name}" \
           in n2  # fmt: skip
    wills = block(post, "Testamenti")
    assert "parola174" in wills  # the whole text, for after the game
    assert "[quote]\nFidatevi dello Sceriffo.\nIo ero un semplice cowboy.\n[/quote]" in wills
    assert "Consegnato tagliato: 24 parole non riportate." in wills
    assert f"Consegnato dal Notaio a: {third.name} (N2)" in wills
    roles = block(post, "Ruoli")
    assert f"[*]{third.name} (prima: Ivan): Cowboy" in roles  # the substitution


def test_the_markdown_post_and_the_english_one(client, gm_user):
    game = played_game(gm_user)
    client.force_login(gm_user)
    markdown = spoiler_of(client, game, format="markdown").content.decode()
    assert "<details><summary>Giorno 1</summary>\n\n**Voti**\n" in markdown
    assert markdown.count("<details>") == markdown.count("</details>") == 8
    assert re.search(r"- ~~\d\d:\d\d Capo: vota Bruno~~\n", markdown)
    assert "> Fidatevi dello Sceriffo.  \n> Io ero un semplice cowboy.  \n" in markdown
    english = spoiler_of(client, game, format="bbcode", lang="en").content.decode()
    titles = re.findall(r"\[spoiler=([^\]]+)\]", english)
    assert titles == ["Roles", "Night 0", "Day 1", "Night 1", "Day 2", "Night 2", "Day 3",
                      "Wills"]  # fmt: skip
    for italian in ("Voti", "Esito", "Muore", "Giustiziato", "vota ", "Correzioni", "Indaga",
                    "Consegnato", "Vincitori", "Informazioni"):  # fmt: skip
        assert italian not in english, italian
    assert "changes vote: Pao" in english
    assert "withdraws the vote" in english
    assert "Winners: " in english


def test_the_page_and_the_json_tell_the_same_story(client, gm_user):
    game = played_game(gm_user)
    client.force_login(gm_user)
    data = spoiler_of(client, game, format="json").json()
    assert [p["phase"] for p in data["story"]] == ["N0", "D1", "N1", "D2", "N2", "D3"]
    assert [p["phase"] for p in data["phases"]] == ["N0", "D1", "N1", "D2", "N2", "D3"]
    d1 = data["story"][1]
    assert [v["change"] for v in d1["votes"]] == ["vote", "change", "vote", "vote", "withdraw",
                                                 "vote"]  # fmt: skip
    assert [v["standing"] for v in d1["votes"]] == [False, True, True, False, False, True]
    assert d1["votes"][-1]["by_gm"] is True
    assert d1["execution"]["executed"] == "Pao"
    assert data["story"][3]["overrides"] == [
        {"kind": "kill", "player": "Cac", "step": None, "reason": "ha abbandonato la partita"}
    ]
    assert data["story"][0]["actions"][0]["superseded"] is True
    page = spoiler_of(client, game).content.decode()
    assert '<section class="card" id="phase-D1">' in page
    assert "cambia voto: Pao" in page
    assert "ha abbandonato la partita" in page
    assert 'id="phase-N3"' not in page
    assert "[spoiler=Notte 0]" in page  # the post, ready to copy


def test_the_boia_secret_vote_and_the_templare_designation(client, gm_user):
    """INQ-R45..R47 (the Boia's secret vote, told only in the spoiler) and the Templare's
    standing designation (INQ-R50, INQ-R11), each with its time."""
    game = make_game(gm_user, setup="inquisizione")
    phase_commit(phase=current_phase(game), user=gm_user)  # N0
    day = current_phase(game)
    boia = game.players.get(role="boia")
    templare = game.players.get(role="templare")
    wolf = game.players.filter(role="lupo_mannaro").first()
    decoy = game.players.get(role="contadino") if game.players.filter(role="contadino").count() \
        == 1 else game.players.filter(role="contadino").first()  # fmt: skip
    vote_cast(phase=day, player=boia, target=decoy)
    vote_cast(phase=day, player=boia, target=wolf, secret=True)
    action_submit(phase=day, player=templare, target=wolf)
    phase_commit(phase=day, user=gm_user)
    day = current_phase(game)  # N1: end the game by the GM's corrections
    wolves = game.players.filter(role__in=["lupo_mannaro", "lupo_scorbutico"])
    for wolf_player in wolves:
        override_add(phase=day, user=gm_user, kind="kill", player=wolf_player, reason="fine")
    phase_commit(phase=day, user=gm_user)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    client.force_login(gm_user)
    post = spoiler_of(client, game, format="bbcode").content.decode()
    d1 = block(post, "Giorno 1")
    assert re.search(rf"\[b\]Voto segreto\[/b\]\n\[list\]\n\[\*\]\d\d:\d\d {boia.name}: "
                     rf"vota {wolf.name}\n", d1)  # fmt: skip
    assert re.search(rf"\[\*\]\d\d:\d\d {templare.name} \(Templare\): Designa, se muori: "
                     rf"{wolf.name}\n", d1)  # fmt: skip
    assert f"Giustiziato: {wolf.name} ({wolf.name} 3)" in d1  # the secret vote counted 3


def test_names_and_texts_are_escaped_in_both_formats(client, gm_user):
    """A forum name that looks like markup reads as written."""
    assert escape_bbcode("[b]Ugo[/b]") == "[\u200bb]Ugo[\u200b/b]"
    # the one escaping of every post (issue 27 §7): brackets escaped, so "(y)" links nothing
    assert escape_markdown("*Ada*_[x](y)") == r"\*Ada\*\_\[x\](y)"
    game = played_game(gm_user)
    player_substitute(player=game.players.get(seat=1), new_name="[b]Ugo*", user=gm_user)
    client.force_login(gm_user)
    bbcode = spoiler_of(client, game, format="bbcode").content.decode()
    assert "[b]Ugo*" not in bbcode
    assert "[\u200bb]Ugo*" in bbcode
    markdown = spoiler_of(client, game, format="markdown").content.decode()
    assert r"\[b\]Ugo\*" in markdown


def test_a_secret_abstention_reads_as_one():
    """INQ-D7a: the Boia's secret vote for nobody is an abstention, not a withdrawal."""
    import datetime as dt
    from types import SimpleNamespace

    from games.selectors.spoiler import _votes

    boia, wolf = SimpleNamespace(name="Boi"), SimpleNamespace(name="Lupo")
    at = dt.datetime(2026, 12, 1, 20, 0, tzinfo=dt.UTC)

    def sub(target, abstain=False, minutes=0):
        return SimpleNamespace(player_id=1, player=boia, target_id=2 if target else None,
                               target=target, abstain=abstain, entered_by_id=None, reason="",
                               at=at + dt.timedelta(minutes=minutes))  # fmt: skip

    events = _votes([sub(wolf), sub(None, abstain=True, minutes=5), sub(None, minutes=9)],
                    ZoneInfo("Europe/Rome"))  # fmt: skip
    assert [(e["time"], e["change"], e["standing"]) for e in events] == [
        ("21:00", "vote", False), ("21:05", "abstain", False), ("21:09", "withdraw", False),
    ]  # fmt: skip
