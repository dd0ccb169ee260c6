"""Wills on the site (WWW-R41..R48, WWW-D22, WWW-D23): written while allowed, frozen at
hand-in or deadline, read in full by the Notaio's recipient, by the GM and in the spoiler."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from games.models import Game, Phase, Will
from games.services.phases import current_phase, override_add, phase_commit
from games.services.submissions import vote_cast, will_save
from roles.engine.wills import WORD_PATTERN, cut_will, word_count
from tests.factories import (
    LONG_WILL,
    SHORT_WILL,
    login_as,
    make_game,
    notaio_delivers_two_wills,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("before_noon")]


def test_words_are_whitespace_tokens_like_str_split_on_every_character():
    """WWW-D22: words are whitespace-separated tokens; the one pattern the server and the
    page share splits exactly where Python's str.split does."""
    import re

    word = re.compile(WORD_PATTERN)
    for code in range(0x110000):
        char = chr(code)
        assert char.isspace() == (word.fullmatch(char) is None), hex(code)
    tricky = "  a\u00a0b\u2003c\u200bd\ufeffe\x1cf\u0085g\t\n h  "
    assert word_count(tricky) == len(tricky.split())


def test_cut_keeps_the_text_up_to_the_150th_word_with_its_line_breaks():
    """WWW-R45: the words after the 150th are not reported."""
    cut = cut_will(LONG_WILL, 150)
    assert (cut.words, cut.dropped, cut.last_word) == (174, 24, "parola150")
    assert cut.kept.split() == [f"parola{n}" for n in range(1, 151)]
    assert "\n" in cut.kept
    assert cut.kept.endswith("parola150")
    assert cut_will("  Addio.  ", 150).kept == "Addio."


def test_the_recipient_reads_every_delivered_will_cut_after_150_words(client, gm_user):
    """WWW-R42, WWW-R45, WWW-D22: the Notaio's recipient reads each will with its author's
    name, the long one cut after its 150th word and the cut shown."""
    _game, recipient, first, second = notaio_delivers_two_wills(gm_user)
    login_as(client, recipient)
    html = client.get(reverse("player_home")).content.decode()
    section = html.split('id="delivered-wills"')[1].split("</section>")[0]
    assert f"Testamento di {first.name}" in section
    assert f"Testamento di {second.name}" in section
    assert 'parola150 <span class="will-cut">[…]</span>' in section
    assert "parola151" not in section
    assert "Tagliato dopo la 150ª parola: 24 parole non riportate." in section
    assert "Fidatevi dello Sceriffo.<br>Io ero un semplice cowboy." in section


def test_the_gm_reads_every_will_at_any_time_even_a_draft(client, gm_user, django_user_model):
    """WWW-R41: the Notaio does not know the content; the GM does, whole, with the cut."""
    game, recipient, _first, _second = notaio_delivers_two_wills(gm_user)
    will_save(player=recipient, text="Bozza di un vivo.")
    client.force_login(gm_user)
    html = client.get(reverse("games:wills", args=[game.pk])).content.decode()
    assert "Bozza di un vivo." in html
    assert "bozza (l&#x27;autore è vivo)" in html
    assert "parola151" in html  # the GM sees the words after the cut too, struck
    assert '<del class="will-dropped">parola151' in html
    assert f"{recipient.name} (N2)" in html  # to whom it was delivered
    assert "Il taglio cade dopo la 150ª parola, «parola150»: 24 parole" in html
    other = django_user_model.objects.create_user(username="other", password="pw-other-1")
    client.force_login(other)
    assert client.get(reverse("games:wills", args=[game.pk])).status_code == 404


def test_the_spoiler_holds_the_wills(client, gm_user):
    """WWW-R41..R45: after the game, the spoiler (page and JSON) has every will."""
    game, recipient, first, second = notaio_delivers_two_wills(gm_user)
    day = current_phase(game)
    for indian in game.players.filter(role__in=["capo_indiano", "sciamano", "indiano"]):
        override_add(phase=day, user=gm_user, kind="kill", player=indian, reason="fine")
    phase_commit(phase=day, user=gm_user)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    client.force_login(gm_user)
    data = client.get(reverse("games:spoiler", args=[game.pk]) + "?format=json").json()
    wills = {w["author"]: w for w in data["wills"]}
    assert wills[first.name]["text"] == LONG_WILL
    assert wills[first.name]["cut"] is True
    assert wills[first.name]["words"] == 174
    assert wills[first.name]["delivered_to"] == [{"phase": "N2", "to": recipient.name}]
    assert wills[second.name]["text"] == SHORT_WILL
    html = client.get(reverse("games:spoiler", args=[game.pk])).content.decode()
    assert "Io ero un semplice cowboy." in html.split('id="wills"')[1]


def test_a_handed_in_will_is_frozen_and_the_notaio_delivers_it_unchanged(client, gm_user):
    """WWW-R46 (issue 9, finding 6): once a dead player hands in his will it cannot be
    rewritten, from his page or the Cemetery; the Notaio delivers the text handed in."""
    _game, recipient, first, _second = notaio_delivers_two_wills(gm_user)
    login_as(client, first)
    html = client.get(reverse("player_home")).content.decode()
    assert "Hai consegnato il testamento" in html
    assert 'name="text"' not in html  # no form: the will is frozen
    client.post(reverse("player_will"), {"text": "Riscritto dopo la consegna."})
    assert Will.objects.get(player=first).text == LONG_WILL
    with pytest.raises(ValidationError, match="non si può più modificare"):
        will_save(player=first, text="Riscritto dopo la consegna.")
    login_as(client, recipient)
    html = client.get(reverse("player_home")).content.decode()
    assert "Riscritto" not in html
    assert "parola150" in html


def test_a_will_freezes_at_its_deadline_as_it_stood(client, gm_user):
    """WWW-R46, WWW-D23: a dead player who does not hand in his draft may correct it until
    the deadline (22:30 for a day death); then it stands as it was, and counts."""
    game = make_game(gm_user)
    cowboy = game.players.filter(role="cowboy").first()
    will_save(player=cowboy, text="Bozza scritta da vivo.")  # a draft: not handed in
    assert Will.objects.get(player=cowboy).handed_in_at is None
    phase_commit(phase=current_phase(game), user=gm_user)  # N0
    day = current_phase(game)
    vote_cast(phase=day, player=game.players.get(role="sceriffo"), target=cowboy)
    phase_commit(phase=day, user=gm_user)
    login_as(client, cowboy)
    html = client.get(reverse("player_home")).content.decode()
    assert "Consegna il testamento" in html
    assert "Bozza scritta da vivo." in html
    Phase.objects.filter(pk=day.pk).update(closes_at=dt.datetime(2020, 1, 1, 21, tzinfo=dt.UTC))
    html = client.get(reverse("player_home")).content.decode()
    assert "Il termine per il testamento è scaduto" in html
    client.post(reverse("player_will"), {"text": "Troppo tardi."})
    assert Will.objects.get(player=cowboy).text == "Bozza scritta da vivo."
    from games.services.phases import phase_preview

    preview = phase_preview(current_phase(game))
    assert preview.inputs.wills == {str(cowboy.seat): "Bozza scritta da vivo."}


def test_a_draft_is_not_handed_in_before_the_deadline(gm_user):
    """WWW-D22: a will counts once handed in (or at its deadline), not while it is a draft."""
    game = make_game(gm_user)
    cowboy = game.players.filter(role="cowboy").first()
    will_save(player=cowboy, text="Bozza.")
    phase_commit(phase=current_phase(game), user=gm_user)  # N0
    day = current_phase(game)
    vote_cast(phase=day, player=game.players.get(role="sceriffo"), target=cowboy)
    phase_commit(phase=day, user=gm_user)
    from games.services.phases import phase_preview

    assert phase_preview(current_phase(game)).inputs.wills == {}
    will_save(player=cowboy, text="Consegnato.")
    assert phase_preview(current_phase(game)).inputs.wills == {str(cowboy.seat): "Consegnato."}


def test_nothing_is_editable_after_the_end(gm_user):
    """Issue 9, finding 6: after the end no will changes, not even a living player's."""
    game = make_game(gm_user)
    cowboy = game.players.filter(role="cowboy").first()
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    cowboy.refresh_from_db()
    with pytest.raises(ValidationError, match="La partita è finita"):
        will_save(player=cowboy, text="Dopo la fine.")
    assert not Will.objects.filter(player=cowboy).exists()


def test_the_living_keep_a_draft_and_the_page_says_when_it_freezes(client, gm_user):
    """WWW-R46, WWW-D23: a draft while alive, with when it will be frozen."""
    game = make_game(gm_user)
    cowboy = game.players.filter(role="cowboy").first()
    login_as(client, cowboy)
    html = client.get(reverse("player_home")).content.decode()
    assert "Finché sei vivo è una bozza" in html
    assert "Salva la bozza" in html
    client.post(reverse("player_will"), {"text": "Prima."})
    client.post(reverse("player_will"), {"text": "Seconda."})
    assert Will.objects.get(player=cowboy).text == "Seconda."


def test_loners_get_no_form_and_a_line_saying_why(client, gm_user):
    """WWW-R44: loners cannot write a will, once dead they have already won or lost."""
    game = make_game(gm_user)
    for role in ("pianista", "cacciatore_di_taglie"):
        login_as(client, game.players.get(role=role))
        html = client.get(reverse("player_home")).content.decode()
        assert "data-word-limit" not in html
        assert "I personaggi Solitari non scrivono testamento" in html
        assert 'href="/regolamento/wild-west-wolf/#it-WWW-R44"' in html
        client.post(reverse("player_will"), {"text": "addio"})
    assert not Will.objects.exists()


def test_inquisizione_has_no_will_form(client, gm_user):
    """INQ: the setup has no wills, so no form that goes nowhere."""
    game = make_game(gm_user, setup="inquisizione")
    player = game.players.first()
    login_as(client, player)
    html = client.get(reverse("player_home")).content.decode()
    assert "testamento" not in html.lower()
    with pytest.raises(ValidationError):
        will_save(player=player, text="addio")


def test_without_javascript_the_count_and_the_cut_come_from_the_server(client, gm_user):
    """WWW-R45: the counter's first value and where the cut falls are rendered by the
    server with the same function, and the page gets the server's word pattern."""
    game = make_game(gm_user)
    cowboy = game.players.filter(role="cowboy").first()
    login_as(client, cowboy)
    client.post(reverse("player_will"), {"text": LONG_WILL})
    html = client.get(reverse("player_home")).content.decode()
    assert "<span data-word-count>174</span> / 150" in html
    assert "Il taglio cade dopo la 150ª parola, «parola150»: 24 parole oltre il limite" in html
    assert "data-word-pattern=" in html


def test_an_undone_death_gives_the_will_back_as_a_draft(gm_user):
    """WWW-R46: the hand-in freezes the will of a dead player; if the GM undoes the death,
    the player is alive again and his will is a draft he may change (and not handed in)."""
    from games.services.phases import phase_undo

    game = make_game(gm_user)
    phase_commit(phase=current_phase(game), user=gm_user)  # N0
    day = current_phase(game)
    cowboy = game.players.filter(role="cowboy").first()
    vote_cast(phase=day, player=game.players.get(role="sceriffo"), target=cowboy)
    phase_commit(phase=day, user=gm_user)
    will_save(player=cowboy, text="Consegnato da morto.")
    phase_undo(game=game, user=gm_user)
    will = will_save(player=cowboy, text="Di nuovo vivo.")
    assert will.text == "Di nuovo vivo."
    assert will.handed_in_at is None
