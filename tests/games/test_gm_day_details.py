"""Issue 31, the minors: small faults a new GM met on two game days."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse
from django.utils import translation

from games.forms.signup import parse_player_names, signup_lines
from games.models import Phase, Will
from games.services.deadlines import phase_extend
from games.services.game import player_link_issue
from games.services.phases import current_phase, phase_commit, phase_undo
from games.services.submissions import action_submit, vote_cast, will_save
from games.templatetags.wording import phase_time
from games.text.words import moment
from tests.factories import WWW_NAMES, make_game, new_game_data

pytestmark = pytest.mark.django_db


def test_every_page_names_its_icon_and_favicon_ico_answers(client, gm_user):
    """Issue 31 minor: every page logged a 404 for /favicon.ico."""
    client.force_login(gm_user)
    html = client.get(reverse("dashboard")).content.decode()
    assert '<link rel="icon" href="/static/favicon.svg"' in html
    assert finders.find("favicon.svg")
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response.url == "/static/favicon.svg"


def test_one_italian_date_style_in_posts_and_pages(client, gm_user, day):
    """Issue 31 minor: the posts wrote "Giovedì 3 Dicembre, 22:00", the pages "giovedì
    3 dicembre": one helper writes both, in Italian typography."""
    game = day.game
    post = game.phases.get(label="N0").outcome["posts"]["bbcode"]
    stamp = moment(day.closes_at)
    assert stamp == stamp.lower()
    assert ", ore " in stamp
    assert f"entro {stamp}." in post
    html = client.get(reverse("games:phase", args=[game.pk])).content.decode()
    assert stamp in html  # the deadline on the phase page
    assert not re.search(r"(Lunedì|Martedì|Mercoledì|Giovedì|Venerdì|Sabato|Domenica) \d", html)
    with translation.override("en"):
        assert re.fullmatch(r"[A-Z][a-z]+day \d+ [A-Z][a-z]+, \d\d:\d\d", moment(day.closes_at))


def test_count_now_says_giorno_1_and_both_pasteables_have_a_copy_button(client, gm_user, day):
    """Issue 31 minor: "Conta adesso" and "Promemoria da incollare" had no copy button;
    the count post said "Conteggio voti di D1" where everything else says "Giorno 1"."""
    html = client.get(reverse("games:count_now", args=[day.game.pk])).content.decode()
    assert "Conteggio voti di Giorno 1 (" in html
    assert 'data-copy-from="count-bbcode"' in html
    assert 'id="count-bbcode"' in html
    assert 'data-copy-from="count-markdown"' in html
    assert 'id="count-markdown"' in html
    html = client.get(reverse("games:phase", args=[day.game.pk])).content.decode()
    assert 'id="reminder"' in html
    assert 'data-copy-from="reminder"' in html


def test_death_posts_are_worded_for_every_player(gm_user):
    """Issue 31 minor: "Stanotte è morto Grimilde". A player has no declared gender, so
    the posts that name the dead use a neutral form."""
    game = make_game(gm_user)
    phase_commit(phase=current_phase(game), user=gm_user)  # N0
    condemned, victim = game.players.filter(role="cowboy").order_by("seat")[:2]
    vote_cast(phase=current_phase(game), player=game.players.get(role="sceriffo"),
              target=condemned)  # fmt: skip
    phase_commit(phase=current_phase(game), user=gm_user)  # D1
    action_submit(phase=current_phase(game), player=game.players.get(role="indiano"),
                  target=victim)  # fmt: skip
    phase_commit(phase=current_phase(game), user=gm_user)  # N1
    day_post = game.phases.get(label="D1").outcome["posts"]["bbcode"]
    night_post = game.phases.get(label="N1").outcome["posts"]["bbcode"]
    assert f"Il villaggio giustizia {condemned.name}." in day_post
    assert f"Stanotte muore {victim.name}." in night_post
    for post in (day_post, night_post):
        assert "giustiziato" not in post
        assert "è morto" not in post


def test_a_new_link_replaces_a_working_one_only_once_confirmed(client, gm_user):
    """Issue 31 minor: "Nuovo link" replaced a player's link on one click. The page asks
    first (a native <details>, no JavaScript), and a POST without the confirmation
    changes nothing."""
    client.force_login(gm_user)
    game = make_game(gm_user)
    player = game.players.get(role="maresciallo")
    player_link_issue(player=player)
    player.refresh_from_db()
    before = player.token_hash
    html = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    row = html.split(f'id="player-{player.pk}"')[1].split("</tr>")[0]
    assert '<details class="rotate"><summary>Nuovo link</summary>' in row
    assert f"Sì, nuovo link per {player.name}" in row
    assert 'name="confirm" value="1"' in row
    client.post(reverse("games:rotate", args=[game.pk, player.pk]))
    player.refresh_from_db()
    assert player.token_hash == before
    client.post(reverse("games:rotate", args=[game.pk, player.pk]), {"confirm": "1"})
    player.refresh_from_db()
    assert player.token_hash != before


def login_as(client, player):
    client.get(reverse("player_enter", args=[player_link_issue(player=player)]))


def executed_cowboy(gm_user):
    """A Wild West Wolf game on Night 1 (open until 2099), its first cowboy executed on D1."""
    game = make_game(gm_user)
    phase_commit(phase=current_phase(game), user=gm_user)  # N0
    day = current_phase(game)
    cowboy = game.players.filter(role="cowboy").order_by("seat").first()
    vote_cast(phase=day, player=game.players.get(role="sceriffo"), target=cowboy)
    Phase.objects.filter(pk=day.pk).update(closes_at=dt.datetime(2099, 1, 1, 21, tzinfo=dt.UTC))
    phase_commit(phase=day, user=gm_user)
    return game, cowboy


def test_a_dead_player_is_not_told_the_open_phase_is_closed(client, gm_user):
    """Issue 31 minor: dead players' pages said "Questa fase è chiusa: il master sta
    risolvendo" while the phase was open."""
    game, cowboy = executed_cowboy(gm_user)
    assert current_phase(game).status == Phase.Status.OPEN
    login_as(client, cowboy)
    html = client.get(reverse("player_home")).content.decode()
    assert "Questa fase è chiusa" not in html
    assert "Da morto non hai nulla da inviare in questa fase." in html


def test_a_dead_player_saves_a_draft_then_hands_in_once_confirmed(client, gm_user):
    """Issue 31 minor, WWW-R46: a dead player had only the irreversible hand-in, with no
    "Salva la bozza" and no confirmation; and the page after the hand-in (htmx) still
    said "Entrerai nel Cimitero quando consegni…"."""
    _game, cowboy = executed_cowboy(gm_user)
    login_as(client, cowboy)
    html = client.get(reverse("player_home")).content.decode()
    will = html.split('id="will"')[1]
    assert 'name="draft" value="1"' in will
    assert "Salva la bozza" in will
    assert '<details class="hand-in"><summary>Consegna il testamento</summary>' in will
    assert "Sì, consegna il testamento" in will
    client.post(reverse("player_will"), {"text": "Bozza da morto.", "draft": "1"})
    saved = Will.objects.get(player=cowboy)
    assert saved.text == "Bozza da morto."
    assert saved.handed_in_at is None
    html = client.get(reverse("player_home")).content.decode()
    assert "Entrerai nel Cimitero quando consegni il testamento" in html
    assert 'name="hand_in"' in html  # still his to correct
    answer = client.post(reverse("player_will"), {"text": "Addio.", "hand_in": "1"},
                         HTTP_HX_REQUEST="true").content.decode()  # fmt: skip
    assert Will.objects.get(player=cowboy).handed_in_at is not None
    assert "Testamento consegnato." in answer
    assert "Entrerai nel Cimitero" not in answer
    assert "Puoi accedere al Cimitero." in answer


def test_the_pianista_chooses_from_scegli_and_reads_the_role_name(client, gm_user):
    """Issue 31 minor: the Pianista's N0 select had no "— scegli —" and the saved choice
    showed the raw key ("maresciallo")."""
    game = make_game(gm_user)
    pianista = game.players.get(role="pianista")
    login_as(client, pianista)
    html = client.get(reverse("player_home")).content.decode()
    select = html.split('name="fake_role"')[1].split("</select>")[0]
    assert select.split("<option")[1].startswith(' value="">— scegli —</option>')
    action_submit(phase=current_phase(game), player=pianista, fake_role="maresciallo")
    html = client.get(reverse("player_home")).content.decode()
    assert "Scelta attuale: Maresciallo (" in html
    assert "Scelta attuale: maresciallo" not in html


def test_the_bandito_reads_the_law_phase_he_chose(client, gm_user):
    """Issue 31 minor: the Bandito/Pistolero's "Scelta attuale" did not repeat the Law
    phase chosen (WWW-R57); the phases are named by their card, not their key."""
    game = make_game(gm_user)
    phase_commit(phase=current_phase(game), user=gm_user)  # N0
    phase_commit(phase=current_phase(game), user=gm_user)  # D1
    bandito = game.players.get(role="bandito")
    target = game.players.filter(role="cowboy").first()
    action_submit(phase=current_phase(game), player=bandito, target=target, during="notaio")
    login_as(client, bandito)
    html = client.get(reverse("player_home")).content.decode()
    form = html.split('value="recruit"')[1].split("</form>")[0]
    assert '<option value="notaio" selected>Notaio</option>' in form
    assert f"Scelta attuale: {target.name}, durante la fase di Notaio (" in form


def test_a_choice_replaced_by_the_same_players_later_one_is_marked(client, gm_user):
    """Issue 31 minor: a group choice replaced by the same player's later choice was not
    marked on the GM's list, unlike withdrawn or corrected rows."""
    game = make_game(gm_user)
    phase_commit(phase=current_phase(game), user=gm_user)  # N0
    phase_commit(phase=current_phase(game), user=gm_user)  # D1
    night = current_phase(game)
    indian = game.players.get(role="indiano")
    first, second = game.players.filter(role="cowboy").order_by("seat")[:2]
    old = action_submit(phase=night, player=indian, target=first)
    new = action_submit(phase=night, player=indian, target=second)
    client.force_login(gm_user)
    html = client.get(reverse("games:phase", args=[game.pk])).content.decode()
    old_row = html.split(f'id="submission-{old.pk}"')[1].split("</tr>")[0]
    new_row = html.split(f'id="submission-{new.pk}"')[1].split("</tr>")[0]
    assert old_row.startswith(' class="superseded"')
    assert "sostituita da una sua scelta successiva" in old_row
    assert "superseded" not in new_row.split(">")[0]
    assert "sostituita" not in new_row


def test_the_players_current_vote_shows_the_date_when_not_the_days(client, gm_user):
    """Issue 31 major 2's note (issue 31 minor): "Voto attuale" and the group choices
    show the date when the time is not on the phase's day."""
    game = make_game(gm_user)
    phase_commit(phase=current_phase(game), user=gm_user)  # N0
    day = current_phase(game)
    voter = game.players.get(role="sceriffo")
    target = game.players.filter(role="cowboy").first()
    earlier = day.closes_at - dt.timedelta(days=1, hours=1)
    Phase.objects.filter(pk=day.pk).update(opened_at=earlier - dt.timedelta(hours=1))
    day.refresh_from_db()
    vote_cast(phase=day, player=voter, target=target, at=earlier)
    login_as(client, voter)
    html = client.get(reverse("player_home")).content.decode()
    line = html.split("Voto attuale:")[1].split("</p>")[0]
    with translation.override("it"):
        assert phase_time(earlier, day) in line
    assert re.search(r"\((lun|mar|mer|gio|ven|sab|dom) \d+ \w+ \d\d:\d\d:\d\d\)", line)


def test_the_audit_log_writes_each_event_as_a_sentence(client, gm_user):
    """Issue 31 minor: the log showed "vecchio nome / nuovo nome" for a deadline move and
    raw keys (deaths, kept_submissions, held, handed_in...)."""
    game, cowboy = executed_cowboy(gm_user)
    night = current_phase(game)
    new = night.closes_at + dt.timedelta(hours=1)
    phase_extend(phase=night, closes_at=new, user=gm_user, reason="ritardo")
    will_save(player=cowboy, text="Addio a tutti.")
    phase_undo(game=game, user=gm_user)
    client.force_login(gm_user)
    html = client.get(reverse("games:audit", args=[game.pk])).content.decode()
    for raw in ("vecchio nome", "nuovo nome", "deaths", "kept_submissions", "held",
                "handed_in", "morti</span>"):  # fmt: skip
        assert raw not in html, raw
    assert f"Giorno 1: fase risolta. Morti: {cowboy.name}." in html
    assert "Notte 0: fase risolta, nessun morto." in html
    assert f"Scadenza di Notte 1 spostata da {moment(night.closes_at)} a {moment(new)}." in html
    assert "Motivo: ritardo." in html
    assert "Testamento consegnato (3 parole)." in html
    assert "Risoluzione di Giorno 1 annullata." in html
    assert "Giorno 1, voto: " + cowboy.name + "." in html


def test_a_one_line_reserves_list_is_not_a_player():
    """Issue 31 minor: a one-line "Riserve: A, B" was read as a player."""
    text = "\n".join(["ISCRITTI (3/3):", "1. Ada", "2. Bea", "3. Cid", "Riserve: Dan, Eva", "Fede"])
    lines = signup_lines(text)
    assert [line.name for line in lines if line.name] == ["Ada", "Bea", "Cid"]
    reserve = next(line for line in lines if line.text.startswith("Riserve"))
    assert reserve.note == "riserva"
    assert parse_player_names(text, expected=3) == ["Ada", "Bea", "Cid"]
    assert [line.name for line in signup_lines("Ada\nriserva: Bob")] == ["Ada", ""]


def test_a_wrong_count_shows_the_list_as_read(client, gm_user):
    """Issue 31 minor: a wrong count did not show the list as read, so the GM had to find
    the bad line by trial."""
    client.force_login(gm_user)
    players = "\n".join([*WWW_NAMES[:15], "Tizio e Caio"])  # one line short: 15 + a pair
    data = new_game_data(players=players + "\n" + "Sempronio", confirmed="")
    html = client.post(reverse("games:new"), data).content.decode()
    assert "Servono esattamente 16 giocatori: ne hai incollati 17." in html
    assert 'id="signup-lines"' in html
    assert "<strong>Tizio e Caio</strong>" in html
