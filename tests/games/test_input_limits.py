"""Issue 9: hostile input. #3: NUL bytes, control characters, garbage ids and undecodable
charsets are refused by a form with a clear message, never a 500, nothing stored. #9: a
player's submissions are throttled, and the vote-count post stays readable however many
changes a voter makes. #10: names cannot carry control or bidi characters, and every name
is escaped in the BBCode and Markdown posts."""

from __future__ import annotations

import datetime as dt
import re

import pytest
import time_machine
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from games.forms.signup import parse_player_names
from games.models import AuditEvent, Game, Player, Submission, Will
from games.selectors.board import timed_tally
from games.services.commit import forum_posts
from games.services.game import player_substitute
from games.services.phases import current_phase, phase_commit, phase_preview
from games.services.submissions import vote_cast
from games.text.posts import MAX_CHANGES_SHOWN, escape
from tests.factories import WWW_NAMES, day_one, login_as, make_game, new_game_data

pytestmark = pytest.mark.django_db
RLO = "\u202e"


def stored() -> tuple[int, int, int]:
    return Submission.objects.count(), Will.objects.count(), AuditEvent.objects.count()


@pytest.mark.parametrize("field", ["target", "phase", "text"])
def test_3_nul_in_a_players_post_is_refused_with_a_message(client, gm_user, field):
    game, day = day_one(gm_user)
    sheriff = game.players.get(role="sceriffo")
    login_as(client, sheriff)
    before = stored()
    data = {"target": game.players.get(role="indiano").name, "phase": day.pk}
    data[field] = "Ada\x00"
    url = reverse("player_will" if field == "text" else "player_vote")
    response = client.post(url, data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert 'role="alert"' in response.content.decode()
    assert stored() == before


@pytest.mark.parametrize("value", ["abc", "99999999999999999999999", "-1", "1e3", "\x00"])
def test_3_garbage_ids_in_gm_forms_are_refused_with_a_message(client, gm_user, value):
    game, day = day_one(gm_user)
    client.force_login(gm_user)
    before = stored()
    sheriff = game.players.get(role="sceriffo")
    posts = {
        "gm_vote": {"voter": value, "target": sheriff.pk, "reason": "r"},
        "gm_action": {"actor": value, "target": value, "reason": "r"},
        "gm_override": {"player": value, "kind": "spare", "reason": "r"},
        "gm_commit": {"phase": value},
        "gm_deadline": {"phase": value, "action": "pause", "reason": "r\x00"},
    }
    for name, data in posts.items():
        response = client.post(reverse(f"games:{name}", args=[game.pk]), data, follow=True)
        assert response.status_code == 200, name
        assert 'class="error"' in response.content.decode(), name
    assert stored() == before
    assert current_phase(game).pk == day.pk


@pytest.mark.parametrize("value", ["99999999999999999999999", "abc"])
def test_3_huge_ids_in_urls_are_404(client, gm_user, value):
    client.force_login(gm_user)
    assert client.get(f"/partite/{value}/").status_code == 404
    assert client.post(f"/partite/1/giocatori/{value}/link/").status_code == 404


def test_3_nul_in_a_reason_or_a_substitutes_name_is_refused(client, gm_user):
    game, _day = day_one(gm_user)
    client.force_login(gm_user)
    sheriff = game.players.get(role="sceriffo")
    before = stored()
    vote = {"voter": sheriff.pk, "target": game.players.get(role="indiano").pk, "reason": "a\x00"}
    page = client.post(reverse("games:gm_vote", args=[game.pk]), vote, follow=True)
    assert "caratteri invisibili o di controllo (U+0000)" in page.content.decode()
    url = reverse("games:substitute", args=[game.pk, sheriff.pk])
    page = client.post(url, {"name": "Nuovo\x00"}, follow=True)
    assert page.status_code == 200
    assert "Null characters are not allowed" in page.content.decode() or "nul" in (
        page.content.decode().lower()
    )
    assert stored() == before
    assert Player.objects.get(pk=sheriff.pk).name == sheriff.name


UNREADABLE = ["rot13", "base64", "idna", "zlib", "hex"]
CHARSETS = [*UNREADABLE, "punycode", "latin-1", "utf-16"]


@pytest.mark.parametrize("charset", CHARSETS)
def test_3_a_body_in_a_charset_django_cannot_read_is_a_400(client, gm_user, charset):
    """A urlencoded body must be UTF-8 (Django's own rule); a multipart one in a charset
    that cannot be decoded is refused too."""
    game, day = day_one(gm_user)
    login_as(client, game.players.get(role="sceriffo"))
    before = stored()
    body = f"phase={day.pk}&target=Ada".encode()
    urlencoded = f"application/x-www-form-urlencoded; charset={charset}"
    response = client.generic("POST", reverse("player_vote"), body, content_type=urlencoded)
    assert response.status_code == 400
    assert stored() == before
    multipart = (f'--x\r\nContent-Disposition: form-data; name="phase"\r\n\r\n{day.pk}\r\n'
                 "--x--\r\n").encode()  # fmt: skip
    form_data = f"multipart/form-data; boundary=x; charset={charset}"
    response = client.generic("POST", reverse("player_vote"), multipart, content_type=form_data)
    if charset in UNREADABLE:
        assert response.status_code == 400
        assert "UTF-8" in response.content.decode()
        assert stored() == before
    else:
        assert response.status_code == 302


@pytest.mark.parametrize("charset", CHARSETS)
def test_3_a_query_string_in_a_charset_django_cannot_read_is_a_400(charset):
    """Django decodes the query string while it builds the request, before any middleware:
    the WSGI application gunicorn runs refuses such a request itself."""
    from wsgiref.util import setup_testing_defaults

    from gm.wsgi import application

    environ = {"QUERY_STRING": "x=%C3%A9\xff&y=1", "CONTENT_TYPE": f"text/plain; charset={charset}",
               "PATH_INFO": "/healthz", "HTTP_HOST": "testserver"}  # fmt: skip
    setup_testing_defaults(environ)
    statuses = []
    body = b"".join(application(environ, lambda status, headers: statuses.append(status)))
    assert statuses[0].split()[0] in {"200", "400", "503"}
    if statuses[0].startswith("400"):
        assert "UTF-8" in body.decode()


# 10: names


@pytest.mark.parametrize(
    "bad",
    [f"Ada{RLO}", "Ada\u2066x", "A\u200bda", "Ada\x07", "Ada\u2028x", "Ada\x00", "Ada\x1b[31m"],
)
def test_10_sign_up_names_with_control_or_bidi_characters_are_refused(bad):
    names = [*WWW_NAMES[:15], bad]
    with pytest.raises(ValidationError) as caught:
        parse_player_names("\n".join(names), expected=16)
    message = " ".join(caught.value.messages)
    assert "caratteri invisibili o di controllo" in message
    assert "U+" in message


def test_10_sign_up_form_shows_the_message_and_stores_nothing(client, gm_user):
    client.force_login(gm_user)
    names = "\n".join([*WWW_NAMES[:15], f"Mallory{RLO}gnp.exe"])
    response = client.post(reverse("games:new"), new_game_data(players=names))
    assert response.status_code == 200
    assert "Mallory&lt;U+202E&gt;gnp.exe" in response.content.decode()
    assert Game.objects.count() == 0


def test_10_emoji_and_accents_are_fine():
    names = [*WWW_NAMES[:14], "Niccolò", "👩‍🚀 Astro"]
    assert parse_player_names("\n".join(names), expected=16)[-2:] == names[-2:]


def test_10_substitution_refuses_a_bidi_name(gm_user):
    game = make_game(gm_user)
    player = game.players.first()
    with pytest.raises(ValidationError, match="U\\+202E"):
        player_substitute(player=player, new_name=f"Eve{RLO}", user=gm_user)
    assert Player.objects.get(pk=player.pk).name == player.name


MARKUP_NAMES = ["[/b][url=https://evil.example]x[/url]", "](javascript:alert(1))", "*_`<b>~~|#"]


def _bbcode_tags(text: str) -> list[str]:
    return re.findall(r"\[/?[a-z*]+[^\]]*\]", text)


def test_10_names_are_escaped_in_bbcode_and_markdown_posts(gm_user):
    names = [*WWW_NAMES[: 16 - len(MARKUP_NAMES)], *MARKUP_NAMES]
    from games.services.game import game_create

    game = game_create(gm=gm_user, name="P", setup_key="wild-west-wolf", player_names=names,
                       seed=7)  # fmt: skip
    phase_commit(phase=current_phase(game), user=gm_user)
    day = current_phase(game)
    players = list(game.players.all())
    for voter, target in zip(players, players[-len(MARKUP_NAMES) :] * 6, strict=False):
        if voter != target:
            vote_cast(phase=day, player=voter, target=target)
    preview = phase_preview(day)
    subs = list(day.submissions.select_related("player", "target"))
    posts = forum_posts(game, day, preview.state, preview.outcome, subs, None)
    bbcode, markdown = posts["bbcode"], posts["markdown"]
    assert set(_bbcode_tags(bbcode)) <= {"[b]", "[/b]", "[s]", "[/s]", "[list]", "[/list]", "[*]"}
    assert "[url" not in bbcode.replace("[\u200burl", "")
    assert bbcode.count("[b]") == bbcode.count("[/b]")
    assert not re.search(r"(?<!\\)\]\(", markdown)  # no "](" that is not escaped
    assert "\\]\\(javascript:alert\\(1\\)\\)" not in markdown  # ( needs no escape after \]
    assert "\\](javascript:alert(1))" in markdown
    assert "<b>" not in markdown
    assert "\\*\\_\\`\\<b\\>\\~\\~\\|#" in markdown


def test_10_escape_covers_line_starts_and_html():
    assert escape("# Ada", "markdown") == "\\# Ada"
    assert escape("1. Ada", "markdown") == "1\\. Ada"
    assert escape("> Ada & Bob", "markdown") == "\\> Ada \\& Bob"
    assert escape("[b]Ada[/b]", "bbcode") == "[\u200bb]Ada[\u200b/b]"


# 9: floods


def test_9_a_flooding_player_is_throttled_with_a_clear_message(client, gm_user, settings):
    settings.TABULA_SUBMIT_RATE = "5/m"
    # The limit counts per minute window: start the burst as a minute begins, so a window
    # turning over mid-test cannot let more through (ahead of the database's clock).
    minute = (timezone.now() + dt.timedelta(minutes=1)).replace(second=1, microsecond=0)
    with time_machine.travel(minute, tick=True):
        flood(client, gm_user)


def flood(client, gm_user) -> None:
    game, day = day_one(gm_user)
    sheriff = game.players.get(role="sceriffo")
    targets = [p for p in game.players.exclude(pk=sheriff.pk)]
    login_as(client, sheriff)
    for i in range(8):
        vote = {"target": targets[i].name, "phase": day.pk}
        response = client.post(reverse("player_vote"), vote, HTTP_HX_REQUEST="true")
    assert "Troppi invii in poco tempo" in response.content.decode()
    assert Submission.objects.filter(player=sheriff).count() == 5
    login_as(client, game.players.get(role="indiano"))  # another player is not affected
    response = client.post(reverse("player_vote"), {"target": sheriff.name, "phase": day.pk})
    assert response.status_code == 302
    assert Submission.objects.filter(target=sheriff).count() == 1


def test_9_the_vote_count_post_stays_short_however_many_changes(gm_user, settings):
    settings.TABULA_VOTE_CHANGES_MAX = (
        400  # past the house's cap (games/services/vote_cap.py): the post
    )
    game, day = day_one(gm_user)
    players = list(game.players.all())
    voter, targets = players[0], players[1:4]
    start = timezone.now() - dt.timedelta(hours=1)  # forum times: in the past, before the close
    day.opened_at = start - dt.timedelta(hours=1)  # and after the day opened (issue 31)
    day.save(update_fields=["opened_at"])
    lengths = {}
    for changes in (3, 40, 400):
        day.submissions.all().delete()
        for i in range(changes):
            vote_cast(phase=day, player=voter, target=targets[i % 3],
                      at=start + dt.timedelta(seconds=i))  # fmt: skip
        subs = list(day.submissions.select_related("player", "target"))
        preview = phase_preview(day)
        posts = forum_posts(game, day, preview.state, preview.outcome, subs, None)
        lengths[changes] = len(posts["bbcode"])
        struck = posts["bbcode"].count("[s]")
        assert struck == min(changes - 1, MAX_CHANGES_SHOWN)
    assert lengths[400] - lengths[40] <= 2  # the count grows by digits, not by lines
    assert "(+396 cambi)" in posts["bbcode"]
    tally, _voted = timed_tally(subs)
    assert sum(line.count for line in tally) == 1  # the truth is untouched
