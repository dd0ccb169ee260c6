"""Issue 28, round trip: a random day's posts rendered in each engine's real markup (as
tests/fixtures/threads/README.md describes it: ForumFree's copy and saved page, phpBB's
copy with dates relative to the copy and its edit notice, Invision's copy and edit line,
Discourse's app page), with votes followed by their reason, names written without their
punctuation and edits; the importer recovers exactly the planted votes and edit times,
and invents none."""

from __future__ import annotations

import datetime as dt
import html
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.forum import PARSERS, Clock, NameMatcher, VoteSyntax, parse_thread

ROME = ZoneInfo("Europe/Rome")
DAY = dt.date(2025, 3, 12)
COPIED = dt.datetime(2025, 3, 13, 19, 30, tzinfo=ROME)  # the next evening
PLAYERS = {1: "Sam", 2: "Mia", 3: "Pao", 4: "Nora", 5: "Niccolò", 6: "Tizio.Caio", 7: "Il Conte"}
WRITTEN = {
    1: ["Sam", "SAM"], 2: ["Mia"], 3: ["Pao"], 4: ["Nora"], 5: ["Niccolò", "niccolo"],
    6: ["Tizio.Caio", "tizio caio", "Tizio_Caio"], 7: ["Il Conte", "Il_Conte", "il conte"],
}  # fmt: skip
AUTHORS = ["Sam", "Mia", "Pao", "Nora", "Niccolò"]
WORDS = ["ciao", "sospetto", "stanotte", "villaggio", "lupi", "credo", "che", "mai", "forse",
         "Gino", "prove", "ieri", "taceva"]  # fmt: skip
TEMPLATES = ["Voto {} perché {}", "[b]Voto: {}[/b] perché {}", "#voto {} {}", "Voto: {}"]
NAMES = NameMatcher(PLAYERS)
SYNTAX = VoteSyntax(names=list(PLAYERS.values()))

sentence = st.lists(st.sampled_from(WORDS), min_size=1, max_size=6).map(" ".join)
vote = st.one_of(
    st.none(),
    st.tuples(
        st.sampled_from(TEMPLATES), st.sampled_from(sorted(PLAYERS)), st.integers(0, 9), sentence
    ),
)
post = st.tuples(
    st.sampled_from(AUTHORS),
    st.times(dt.time(8), dt.time(21, 59)).map(lambda t: t.replace(second=0, microsecond=0)),
    st.lists(sentence, max_size=2),
    vote,
    st.one_of(st.none(), st.integers(1, 180)),  # edited this many minutes after the post
)
day = st.lists(post, min_size=1, max_size=6)


def _d(t: dt.time) -> str:
    return f"{DAY.day}/{DAY.month}/{DAY.year}, {t:%H:%M}"


def _at(t: dt.time) -> dt.datetime:
    return dt.datetime.combine(DAY, t, ROME)


def _html(lines: list[str]) -> str:
    out = html.escape("<br>".join(lines)).replace("&lt;br&gt;", "<br>")
    return out.replace("[b]", "<b>").replace("[/b]", "</b>")


def forumfree(a, t, body, edit):
    first, *rest = body or [""]
    notice = [f"Modificato da {a} - {_d(edit)}"] if edit else []
    return [f"{a}\tInviato il: {_d(t)}\t", "Gruppo: Membro", "Messaggi: 12", "",
            f"Stato:\t{first}", *rest, "", *notice, ""]  # fmt: skip


def forumfree_html(a, t, body, edit):
    notice = f'<div class="edit">Modificato da {a} - {_d(edit)}</div>' if edit else ""
    return [f'<table><tr><td class="post"><table class="main6"><tr><td class="left_top"><div '
            f'class="nick"><a>{a}</a></div><td class="right_top"><a><b>Inviato il:</b> '
            f'{_d(t)}</a><tr><td class="left"><div class="details"><b>Gruppo: Membro</b><br>'
            f'Messaggi: 12</div><td class="right"><div class="color">{_html(body)}<br>{notice}'
            '<div class="signature">Voto: Pao</div></div></table></table>']  # fmt: skip


def phpbb(a, t, body, edit):
    notice = [f"Ultima modifica di {a} il Ieri, {edit:%H:%M}, modificato 1 volta in totale."
              ] if edit else []  # fmt: skip
    return [a, "Messaggi: 12", "Iscritto il: ven 3 gen 2020, 10:12", "Re: Giorno 2",
            f"Messaggio da {a} » Ieri, {t:%H:%M}", *body, *notice, "Top"]  # fmt: skip


def invision(a, t, body, edit):
    notice = [f"Modificato Ieri alle {edit:%H:%M} da {a}"] if edit else []
    return [a, a, "Membri", "12 messaggi", f"Inviato Ieri alle {t:%H:%M}", *notice, *body,
            "Link al commento", "Condividi su altri siti"]  # fmt: skip


def discourse_app(a, t, body, edit):
    ms = int(_at(t).timestamp() * 1000)
    edits = (f'<div class="post-info edits"><button title="post modificato l\'ultima volta il '
             f'12 marzo 2025 {edit:%H:%M}"></button></div>') if edit else ""  # fmt: skip
    cooked = "".join(f"<p>{_html([line])}</p>" for line in body)
    return [f'<article id="post_1" data-post-id="9" class="boxed"><div class="names"><span '
            f'class="first username"><a>{a}</a></span><span class="user-title">Villico</span>'
            f'</div>{edits}<a class="post-date"><span class="relative-date" data-time="{ms}">'
            f'1g</span></a><div class="cooked">{cooked}</div></article>']  # fmt: skip


RENDER = {"forumfree": forumfree, "forumfree_html": forumfree_html, "phpbb": phpbb,
          "invision": invision, "discourse_app_html": discourse_app}  # fmt: skip


@pytest.mark.parametrize("fmt", list(RENDER))
@settings(max_examples=40, deadline=None)
@given(thread=day)
def test_a_random_day_in_each_engines_markup_gives_back_the_planted_votes(fmt, thread):
    lines = ["<!DOCTYPE html><html><body>"] if fmt.endswith("_html") else ["Giorno 2"]
    planted = []
    for author, t, chatter, said, edited in thread:
        body = list(chatter)
        target = None
        if said is not None:
            template, target, variant, reason = said
            written = WRITTEN[target][variant % len(WRITTEN[target])]
            body.append(template.format(written, reason))
        edit = None
        if edited is not None:
            edit = (_at(t) + dt.timedelta(minutes=edited)).time()
            edit = edit if edit > t else None  # past midnight: no edit
        lines += RENDER[fmt](author, t, body, edit)
        planted.append((author, _at(t), target, _at(edit) if edit else None))
    parser, posts = parse_thread("\n".join(lines), Clock.copied_at(COPIED, ROME,
                                 frozenset(a.lower() for a in AUTHORS)))  # fmt: skip
    assert parser is PARSERS[fmt]
    got = []
    for found in posts:
        read = SYNTAX.read_post(found.lines)
        key = NAMES.match(read.name).key if read is not None else None
        got.append((found.author, found.at.replace(second=0), key, found.edited_at))
    assert got == planted
