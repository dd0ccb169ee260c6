"""Quoted text removed from each post (BBCode [quote] blocks nested at any depth,
Markdown '>' lines, and in a page copied as text the quote after its "X ha scritto:"
header), and each post's edit notice read and taken out of its text."""

from __future__ import annotations

from games.forum.base import Clock, ForumPost, compile_, fold
from games.forum.edits import take_edit_notice

_QUOTE_TOKEN = compile_(
    r"\[quote(?:=[^\]]*|\s[^\]]*)?\]|\[/quote\]", ignore_case=True, needles=("[quote", "[/quote")
)
# A copied quote's header: "Tempesta ha scritto: ↑", "Tempesta said:", "CITAZIONE (…)".
_CITE = compile_(
    r"^\s*(?:(?P<who>.{1,80}?)\s(?:ha scritto|ha detto|scrive|wrote|said)\s*:.*"
    r"|(?:citazione|quote)\b\s*(?:\((?P<who2>[^@)]*?)\s*(?:@.*)?\))?.*)$",
    ignore_case=True,
    needles=("scritto", "detto", "scrive", "wrote", "said", "citazione", "quote"),
)


def strip_bbcode_quotes(text: str) -> str:
    """``text`` without any [quote]…[/quote] block (nested ones too); an unclosed quote
    hides everything after it."""
    if "[" not in text:
        return text
    out: list[str] = []
    depth = 0
    pos = 0
    for match in _QUOTE_TOKEN.finditer(text):
        if depth == 0:
            out.append(text[pos : match.start()])
        depth += -1 if match.group().lower() == "[/quote]" else 1
        depth = max(depth, 0)
        pos = match.end()
    if depth == 0:
        out.append(text[pos:])
    return "".join(out)


def own_lines(
    lines: list[str], earlier: dict[str, list[list[str]]] | None
) -> tuple[list[str], list[str]]:
    """A post's own lines, without quoted text: BBCode [quote] blocks, Markdown '>'
    lines, and in a page copied as text each quote: after its "X ha scritto:" header,
    the longest run of lines that repeats, in order, a post of X earlier in the paste
    (``earlier``: folded author -> his posts' folded non-blank lines; None for a
    source, not a copied page, where quotes are marked up). When the quoted
    post is not in the paste, the quote runs to the next blank line and its lines are
    returned apart (the second list): a copied page does not show where such a quote
    ends, so the GM is asked."""
    text = strip_bbcode_quotes("\n".join(lines)).split("\n")
    keys = [fold(line).strip() for line in text] if earlier else []
    kept: list[str] = []
    unsure: list[str] = []
    i = 0
    while i < len(text):
        line = text[i]
        i += 1
        if line.lstrip().startswith(">"):
            continue
        cite = _CITE.match(line) if earlier is not None else None
        if cite is None or _looks_like_vote_keyword(line):
            kept.append(line)
            continue
        who = fold(cite["who"] or cite["who2"] or "").strip()
        posts = earlier.get(who) or [p for ps in earlier.values() for p in ps]
        quoted = _quoted_run(keys, i, posts)
        if quoted:
            i = quoted
            continue
        while i < len(text) and not text[i].strip():  # Invision: a blank line first
            i += 1
        while i < len(text) and text[i].strip():  # not found: up to the blank line
            unsure.append(text[i])
            i += 1
    return kept, unsure


def _quoted_run(keys: list[str], start: int, posts: list[list[str]]) -> int:
    """Where the quote starting at ``start`` ends: after the longest run of non-blank
    lines (``keys``: folded) that repeats consecutive lines of one of ``posts`` (0: none)."""
    best = 0
    first_key = next((k for k in keys[start:] if k), None)
    for post in posts:
        for first in range(len(post)):
            if post[first] != first_key:
                continue
            j, k = start, first
            while j < len(keys) and k < len(post):
                key = keys[j]
                if not key:
                    j += 1
                    continue
                if key != post[k]:
                    break
                j, k = j + 1, k + 1
            if k > first:
                best = max(best, j)
    return best


def clean_posts(posts: list[ForumPost], clock: Clock, *, copied: bool) -> list[ForumPost]:
    """Remove quoted text and the edit notice from every post, in page order (a quote
    repeats an earlier post). ``copied``: the page was copied as text (quotes show only
    as text)."""
    earlier: dict[str, list[list[str]]] = {}
    for post in posts:
        raw = post.lines
        post.lines, post.unsure = own_lines(raw, earlier if copied else None)
        post.lines, edited_at, edit_text = take_edit_notice(post.lines, clock)
        if edit_text and not post.edit_text:
            post.edited_at, post.edit_text = edited_at, edit_text
        if copied:
            mine = [k for line in raw if (k := fold(line).strip())]
            earlier.setdefault(fold(post.author).strip(), []).append(mine)
    return posts


def _looks_like_vote_keyword(line: str) -> bool:
    return fold(line).lstrip(" #[b]").startswith(("voto", "vote", "ritir", "tolgo"))
