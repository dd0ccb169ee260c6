"""Issue 12 §1: each forum's page read back (authors, times, votes), from fixtures shaped
like the real pages, and with hypothesis: random posts with random vote lines are
recovered exactly; random text that is not a vote yields no vote."""

from __future__ import annotations

import datetime as dt
import html
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.forum import PARSERS, Clock, VoteSyntax, detect, fold, parse_thread

ROME = ZoneInfo("Europe/Rome")
CLOCK = Clock(dt.date(2025, 3, 12), dt.datetime(2025, 3, 12, 21, 0, tzinfo=ROME), ROME)
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "threads"
SYNTAX = VoteSyntax()


def read(name: str) -> tuple[str, list[tuple]]:
    parser, posts = parse_thread((FIXTURES / name).read_text(), CLOCK)
    out = []
    for post in posts:
        vote = SYNTAX.read_post(post.lines)
        said = (
            None
            if vote is None
            else ("-" if vote.withdraw else "?" if vote.unreadable else vote.name)
        )
        out.append((post.author, post.at.strftime("%d %H:%M:%S"), said))
    return parser.key, out


def test_phpbb_page_copied_as_text():
    """Relative dates ("Oggi, 18:31", "12 minuti fa"), a quote of an earlier post ignored,
    a vote inside a sentence, a withdrawal, an unreadable line, accents ignored."""
    assert read("phpbb_page.txt") == (
        "phpbb",
        [
            ("Narratore", "12 10:30:00", "narratore"),
            ("Sam", "12 17:02:00", "gino"),
            ("Mia", "12 17:05:00", "sam"),  # Sam's quoted "Voto: Gino" does not count
            ("Pao", "12 18:31:00", "niccolo"),
            ("Gino", "12 19:10:00", "?"),
            ("Mia", "12 20:14:00", "-"),
            ("Anna", "12 20:48:00", "pao"),
        ],
    )


def test_phpbb_multiquote_bbcode_gives_seconds_and_hides_nested_quotes():
    assert read("phpbb_multiquote.txt") == (
        "phpbb",
        [
            ("Sam", "12 17:02:11", "gino"),
            ("Mia", "12 17:05:02", "sam"),
            ("Pao", "12 18:31:02", "-"),
        ],
    )


def test_invision_page():
    """'Ieri alle 23:10', 'Oggi alle 17:05', '40 minuti fa'; a quote over paragraphs."""
    assert read("invision_page.txt") == (
        "invision",
        [
            ("Narratore", "11 23:10:00", "narratore"),
            ("Sam", "12 17:02:00", "gino"),
            ("Mia", "12 17:05:00", "sam"),
            ("Nora", "12 20:20:00", "mia rossi"),
        ],
    )


def test_forumfree_page():
    assert read("forumfree_page.txt") == (
        "forumfree",
        [
            ("Narratore", "12 10:30:00", "narratore"),
            ("Sam", "12 17:02:00", "gino"),
            ("Mia", "12 17:05:00", "sam"),  # the CITAZIONE block does not count
            ("Pao", "12 18:31:00", "-"),
        ],
    )


def test_discourse_raw_in_utc_with_seconds():
    assert read("discourse_raw.txt") == (
        "discourse",
        [
            ("narratore", "12 10:30:00", None),
            ("sam", "12 17:02:11", "gino"),
            ("mia", "12 17:05:42", "sam"),
            ("pao", "12 18:31:09", "-"),  # the '>' line is quoted
        ],
    )


def test_generic_author_dash_date():
    assert read("generic_page.txt") == (
        "generic",
        [
            ("Narratore", "12 10:30:00", None),
            ("Sam", "12 17:02:11", "gino"),
            ("Mia", "12 17:05:00", "sam"),
            ("Pao", "11 23:10:00", "-"),
        ],
    )


def test_a_quote_of_a_post_not_in_the_paste_is_asked_about():
    text = "Sam — 12/03/2025 17:00\nUgo ha scritto:\nVoto: Gino\n"
    _parser, posts = parse_thread(text, CLOCK)
    assert posts[0].lines == []
    assert posts[0].unsure == ["Voto: Gino"]


def test_nothing_recognisable_is_no_format():
    assert detect("ciao a tutti\nvoto Gino") is None


# -- hypothesis: random posts in each format --------------------------------------
WORDS = [
    "ciao",
    "sospetto",
    "stanotte",
    "villaggio",
    "lupi",
    "sceriffo",
    "credo",
    "che",
    "mai",
    "proprio",
    "dubbio",
    "forse",
    "prove",
    "Gino",
    "oggi?",
    "ok!",
]
NAMES = ["Sam", "Mia", "Pao", "Nora", "Niccolò", "Anna Maria", "Ivan_77", "Cac"]
DAY = dt.date(2025, 3, 12)

sentences = st.lists(st.sampled_from(WORDS), min_size=1, max_size=8).map(" ".join)
votes = st.one_of(
    st.none(),
    st.tuples(
        st.sampled_from(["[b]Voto: {}[/b]", "#voto {}", "Voto {}", "VOTO: {}", "voto {}."]),
        st.sampled_from(NAMES),
    ),
    st.just(("#ritiro", None)),
    st.just(("Tolgo il voto", None)),
)
posts = st.lists(
    st.tuples(
        st.sampled_from(NAMES),
        st.times().map(lambda t: t.replace(microsecond=0)),
        st.lists(sentences, max_size=3),
        votes,
    ),
    min_size=1,
    max_size=6,
)


def _ff(t: dt.time) -> str:
    return f"{DAY.day}/{DAY.month}/{DAY.year}, {t:%H:%M}"


RENDER = {
    "phpbb": lambda a, t, body: [
        a,
        "Messaggi: 12",
        "Iscritto il: ven 3 gen 2020, 10:12",
        "Re: Giorno 1",
        f"Messaggio da {a} » mer 12 mar 2025, {t:%H:%M}",
        *body,
        "Top",
    ],
    "invision": lambda a, t, body: [
        a,
        a,
        "Membri",
        " 12",
        "12 messaggi",
        f"Inviato Oggi alle {t:%H:%M}",
        *body,
        "Link al commento",
        "Condividi su altri siti",
    ],
    "forumfree": lambda a, t, body: [
        f"{a}\tview post Inviato il {_ff(t)}\t \t Quote",
        "Gruppo",
        "Member",
        "Messaggi",
        "12",
        "Stato",
        "Offline",
        *body,
        "",
    ],
    "discourse": lambda a, t, body: [
        f"{a} | {dt.datetime.combine(DAY, t, ROME).astimezone(dt.UTC):%Y-%m-%d %H:%M:%S} UTC | #1",
        "",
        *body,
        "",
        "-" * 25,
        "",
    ],
    "generic": lambda a, t, body: [f"{a} — 12/03/2025 {t:%H:%M:%S}", *body, ""],
}
RENDER["phpbb-bbcode"] = lambda a, t, body: [
    f'[quote="{a}" post_id=9 time={int(dt.datetime.combine(DAY, t, ROME).timestamp())} '
    'user_id=3]', *body, "[/quote]", ""]  # fmt: skip
SECONDS = {"discourse", "generic", "phpbb-bbcode"}
PARSER_OF = {"phpbb-bbcode": "phpbb"}


def _iso(t: dt.time) -> str:
    return dt.datetime.combine(DAY, t, ROME).astimezone(dt.UTC).isoformat()


def _html(body: list[str]) -> str:
    return "<br>".join(html.escape(line) for line in body)


RENDER["phpbb_html"] = lambda a, t, body: [
    f'<div class="post bg2"><div class="inner"><dl class="postprofile"><dt><a class="username">'
    f'{html.escape(a)}</a></dt></dl><div class="postbody"><p class="author"><span>da <strong>'
    f'<a class="username">{html.escape(a)}</a></strong> &raquo; </span><time datetime="'
    f'{_iso(t)}">Oggi</time></p><div class="content">{_html(body)}</div></div></div></div>'
]
RENDER["invision_html"] = lambda a, t, body: [
    f'<article class="cPost ipsComment"><aside><h3 class="cAuthorPane_author"><strong><a>'
    f'{html.escape(a)}</a></strong></h3></aside><div class="ipsComment_meta">Inviato <time '
    f'datetime="{_iso(t).replace("+00:00", "Z")}">Oggi</time></div><div data-role='
    f'"commentContent">{"".join(f"<p>{html.escape(x)}</p>" for x in body)}</div></article>'
]
RENDER["discourse_html"] = lambda a, t, body: [
    f"<div class='topic-body crawler-post'><span class='creator' itemprop='author'><a>"
    f"<span itemprop='name'>{html.escape(a)}</span></a></span><time class='post-time' "
    f"datetime='{_iso(t)}'>oggi</time><div class='post' itemprop='text'>{_html(body)}</div>"
    "</div>"]  # fmt: skip
SECONDS |= {"phpbb_html", "invision_html", "discourse_html"}


@pytest.mark.parametrize("fmt", list(RENDER))
@settings(max_examples=60, deadline=None)
@given(thread=posts)
def test_random_posts_with_random_votes_are_recovered_exactly(fmt, thread):
    lines = ["Pagina 1 di 1"] if fmt != "discourse" else []
    if fmt.endswith("_html"):
        lines = ["<!DOCTYPE html><html><body><p>Pagina 1 di 1</p>"]
    expected = []
    for author, time, chatter, vote in thread:
        author = author if fmt != "discourse" else author.replace(" ", "_")
        body = list(chatter)
        said = None
        if vote is not None:
            template, name = vote
            body.append(template.format(name) if name else template)
            said = fold(name) if name else "-"
        lines += RENDER[fmt](author, time, body)
        shown = time if fmt in SECONDS else time.replace(second=0)
        expected.append((author, shown, said))
    parser, found = parse_thread("\n".join(lines), CLOCK)
    assert parser is PARSERS[PARSER_OF.get(fmt, fmt)]
    got = []
    for post in found:
        vote = SYNTAX.read_post(post.lines)
        said = None if vote is None else "-" if vote.withdraw else vote.name
        got.append((post.author, post.at.timetz().replace(tzinfo=None), said))
    assert got == expected


@given(
    text=st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs", "Cc"]))
    | st.lists(st.sampled_from([*WORDS, "voti", "votare", "votazione"])).map(" ".join)
)
def test_text_that_is_not_a_vote_yields_no_vote(text):
    words = fold(text)
    if any(k in words for k in ("voto", "ritir", "tolgo")):
        return  # it could be a vote
    assert SYNTAX.read_post(text.splitlines()) is None


# -- the pages saved as HTML: each post's time to the second --------------------------
def test_phpbb_saved_page_reads_the_rfc3339_time_and_drops_the_blockquote():
    assert read("phpbb_page.html") == ("phpbb_html", [
        ("Narratore", "12 10:30:00", "nome"),  # a coloured name (username-coloured)
        ("Sam", "12 17:02:11", "gino"),
        ("Mia", "12 17:05:42", "sam"),
        ("Pao", "12 18:31:02", "-"),
    ])  # fmt: skip


def test_invision_saved_page():
    assert read("invision_page.html") == ("invision_html", [
        ("Sam", "12 17:02:11", "gino"),
        ("Mia", "12 17:05:42", "sam"),  # the ipsQuote does not count
        ("Nora", "12 20:20:05", "mia rossi"),
    ])  # fmt: skip


def test_discourse_page_as_served():
    assert read("discourse_page.html") == ("discourse_html", [
        ("narratore", "12 10:30:00", None),
        ("sam", "12 17:02:11", "gino"),
        ("mia", "12 17:05:42", "sam"),  # the aside.quote does not count
    ])  # fmt: skip


def test_a_game_can_use_its_own_vote_syntax():
    syntax = VoteSyntax(["[color=red]Linciaggio -> Nome[/color]"], ["#nessuno"])
    assert syntax.read_line("LINCIAGGIO -> Niccolò").name == "niccolo"
    assert syntax.read_line("[color=red]linciaggio->Mia[/color]").name == "mia"
    assert syntax.read_line("#NESSUNO").withdraw
    assert syntax.read_line("Voto Gino") is None  # not this game's syntax


def test_a_later_line_wins_and_an_unreadable_line_does_not_hide_a_vote():
    lines = ["#voto Sam", "scherzo", "Voto: Gino", "voto per chi mi pare a me oggi"]
    assert SYNTAX.read_post(lines).name == "gino"


# -- the same pages as Chromium copies them (document.body.innerText of the .html files,
#    without the forums' stylesheets): the text parsers read what the HTML ones read.
KNOWN = Clock(CLOCK.today, CLOCK.now, ROME, frozenset({"narratore", "sam", "mia", "pao", "nora"}))


@pytest.mark.parametrize(
    ("copied", "saved"),
    [("phpbb_page_copied_nocss.txt", "phpbb_page.html"),
     ("invision_page_copied_nocss.txt", "invision_page.html")],
)  # fmt: skip
def test_a_page_copied_by_the_browser_reads_like_the_saved_page(copied, saved):
    def votes(name: str) -> list[tuple]:
        _parser, posts = parse_thread((FIXTURES / name).read_text(), KNOWN)
        return [(p.author, p.at.replace(second=0), SYNTAX.read_post(p.lines).name)
                for p in posts]  # fmt: skip

    assert votes(copied) == votes(saved)
