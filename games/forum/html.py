"""The thread's pages as HTML (the page's source, or the page saved with Ctrl+S): most
forums put each post's exact time in the markup, to the second, so a saved page is the
most precise source. Parsed with selectolax (the Lexbor HTML parser); quotes,
signatures and edit notices are whole elements here, removed before the text is read;
bold (``b``, ``strong``) is kept as ``[b]…[/b]`` so a bold vote reads as in the source.

* phpBB prosilver (phpbb/phpbb ``styles/prosilver/template/viewtopic_body.html``):
  ``div.post``, the author in ``p.author`` (``<strong><a class="username">``), ``<time
  datetime="{POST_DATE_RFC3339}">``, the text in ``div.content``, the edit notice in the
  post body's ``div.notice``, the signature in ``div.signature``;
* Invision Community: ``article.cPost``, ``h3.cAuthorPane_author``, the
  ``ipsComment_meta`` ``<time datetime="…Z">``, ``div[data-role=commentContent]``, whose
  edit line (``commentEditLine``: ``span[data-excludequote]``) holds a ``<time>``;
* ForumFree / ForumCommunity (Simone40/forumfreeskin ``skin-topic.html``; the layouts of
  today keep ``.topic .post`` and its ``.color``, as FadeToRed/ScriptForumfree's FFLib
  reads them): ``.post``, ``.nick``, "Inviato il: 31/8/2009, 06:00" in ``td.right_top``
  or anywhere in the post after that label (no machine time: the minute), the text in
  ``.color``, quotes as ``div.quote_top`` + ``div#quote``,
  ``div.edit`` "Modificato da …", ``div.signature``;
* Discourse, the page as the server sends it (view-source, or saved without scripts):
  ``div.crawler-post``, the author's ``[itemprop=name]``, ``time.post-time[datetime]``,
  the text in ``div.post[itemprop=text]``, quotes as ``aside.quote``;
* Discourse, the app's page saved from the browser: ``article[data-post-id]``
  (``#post_N``), the author in ``.names span.first a``, ``.post-date
  .relative-date[data-time]`` (epoch milliseconds), the text in ``.cooked``, the edits
  button's title ("post modificato l'ultima volta il …") in ``.post-info.edits``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from urllib.parse import urljoin

from selectolax.lexbor import LexborHTMLParser, LexborNode

from games.forum.base import MAX_DEPTH, MAX_POSTS, MAX_TAGS, Clock, ForumPost, ThreadError
from games.forum.dates import parse_when
from games.forum.edits import edit_notice

BLOCKS = "p, div, li, h1, h2, h3, h4, h5, h6, tr, pre"
_TIME_LABELS = ("inviato il", "posted on")  # ForumFree's label before a post's time
# Elements that close themselves (void) or that the next sibling closes: not nesting.
_FLAT = frozenset((
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
    "source", "track", "wbr", "p", "li", "td", "th", "tr", "option", "optgroup", "dt", "dd",
    "thead", "tbody", "tfoot", "colgroup", "rp", "rt",
))  # fmt: skip


def nesting(text: str) -> int:
    """How deep the page's elements nest, counted in one pass over its tags (an
    upper bound: elements the parser would close by itself are not subtracted)."""
    depth = deepest = 0
    for piece in text.split("<")[1:]:
        if not piece or piece[0] in "!?":
            continue
        closing = piece[0] == "/"
        name = piece[1 if closing else 0 :][:12].split(">")[0].split()[0:1]
        tag = name[0].lower().rstrip("/") if name else ""
        if not tag.isalnum() or tag in _FLAT:
            continue
        if closing:
            depth = max(depth - 1, 0)
        elif not piece.split(">")[0].endswith("/"):
            depth += 1
            deepest = max(deepest, depth)
    return deepest


def looks_like_html(text: str) -> bool:
    head = text[:4000].lower()
    return "<html" in head or "<!doctype" in head or head.count("<div") > 3


def body_lines(node: LexborNode, quotes: str, drop: str = "") -> list[str]:
    """The node's own text, line by line: quotes (and ``drop``) removed, bold as
    [b]…[/b], <br> and blocks as breaks, emoji images as their alt text."""
    for selector in (quotes, drop):
        if selector:
            for element in node.css(selector):
                element.decompose()
    for img in node.css("img[alt]"):
        img.replace_with(img.attributes.get("alt") or "")
    for bold in node.css("b, strong, span[style*=bold]"):
        bold.replace_with(f"[b]{bold.text()}[/b]")
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
    time: str  # an element with the time in ``time_attr`` (empty: in its text)
    time_attr: str
    content: str
    quotes: str = "blockquote"
    drop: str = ""  # removed from the text: signatures, edit notices
    edit: str = ""  # the edit notice, in the post (its time in a <time> or its text)

    def _tree(self, text: str) -> LexborHTMLParser | None:
        if not looks_like_html(text):
            return None
        if text.count("<") > MAX_TAGS:
            raise ThreadError("thread.too_many_tags", MAX_TAGS)
        if nesting(text) > MAX_DEPTH:
            raise ThreadError("thread.too_deep", MAX_DEPTH)
        return LexborHTMLParser(text)

    def _posts(self, tree: LexborHTMLParser) -> list[LexborNode]:
        """The post elements (ThreadError past MAX_POSTS: posts nested in posts, a page
        built to make every lookup walk the whole tree)."""
        posts = tree.css(self.post)
        if len(posts) > MAX_POSTS:
            raise ThreadError("thread.too_many_posts", MAX_POSTS)
        return posts

    def score(self, text: str) -> int:
        tree = self._tree(text)
        if tree is None:
            return 0
        return sum(1 for post in self._posts(tree) if post.css_first(self.content))

    def copied(self, text: str) -> bool:
        return False

    def parse(self, text: str, clock: Clock) -> list[ForumPost]:
        tree = self._tree(text)
        posts: list[ForumPost] = []
        for number, post in enumerate(self._posts(tree) if tree else [], start=1):
            content = post.css_first(self.content)
            author = post.css_first(self.author)
            if content is None or author is None:
                continue
            at, seconds, raw = self._time(post, clock)
            edited_at, edit_text = self._edit(post, clock)
            posts.append(ForumPost(author.text(strip=True), at, seconds,
                                   body_lines(content, self.quotes, self.drop), number,
                                   when_text=raw, edited_at=edited_at,
                                   edit_text=edit_text))  # fmt: skip
        return posts

    def _time(self, post: LexborNode, clock: Clock) -> tuple[dt.datetime | None, bool, str]:
        stamp = post.css_first(self.time)
        if not self.time_attr:  # the time as the page writes it, after its label
            raw = " ".join((stamp or post).text()[:4000].split())
            low = raw.lower()
            found = [i for label in _TIME_LABELS if (i := low.find(label)) >= 0]
            raw = raw[min(found) : min(found) + 80] if found else raw[:80]
            when = parse_when(raw, clock)
            return (when[0] if when else None), bool(when and when[1]), raw
        if stamp is None:
            return None, False, ""
        raw = stamp.attributes.get(self.time_attr) or ""
        at = _moment(raw, clock)
        return at, at is not None, raw

    def _edit(self, post: LexborNode, clock: Clock) -> tuple[dt.datetime | None, str]:
        sels = self.edit.split(",") if self.edit else []
        node = next((n for sel in sels if (n := post.css_first(sel))), None)
        if node is None:  # the first selector that finds one wins (a title over a box)
            return None, ""
        text = " ".join((node.attributes.get("title") or node.text()).split())
        stamp = node.css_first("time[datetime]")
        at = _moment(stamp.attributes.get("datetime"), clock) if stamp is not None else None
        if at is None:
            found = edit_notice(text, clock)
            at = found[0] if found else None
        node.decompose()
        return at, text or "?"


def _moment(raw: str | None, clock: Clock) -> dt.datetime | None:
    """An RFC 3339 time ("2025-03-12T16:02:11+00:00", "…Z") or epoch milliseconds."""
    if not raw or len(raw) > 40:
        return None
    try:  # a page's time out of range (year 1, 9999 with an offset, 20 digits) is no time
        if raw.isascii() and raw.isdigit():
            moment = dt.datetime.fromtimestamp(int(raw[:16]) / 1000, tz=dt.UTC)
        else:
            moment = dt.datetime.fromisoformat(raw.replace("Z", "+00:00"))
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=clock.zone)
        moment = moment.astimezone(clock.zone).replace(microsecond=0)
    except (ValueError, OverflowError, OSError):
        return None
    return moment if 1970 <= moment.year <= 2999 else None


PHPBB_HTML = HtmlForum(
    "phpbb_html", "phpBB (pagina salvata)", "div.post", "p.author strong",
    "p.author time", "datetime", "div.content", drop="div.signature",
    edit="div.postbody div.notice",
)  # fmt: skip
INVISION_HTML = HtmlForum(
    "invision_html", "Invision Community (pagina salvata)", "article.cPost",
    ".cAuthorPane_author", ".ipsComment_meta time, time", "datetime",
    "[data-role=commentContent]", "blockquote", ".ipsSignature, [data-role=memberSignature]",
    "[data-role=commentContent] span[data-excludequote]",
)  # fmt: skip
FORUMFREE_HTML = HtmlForum(
    "forumfree_html", "ForumFree / ForumCommunity (pagina salvata)", ".post", ".nick",
    ".right_top", "", ".color", ".quote_top, #quote, .quote, blockquote",
    ".signature, .bottomborder", ".color .edit",
)  # fmt: skip
DISCOURSE_HTML = HtmlForum(
    "discourse_html", "Discourse (pagina salvata)", "div.crawler-post",
    "[itemprop=author] [itemprop=name]", "time.post-time", "datetime",
    "div.post[itemprop=text]", "aside.quote, blockquote",
)  # fmt: skip
DISCOURSE_APP_HTML = HtmlForum(
    "discourse_app_html", "Discourse (pagina del browser)", "article[data-post-id]",
    ".names span.first a, .names .username a", ".post-date .relative-date, .relative-date",
    "data-time", ".cooked", "aside.quote, blockquote", "",
    ".post-info.edits [title], .post-info.edits",
)  # fmt: skip


def next_page(text: str, url: str) -> str | None:
    """The address of the thread's next page, when ``text`` (a page of it, fetched from
    ``url``) links one (``<link rel="next">`` in the head, or the pagination's
    ``<a rel="next">``, as phpBB, Invision, ForumFree and Discourse's crawler view write
    it); None for the last page or a page that is not HTML."""
    if not looks_like_html(text):
        return None
    node = LexborHTMLParser(text).css_first('link[rel~="next"][href], a[rel~="next"][href]')
    href = (node.attributes.get("href") or "").strip() if node is not None else ""
    if not href or href.startswith("#"):
        return None
    following = urljoin(url, href)
    return following if following != url else None
