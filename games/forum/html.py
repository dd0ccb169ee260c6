"""The thread's pages as HTML (the page's source, or the page saved with Ctrl+S): the
forums put each post's exact time in the markup, to the second, so a saved page is the
most precise source. Parsed with selectolax (the Lexbor HTML parser); quotes are whole
elements here (``blockquote``, Discourse's ``aside.quote``), removed before reading.

* phpBB prosilver (``viewtopic_body.html``): ``div.post``, the author in ``p.author``
  (``<strong><a class="username">``), ``<time datetime="{POST_DATE_RFC3339}">``, the
  text in ``div.content``;
* Invision Community: ``article.cPost``, ``h3.cAuthorPane_author``, the
  ``ipsComment_meta`` ``<time datetime="…Z">``, ``div[data-role=commentContent]``;
* Discourse, the page as the server sends it (view-source, or saved without scripts):
  ``div.crawler-post``, the author's ``[itemprop=name]``, ``time.post-time[datetime]``,
  the text in ``div.post[itemprop=text]``, quotes as ``aside.quote``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from selectolax.lexbor import LexborHTMLParser, LexborNode

from games.forum.base import Clock, ForumPost

BLOCKS = "p, div, li, h1, h2, h3, h4, h5, h6, tr, pre"


def looks_like_html(text: str) -> bool:
    head = text[:4000].lower()
    return "<html" in head or "<!doctype" in head or head.count("<div") > 3


def body_lines(node: LexborNode, quotes: str) -> list[str]:
    """The node's own text, line by line: quotes removed, <br> and blocks as breaks."""
    for quoted in node.css(quotes):
        quoted.decompose()
    for br in node.css("br"):
        br.replace_with("\n")
    for block in node.css(BLOCKS):
        block.insert_after("\n")
    return [line.strip() for line in node.text().split("\n")]


@dataclass(frozen=True)
class HtmlForum:
    key: str
    label: str
    post: str  # one element per post
    author: str
    time: str  # an element with the time in ``time_attr``
    time_attr: str
    content: str
    quotes: str = "blockquote"

    def _tree(self, text: str) -> LexborHTMLParser | None:
        return LexborHTMLParser(text) if looks_like_html(text) else None

    def score(self, text: str) -> int:
        tree = self._tree(text)
        if tree is None:
            return 0
        return sum(1 for post in tree.css(self.post) if post.css_first(self.content))

    def copied(self, text: str) -> bool:
        return False

    def parse(self, text: str, clock: Clock) -> list[ForumPost]:
        tree = self._tree(text)
        posts: list[ForumPost] = []
        for number, post in enumerate(tree.css(self.post) if tree else [], start=1):
            content = post.css_first(self.content)
            author = post.css_first(self.author)
            if content is None or author is None:
                continue
            stamp = post.css_first(self.time)
            raw = stamp.attributes.get(self.time_attr, "") if stamp is not None else ""
            at = _moment(raw, clock)
            posts.append(ForumPost(author.text(strip=True), at, at is not None,
                                   body_lines(content, self.quotes), number,
                                   when_text=raw or ""))  # fmt: skip
        return posts


def _moment(raw: str | None, clock: Clock) -> dt.datetime | None:
    """An RFC 3339 time ("2025-03-12T16:02:11+00:00", "…Z") or epoch milliseconds."""
    if not raw:
        return None
    try:
        if raw.isdigit():
            moment = dt.datetime.fromtimestamp(int(raw) / 1000, tz=dt.UTC)
        else:
            moment = dt.datetime.fromisoformat(raw.replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=clock.zone)
    return moment.astimezone(clock.zone).replace(microsecond=0)


PHPBB_HTML = HtmlForum(
    "phpbb_html", "phpBB (pagina salvata)", "div.post", "p.author strong",
    "p.author time", "datetime", "div.content",
)  # fmt: skip
INVISION_HTML = HtmlForum(
    "invision_html", "Invision Community (pagina salvata)", "article.cPost",
    ".cAuthorPane_author", ".ipsComment_meta time, time", "datetime",
    "[data-role=commentContent]",
)  # fmt: skip
DISCOURSE_HTML = HtmlForum(
    "discourse_html", "Discourse (pagina salvata)", "div.crawler-post",
    "[itemprop=author] [itemprop=name]", "time.post-time", "datetime",
    "div.post[itemprop=text]", "aside.quote, blockquote",
)  # fmt: skip
