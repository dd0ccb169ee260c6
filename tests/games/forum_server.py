"""The local test forum of issue 32: pages of a game thread in each engine's real markup
(the markup of tests/fixtures/threads/, see its README: phpBB prosilver's ``div.post`` with
``<time datetime>`` and ``div.notice``, Invision's ``article.cPost`` with its
``commentEditLine``, ForumFree's ``td.post`` with "Inviato il:" and ``div.edit``, the
Discourse app's ``article[data-post-id]`` with ``relative-date[data-time]``), served page
by page by pytest-httpserver on loopback (allowed only by TABULA_FOLLOW_ALLOW_PRIVATE)."""

from __future__ import annotations

import datetime as dt
import html
from dataclasses import dataclass, field
from zoneinfo import ZoneInfo

ROME = ZoneInfo("Europe/Rome")
UTC = dt.UTC


@dataclass
class Post:
    author: str
    at: dt.datetime
    lines: list[str]
    edited_at: dt.datetime | None = None
    pid: int = 0


def _body(lines: list[str]) -> str:
    out = html.escape("<br>".join(lines)).replace("&lt;br&gt;", "<br>")
    return out.replace("[b]", "<strong>").replace("[/b]", "</strong>")


def _it(at: dt.datetime) -> str:
    local = at.astimezone(ROME)
    return f"{local.day}/{local.month}/{local.year}, {local:%H:%M}"


def phpbb(p: Post) -> str:
    notice = ""
    if p.edited_at:
        notice = (f'<div class="notice">Ultima modifica di <a class="username">{p.author}</a> '
                  f"il {_it(p.edited_at)}, modificato 1 volta in totale.</div>")  # fmt: skip
    return (f'<div id="p{p.pid}" class="post has-profile bg2"><div class="inner"><dl class='
            f'"postprofile"><dt><a class="username">{p.author}</a></dt><dd class="profile-posts">'
            f'<strong>Messaggi:</strong> 12</dd></dl><div class="postbody"><div id="post_content'
            f'{p.pid}"><h3><a href="#p{p.pid}">Re: Giorno 1</a></h3><p class="author"><span '
            f'class="responsive-hide">da <strong><a class="username">{p.author}</a></strong> '
            f'&raquo; </span><time datetime="{p.at.astimezone(UTC).isoformat()}">{_it(p.at)}'
            f'</time></p><div class="content">{_body(p.lines)}</div>{notice}</div></div></div>'
            "</div>\n")  # fmt: skip


def invision(p: Post) -> str:
    edit = ""
    if p.edited_at:
        stamp = p.edited_at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        edit = (f'<span class="ipsType_reset ipsType_medium ipsType_light" data-excludequote>'
                f'<strong>Modificato <time datetime="{stamp}">{_it(p.edited_at)}</time> da '
                f"{p.author}</strong></span>")  # fmt: skip
    stamp = p.at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    paras = "".join(f"<p>{_body([line])}</p>" for line in p.lines)
    return (f'<article id="elComment_{p.pid}" class="cPost ipsBox ipsComment"><aside class='
            f'"ipsComment_author cAuthorPane"><h3 class="ipsType_sectionHead cAuthorPane_author">'
            f'<strong><a href="/profile/{p.pid}/">{p.author}</a></strong></h3></aside><div '
            f'class="ipsColumn"><div class="ipsComment_meta ipsType_light"><div>Inviato <a '
            f'href="#"><time datetime="{stamp}">{_it(p.at)}</time></a></div></div><div class='
            f'"cPost_contentWrap"><div data-role="commentContent" class="ipsType_normal '
            f'ipsType_richText">{edit}{paras}</div></div></div></article>\n')  # fmt: skip


def forumfree(p: Post) -> str:
    notice = (f'<div class="edit">Modificato da {p.author} - {_it(p.edited_at)}</div>'
              if p.edited_at else "")  # fmt: skip
    return (f'<table><tr><td class="post"><table class="main6"><tr><td class="left_top"><div '
            f'class="nick"><a>{p.author}</a></div><td class="right_top"><a><b>Inviato il:</b> '
            f'{_it(p.at)}</a><tr><td class="left"><div class="details"><b>Gruppo: Membro</b>'
            f'<br>Messaggi: 12</div><td class="right"><div class="color">{_body(p.lines)}<br>'
            f"{notice}</div></table></table>\n")  # fmt: skip


def discourse(p: Post) -> str:
    edits = ""
    if p.edited_at:
        local = p.edited_at.astimezone(ROME)
        months = ["gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio",
                  "agosto", "settembre", "ottobre", "novembre", "dicembre"]  # fmt: skip
        edits = (f'<div class="post-info edits"><button title="post modificato l\'ultima volta '
                 f'il {local.day} {months[local.month - 1]} {local.year} {local:%H:%M}">'
                 "</button></div>")  # fmt: skip
    ms = int(p.at.timestamp() * 1000)
    cooked = "".join(f"<p>{_body([line])}</p>" for line in p.lines)
    return (f'<article id="post_{p.pid}" data-post-id="{p.pid}" class="boxed"><div class='
            f'"names"><span class="first username"><a>{p.author}</a></span></div>{edits}<a '
            f'class="post-date"><span class="relative-date" data-time="{ms}">1g</span></a>'
            f'<div class="cooked">{cooked}</div></article>\n')  # fmt: skip


ENGINES = {"phpbb": phpbb, "invision": invision, "forumfree": forumfree, "discourse": discourse}


@dataclass
class Thread:
    """A thread of one engine, ``per_page`` posts a page; posts appear and change."""

    engine: str
    per_page: int = 20
    posts: list[Post] = field(default_factory=list)

    def add(self, author: str, at: dt.datetime, *lines: str) -> Post:
        post = Post(author, at, list(lines), pid=1000 + len(self.posts))
        self.posts.append(post)
        return post

    def pages(self) -> int:
        return max(1, -(-len(self.posts) // self.per_page))

    def page(self, number: int, path: str) -> str:
        """Page ``number`` (1-based) with a ``<link rel="next">`` when one follows."""
        chunk = self.posts[(number - 1) * self.per_page : number * self.per_page]
        following = (f'<link rel="next" href="{path}?page={number + 1}">'
                     if number < self.pages() else "")  # fmt: skip
        render = ENGINES[self.engine]
        return ('<!DOCTYPE html><html lang="it"><head><meta charset="utf-8"><title>Giorno 1'
                f"</title>{following}</head><body>" + "".join(render(p) for p in chunk)
                + "</body></html>")  # fmt: skip


def discourse_raw(thread: Thread, number: int, per_page: int = 100) -> str:
    """Page ``number`` of the thread as Discourse's ``/raw/<topic id>?page=N`` writes it
    (PostsController#markdown_num: 100 posts a page, each "username | updated_at |
    #post_number", a blank line, the Markdown, a line of dashes; past the end, nothing)."""
    chunk = thread.posts[(number - 1) * per_page : number * per_page]
    out = []
    for index, p in enumerate(chunk, start=(number - 1) * per_page + 1):
        stamp = (p.edited_at or p.at).astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
        body = "\n".join(p.lines).replace("[b]", "**").replace("[/b]", "**")
        out.append(f"{p.author} | {stamp} | #{index}\n\n{body}\n\n-------------------------\n\n")
    return "".join(out)
