"""Votes read from the game's forum thread: one small parser per forum behind one
interface (``Parser``), the game's vote syntax, and name matching. Pure Python (no
Django): the site's service (games/services/topic_votes.py) stores what the GM confirms and
translates the message ids this package returns."""

from __future__ import annotations

from games.forum.base import Clock, ForumPost, Parser, ThreadError, bounded, fold, name_key
from games.forum.dates import parse_when
from games.forum.discourse import Discourse
from games.forum.forumfree import ForumFree
from games.forum.generic import Generic
from games.forum.html import (
    DISCOURSE_APP_HTML,
    DISCOURSE_HTML,
    FORUMFREE_HTML,
    INVISION_HTML,
    PHPBB_HTML,
    HtmlForum,
    looks_like_html,
)
from games.forum.invision import Invision
from games.forum.names import NameMatch, NameMatcher
from games.forum.phpbb import PhpBB
from games.forum.quotes import clean_posts
from games.forum.votes import VoteLine, VoteSyntax

PARSERS: dict[str, Parser] = {
    p.key: p
    for p in (PhpBB(), Invision(), ForumFree(), Discourse(), Generic(), PHPBB_HTML,
              INVISION_HTML, FORUMFREE_HTML, DISCOURSE_HTML, DISCOURSE_APP_HTML)
}  # fmt: skip

__all__ = [
    "PARSERS", "Clock", "ForumPost", "NameMatch", "NameMatcher", "Parser", "ThreadError",
    "VoteLine", "VoteSyntax", "detect", "fold", "name_key", "parse_thread", "parse_when",
]  # fmt: skip


SAMPLE = 60_000  # characters of a text page read to recognise its forum (some 200 posts)


def detect(text: str) -> Parser | None:
    """The format with the most post headers in ``text`` (None: no format fits); on a
    tie the first in PARSERS order."""
    best, best_score = None, 0
    html = looks_like_html(text)
    for parser in PARSERS.values():
        if isinstance(parser, HtmlForum) != html:
            continue
        score = parser.score(text if html else text[:SAMPLE])
        if score > best_score:
            best, best_score = parser, score
    return best


def parse_thread(text: str, clock: Clock, fmt: str = "") -> tuple[Parser | None, list[ForumPost]]:
    """The posts of a pasted page, with the parser that read them (``fmt``: a key of
    PARSERS, or empty to recognise the format). ThreadError when the page is too big."""
    text = bounded(text, cut_lines=not looks_like_html(text))
    parser = PARSERS.get(fmt) or detect(text)
    if parser is None:
        return None, []
    posts = parser.parse(text, clock)
    return parser, clean_posts(posts, clock, copied=parser.copied(text))
