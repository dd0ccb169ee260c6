"""Issue 28: pages written to each engine's real markup (tests/fixtures/threads/README.md
names the source of each) read as a GM would paste or save them: ForumFree's "Inviato
il:" (class 1), dates relative to the moment of the copy (2), edit notices (3), a vote
followed by its reason (4), Discourse's app page (5), names (7), posts that mention a
vote without one (8)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from zoneinfo import ZoneInfo

from games.forum import Clock, NameMatcher, VoteSyntax, detect, parse_thread
from games.forum.names import AMBIGUOUS, EXACT

ROME = ZoneInfo("Europe/Rome")
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "threads"
NAMES = ["Narratore", "Sam", "Mia", "Pao", "Nora", "Tizio.Caio", "Il Conte"]
SYNTAX = VoteSyntax(names=NAMES)
EVENING = dt.datetime(2025, 3, 12, 23, 0, tzinfo=ROME)  # copied after the 22:00 deadline


def clock(now: dt.datetime = EVENING) -> Clock:
    return Clock.copied_at(now, ROME, frozenset(n.lower() for n in NAMES))


def read(text: str, now: dt.datetime = EVENING) -> tuple[str, list[tuple]]:
    parser, posts = parse_thread(text, clock(now))
    out = []
    for post in posts:
        vote = SYNTAX.read_post(post.lines)
        said = None if vote is None else "-" if vote.withdraw else vote.name or "?"
        edited = post.edited_at.strftime("%d %H:%M") if post.edited_at else None
        out.append((post.author, post.at.strftime("%d %H:%M:%S"), said, edited))
    return parser.key if parser else "", out


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text()


def test_forumfree_copy_with_the_colon_is_forumfree_and_an_edit_is_no_header():
    """Class 1: "Inviato il: 12/3/2025, 17:02", the member column's "Gruppo: …" lines and
    its "Stato:" joined to the text by a tab; "Modificato da Sam - …" is an edit notice,
    not a generic "Autore - data" header."""
    assert read(fixture("forumfree_copied.txt")) == ("forumfree", [
        ("Narratore", "12 10:30:00", "narratore", None),
        ("Sam", "12 17:02:00", "pao", "12 17:10"),  # the signature under the edit: dropped
        ("Mia", "12 17:05:00", "tizio caio", None),  # the CITAZIONE block does not count
        ("Pao", "12 18:31:00", None, None),
        ("Nora", "12 21:50:00", "il_conte", "12 22:05"),
    ])  # fmt: skip


def test_forumfree_saved_page_drops_nested_quotes_and_the_signature():
    assert read(fixture("forumfree_page.html")) == ("forumfree_html", [
        ("Narratore", "12 10:30:00", None, None),  # "[b]Voto: Nome[/b]" inside a sentence
        ("Sam", "12 17:02:00", "pao", "12 17:10"),  # the signature's "Voto: Mia" is gone
        ("Mia", "12 17:05:00", "tizio caio", None),  # two quotes deep: neither counts
        ("Pao", "12 18:31:00", None, None),
        ("Nora", "12 21:50:00", "il_conte", "12 22:05"),
    ])  # fmt: skip


def test_discourse_page_saved_from_the_browser():
    """Class 5: ``article#post_N``, ``.relative-date[data-time]`` to the second, ``.cooked``,
    ``aside.quote`` two deep, the user title is not the author, the edits button's title."""
    assert read(fixture("discourse_app.html")) == ("discourse_app_html", [
        ("narratore", "12 10:30:00", None, None),
        ("sam", "12 17:02:11", "pao", None),
        ("mia", "12 17:05:42", "tizio caio", None),
        ("pao", "12 18:31:02", None, None),
        ("nora", "12 21:50:00", "il_conte", "12 22:05"),
    ])  # fmt: skip


def test_relative_dates_count_from_the_moment_the_page_was_copied():
    """Class 2: copied the next evening, "Ieri, 17:02" is the 12th, "Oggi, 09:15" the
    13th and "20 ore fa" the 12th at 22:00, whatever the phase's date."""
    next_evening = dt.datetime(2025, 3, 13, 18, 0, tzinfo=ROME)
    assert read(fixture("phpbb_edited.txt"), next_evening) == ("phpbb", [
        ("Narratore", "12 10:30:00", "nome", None),
        ("Sam", "12 17:02:00", "pao", "12 17:10"),
        ("Mia", "12 17:05:00", "pao", None),
        ("Mia", "12 21:50:00", "sam", "12 22:05"),
        ("Nora", "12 22:00:00", "il_conte", None),
        ("Pao", "13 09:15:00", "sam", None),
    ])  # fmt: skip


def test_edit_notices_of_invision_and_phpbb_saved_pages():
    """Class 3: Invision's ``commentEditLine`` (in the text, with its own <time>) and
    phpBB's ``div.notice`` are read and are not part of the post's text."""
    invision = "\n".join([
        "Sam", "Sam", "Membri", "412 messaggi", "Inviato Oggi alle 21:40",
        "Modificato Oggi alle 22:07 da Sam", "Voto: Pao", "Link al commento",
    ])  # fmt: skip
    assert read(invision)[1] == [("Sam", "12 21:40:00", "pao", "12 22:07")]
    saved = (
        "<!DOCTYPE html><html><body><article class='cPost ipsComment'><h3 class="
        "'cAuthorPane_author'><strong><a>Sam</a></strong></h3><div class='ipsComment_meta'>"
        "<time datetime='2025-03-12T20:40:00Z'>Oggi</time></div><div data-role="
        "'commentContent'><span class='ipsType_reset ipsType_medium ipsType_light' "
        "data-excludequote><strong>Modificato <time datetime='2025-03-12T21:07:00Z'>"
        "Oggi alle 22:07</time> da Sam</strong></span><p>Voto: Pao</p></div></article>"
        "<div class='post'><div class='postbody'><p class='author'>da <strong><a>Mia</a>"
        "</strong> &raquo; <time datetime='2025-03-12T20:41:09+00:00'>Oggi</time></p><div "
        "class='content'>Voto: Sam</div><div class='notice'>Ultima modifica di Mia il mer "
        "12 mar 2025, 22:01, modificato 1 volta in totale.</div></div></div></body></html>"
    )
    invision_page, phpbb_page = saved.split("</article>")
    assert read(invision_page + "</article></body></html>") == (
        "invision_html", [("Sam", "12 21:40:00", "pao", "12 22:07")])  # fmt: skip
    assert read("<!DOCTYPE html><html><body>" + phpbb_page) == (
        "phpbb_html", [("Mia", "12 21:41:09", "sam", "12 22:01")])  # fmt: skip


def test_a_vote_followed_by_its_reason():
    """Class 4: a player's exact name first after the keyword is the vote; the bold
    close tag ends the name, even with no player list."""
    assert SYNTAX.read_line("Voto Pao perché ieri ha difeso Nora").name == "pao"
    assert SYNTAX.read_line("Voto Tizio Caio perché sì").name == "tizio.caio"
    assert SYNTAX.read_line("voto il conte, è lupo").name == "il conte"
    plain = VoteSyntax()
    assert plain.read_line("[b]Voto: Caio[/b] perché ieri taceva").name == "caio"
    assert plain.read_line("[B]VOTO:Niccolò[/B], lo dico da ieri").name == "niccolo"
    assert plain.read_line("**Voto: Caio** perché sì").name == "caio"
    assert SYNTAX.read_line("Voto Sam? No, aspetto.").unreadable  # a question: the GM reads
    either = SYNTAX.read_line("Voto Sam o Mia, non so")  # two players: the GM chooses
    assert NameMatcher(dict(enumerate(NAMES))).match(either.name).kind == AMBIGUOUS
    unknown = SYNTAX.read_line("Voto Marco perché sì")  # no player: the GM is asked
    assert not NameMatcher(dict(enumerate(NAMES))).match(unknown.name).sure


def test_names_equal_but_for_punctuation_are_exact_and_mixed_names_show_both():
    """Class 7."""
    names = NameMatcher(dict(enumerate(NAMES, start=1)) | {8: "Gianmarco", 9: "Marco Polo"})
    assert names.match("tizio caio") == names.match("TIZIO_CAIO") == names.match("Tizio.Caio")
    assert names.match("tizio caio").kind == EXACT
    assert (names.match("Il_Conte").kind, names.match("Il_Conte").key) == (EXACT, 7)
    either = names.match("Sam o Mia")
    assert either.kind == AMBIGUOUS
    assert set(either.candidates[:2]) == {2, 3}
    mixed = names.match("Gianpolo")
    assert mixed.kind == AMBIGUOUS
    assert set(mixed.candidates[:2]) == {8, 9}
    twins = NameMatcher({1: "Il Conte", 2: "Il.Conte"}).match("il conte")
    assert (twins.kind, set(twins.candidates)) == (AMBIGUOUS, {1, 2})


def test_posts_that_mention_a_vote_without_one_are_named():
    """Class 8: listed with the reason, so the GM can count them."""
    assert SYNTAX.read_post(["Io voto Sam, che ha votato a caso."]) is None
    assert SYNTAX.mention(["Io voto Sam, che ha votato a caso."])[0] == "mention.vote"
    assert SYNTAX.mention(["Cambio voto: Sam"])[0] == "mention.vote"
    assert SYNTAX.mention(["ok, ritiro tutto"])[0] == "mention.withdraw"
    assert SYNTAX.mention(["per me [b]Il_Conte[/b] è lupo"])[0] == "mention.bold_name"
    assert SYNTAX.mention(["ciao a tutti", "[b]attenzione[/b]"]) is None


def test_detection_of_the_new_pages():
    assert detect(fixture("forumfree_copied.txt")).key == "forumfree"
    assert detect(fixture("discourse_app.html")).key == "discourse_app_html"
    assert detect(fixture("forumfree_page.html")).key == "forumfree_html"


def test_forumfree_page_as_chromium_copies_it_reads_like_the_saved_page():
    """forumfree_page_copied_nocss.txt is Chromium's document.body.innerText of
    forumfree_page.html: the nickname, a tab, " Inviato il: …" each on its own line."""
    copied = read(fixture("forumfree_page_copied_nocss.txt"))
    saved = read(fixture("forumfree_page.html"))
    assert copied[0] == "forumfree"
    assert copied[1] == saved[1]


def test_invision_edited_page_saved_and_as_chromium_copies_it():
    """Invision's ``commentEditLine`` above the text, quotes two deep, an emoji, the
    member group (not an author), a signature with a vote in it (after the "Cita"
    control in the copy): both shapes give the same votes and the edit, copied the
    next evening ("Ieri alle 17:02")."""
    next_evening = dt.datetime(2025, 3, 13, 19, 0, tzinfo=ROME)
    expected = [
        ("Sam", "12 17:02:00", "pao", "12 22:07"),
        ("Mia", "12 17:05:00", "tizio caio", None),
        ("Nora", "12 21:50:00", "il_conte", None),
    ]
    saved = read(fixture("invision_edited.html"), next_evening)
    copied = read(fixture("invision_edited_copied_nocss.txt"), next_evening)
    assert saved[0] == "invision_html"
    assert [(a, t[:8], v, e) for a, t, v, e in saved[1]] == [
        (a, t[:8], v, e) for a, t, v, e in expected
    ]
    assert copied == ("invision", expected)


def test_phpbb_edited_page_saved_and_as_chromium_copies_it():
    """phpBB's bold is a styled span, its rank ("Villico") no author, its edit notice
    under the text and the signature under that; in the copy a quote of a post not in
    the paste shows no end, so its lines wait for the GM (the saved page knows)."""
    next_evening = dt.datetime(2025, 3, 13, 19, 0, tzinfo=ROME)
    assert read(fixture("phpbb_edited.html"), next_evening) == ("phpbb_html", [
        ("Sam", "12 17:02:11", "pao", "12 22:05"),
        ("Mia", "12 17:05:42", "tizio caio", None),
        ("Nora", "12 21:50:00", "il_conte", None),
    ])  # fmt: skip
    assert read(fixture("phpbb_edited_copied_nocss.txt"), next_evening) == ("phpbb", [
        ("Sam", "12 17:02:00", "pao", "12 22:05"),
        ("Mia", "12 17:05:00", None, None),
        ("Nora", "12 21:50:00", "il_conte", None),
    ])  # fmt: skip
    _parser, posts = parse_thread(fixture("phpbb_edited_copied_nocss.txt"), clock(next_evening))
    assert SYNTAX.read_post(posts[1].unsure).name == "tizio caio"  # the GM is asked
