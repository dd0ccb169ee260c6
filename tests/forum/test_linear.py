"""Issue 27 §4: no line a player can post freezes the import. Every pattern over thread
text (and a GM's own vote syntax) is google-re2, linear in its input: fed pathological
lines (long runs of spaces, tags nested deep, 2 kB lines) each pattern and each parser
finishes within a time bound; a page over the bounds is refused with a message id."""

from __future__ import annotations

import datetime as dt
import importlib
import time
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.forum import PARSERS, Clock, ThreadError, VoteSyntax, parse_thread
from games.forum.base import MAX_PAGE, MAX_TAGS, Linear

ROME = ZoneInfo("Europe/Rome")
CLOCK = Clock.copied_at(dt.datetime(2025, 3, 12, 23, 0, tzinfo=ROME), ROME)
MODULES = ["base", "dates", "discourse", "edits", "forumfree", "generic", "invision",
           "phpbb", "quotes", "votes"]  # fmt: skip
SYNTAXES = [
    VoteSyntax(names=["Sam", "Tizio.Caio", "Il Conte"]),
    VoteSyntax(
        ["[color=red][b]Linciaggio -> Nome[/b][/color]", "Voto:    Nome  !!"],
        ["#nessuno", "   ritiro   "],
    ),
]


def _patterns() -> list[tuple[str, Linear]]:
    """Every module-level pattern of games/forum, and those of two vote syntaxes."""
    found = []
    for name in MODULES:
        module = importlib.import_module(f"games.forum.{name}")
        for attr, value in vars(module).items():
            items = value if isinstance(value, list) else [value]
            found += [(f"{name}.{attr}", v) for v in items if isinstance(v, Linear)]
    for n, syntax in enumerate(SYNTAXES):
        for attr, value in vars(syntax).items():
            items = value if isinstance(value, list) else [value]
            found += [(f"syntax{n}.{attr}", v) for v in items if isinstance(v, Linear)]
    return found


PATTERNS = _patterns()
PIECES = [" ", "\t", "a", "voto", "Voto: ", "[b]", "[/b]", "[quote]", "**", ":", "-", "»",
          "12/3/2025, 21:47", "Inviato il:", "Modificato da ", " ore fa", "ha scritto:",
          "<div>", "</div>", "|", "#", "é", "\xa0"]  # fmt: skip
pathological = st.one_of(
    st.builds(lambda piece, n, tail: piece * n + tail,
              st.sampled_from(PIECES), st.integers(500, 2000), st.sampled_from(PIECES)),
    st.lists(st.sampled_from(PIECES), min_size=1, max_size=400).map("".join),
)  # fmt: skip
BOUND = 1.0  # seconds for one pattern over one 2 kB line (backtracking would take minutes)


def test_every_pattern_is_found_and_is_re2():
    assert len(PATTERNS) > 30
    assert all(type(p._re).__module__.startswith("re2") for _name, p in PATTERNS)


@settings(max_examples=60, deadline=None)
@given(line=pathological)
def test_every_pattern_reads_a_pathological_line_in_linear_time(line):
    for name, pattern in PATTERNS:
        began = time.perf_counter()
        pattern.match(line)
        pattern.search(line)
        list(pattern.finditer(line))
        assert time.perf_counter() - began < BOUND, name


@settings(max_examples=15, deadline=None)
@given(line=pathological, fmt=st.sampled_from(sorted(PARSERS)))
def test_every_parser_reads_a_page_of_pathological_lines_in_time(line, fmt):
    page = "\n".join([line] * 50)
    if fmt.endswith("_html"):
        page = "<!DOCTYPE html><html><body>" + page.replace("\n", "<br>") + "</body></html>"
    began = time.perf_counter()
    try:
        _parser, posts = parse_thread(page, CLOCK, fmt)
    except ThreadError:  # refused before it is read (too deep): fine, and fast
        posts = []
    for post in posts:
        for syntax in SYNTAXES:
            syntax.read_post(post.lines)
            syntax.mention(post.lines)
    assert time.perf_counter() - began < 5.0


def test_tags_nested_deep_are_read_in_time_or_refused():
    for n in (400, 1_000, 20_000):  # read, or refused (too deep, too many posts)
        deep = "<!DOCTYPE html><html><body>" + "<div class='post'><div class='content'>" * n
        began = time.perf_counter()
        codes = set()
        try:
            parse_thread(deep + "Voto: Sam", CLOCK)
        except ThreadError as refused:
            codes.add(refused.code)
        assert codes <= {"thread.too_many_posts", "thread.too_deep"}
        assert time.perf_counter() - began < 5.0
    with pytest.raises(ThreadError) as refused:
        parse_thread("<!DOCTYPE html><html>" + "<b>" * (MAX_TAGS + 1), CLOCK)
    assert refused.value.code == "thread.too_many_tags"


def test_a_page_over_the_bound_is_refused_and_a_long_line_is_cut():
    with pytest.raises(ThreadError) as refused:
        parse_thread("x" * (MAX_PAGE + 1), CLOCK)
    assert (refused.value.code, refused.value.limit) == ("thread.too_long", MAX_PAGE)
    text = "Sam — 12/03/2025 21:00\n" + " " * 100_000 + "Voto Mia\nVoto: Sam"
    _parser, (post,) = parse_thread(text, CLOCK)
    assert SYNTAXES[0].read_post(post.lines).name == "sam"
