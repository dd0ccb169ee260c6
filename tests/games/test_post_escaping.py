"""Issue 27 §7: one escaping for every post the GM pastes (roles.engine.markup.escape):
the BANG and Time Car posts and "Conta adesso" print a player's name as typed, never as
BBCode or Markdown, as the Werewolf day posts and the spoiler already did."""

from __future__ import annotations

import re

import pytest

from desks.automobile.desk import adt_game_create, adt_log, table_state
from desks.ribelle.text import final_post, reveal_post
from games.engine import escape
from games.selectors.board import phase_board
from games.selectors.counts import count_now
from games.services.game import game_create
from games.services.phases import current_phase, phase_commit
from games.services.submissions import vote_cast
from games.text import posts, spoiler_posts
from roles.automobile_del_tempo.posts import hid_post
from roles.automobile_del_tempo.posts import reveal_post as adt_reveal_post
from tests.factories import WWW_NAMES

pytestmark = pytest.mark.django_db

HOSTILE = "[/b][url=https://evil.example]Ada[/url]](javascript:alert(1))*x*"


def inert(text: str, fmt: str) -> None:
    """No markup a name brought: no tag opens in BBCode, no link or emphasis in Markdown."""
    if fmt == "bbcode":
        assert "[url" not in text
        assert "[/b][" not in text
    else:  # every "]" and "*" a name brought is backslash-escaped
        assert not re.search(r"(?<!\\)\]\(javascript", text)
        assert not re.search(r"(?<!\\)\*x(?<!\\)\*", text)


def test_every_post_writer_uses_the_one_escaping():
    assert posts.escape is escape
    assert spoiler_posts.escape_bbcode(HOSTILE) == escape(HOSTILE, "bbcode")
    assert spoiler_posts.escape_markdown(HOSTILE) == escape(HOSTILE, "markdown")


@pytest.mark.parametrize("fmt", ["bbcode", "markdown"])
def test_the_time_car_posts_escape_names(fmt):
    for post in (hid_post(1, HOSTILE), adt_reveal_post(2, HOSTILE, "car1:interior")):
        text = post.render(fmt, "it")
        inert(text, fmt)
        assert escape(HOSTILE, fmt) in text


@pytest.mark.parametrize("fmt", ["bbcode", "markdown"])
def test_the_bang_posts_escape_names(fmt):
    texts = [
        reveal_post(HOSTILE, "Sam", fmt, "it"),
        final_post(
            "ribelle",
            [{"name": HOSTILE, "role": "ribelle", "plays_as": "ribelle", "won": True}],
            fmt,
            "it",
        ),
    ]
    for text in texts:
        inert(text, fmt)
    assert "[b]" in texts[0] or "**" in texts[0]  # the post's own markup stays


@pytest.mark.parametrize("fmt", ["bbcode", "markdown"])
def test_a_time_car_game_with_a_hostile_name_posts_it_as_text(gm_user, fmt):
    name = "Ada[/b][url=x]](javascript:y)"
    game = adt_game_create(gm=gm_user, name="Treno", config={"cars": 3, "rounds": 3},
                           bandits={name: "django", "Bea": "belle"})  # fmt: skip
    adt_log(game=game, kind="stealin", data={}, user=gm_user)
    table, _log = table_state(game)
    for post in table.posts:
        inert(post.render(fmt, "it"), fmt)


@pytest.mark.parametrize("fmt", ["bbcode", "markdown"])
def test_conta_adesso_escapes_names(gm_user, fmt):
    """Issue 27 §7: the count of "Conta adesso" names voters, targets and who is not voting."""
    names = ["Ugo[/b][url=x]](javascript:y)*x*", "Ivo[url=z]", *WWW_NAMES[2:]]
    game = game_create(gm=gm_user, name="Partita", setup_key="wild-west-wolf",
                       player_names=names, seed=7)  # fmt: skip
    phase_commit(phase=current_phase(game), user=gm_user)
    day = current_phase(game)
    players = {p.name: p for p in game.players.all()}
    vote_cast(phase=day, player=players[names[0]], target=players[names[1]])
    vote_cast(phase=day, player=players[names[1]], target=players[names[0]])
    text = count_now(game, phase_board(game, day), day.opened_at)[fmt]
    inert(text, fmt)
    assert escape(names[0], fmt) in text
