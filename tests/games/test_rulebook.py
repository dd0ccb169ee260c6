"""The rules live in the project: docs/rules/ served as a "Regolamento" page per setup,
every rule number an anchor, every rule tag on the site a link to its paragraph."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation

from games.services.phases import current_phase, phase_commit, phase_preview
from games.text import rulebook as rulebook_module
from games.text.rulebook import TAG, link_rules, rulebook, rulebooks
from tests.conftest import ROOT
from tests.factories import login_as, make_game

pytestmark = pytest.mark.django_db

SETUPS = ["wild-west-wolf", "inquisizione", "ribelle", "automobile-del-tempo"]
CITING = ["games", "gm", "roles", "templates", "tests", "README.md"]
HERE = Path(__file__).resolve()  # its own made-up numbers are not citations


def cited_numbers() -> dict[str, set[str]]:
    """Every rule number the code, the templates, the setups and the tests cite."""
    found: dict[str, set[str]] = {}
    for top in CITING:
        base = ROOT / top
        paths = [base] if base.is_file() else base.rglob("*")
        for path in paths:
            if path.suffix in {".py", ".yaml", ".html", ".md", ".txt"} and path != HERE:
                for match in TAG.finditer(path.read_text(encoding="utf-8")):
                    found.setdefault(match.group(0), set()).add(str(path.relative_to(ROOT)))
    return found


def test_every_rule_number_cited_is_an_anchor_of_docs_rules():
    """Each [WWW-R57] the site or a test names has its paragraph in docs/rules/."""
    anchors = set().union(*(rulebook(slug).anchors for slug in rulebooks().values()))
    cited = cited_numbers()
    assert len(cited) > 250  # the scan really read the code
    missing = {tag: sorted(where) for tag, where in cited.items() if tag not in anchors}
    assert missing == {}


@pytest.mark.parametrize("setup", SETUPS)
def test_each_setup_has_its_regolamento_page_with_every_rule_anchored(client, setup):
    """Public like the rules posted on the forum; each number defined in the file is an
    anchor of the page, and the Italian original is quoted whole at the end."""
    response = client.get(reverse("rulebook", args=[setup]))
    assert response.status_code == 200
    html = response.content.decode()
    text = (ROOT / "docs" / "rules" / f"{setup}.md").read_text(encoding="utf-8")
    prefix = rulebook(setup).prefix
    defined = set(re.findall(rf"\*\*({prefix}-[RDI]\d+)\b", text))
    assert defined
    assert all(f'id="{tag}"' in html for tag in defined)
    assert '<h2 id="testo-originale">Testo originale</h2>' in html
    assert 'href="#riferimento"' in html  # in Italian the original comes first (issue 30)
    original = [line for line in text.split("```text\n", 1)[1].splitlines() if line.strip()]
    unnumbered = unescape(re.sub(r'<a id="it-[^"]+"[^>]*>[^<]*</a> ', "", html))
    assert original[0] in unnumbered  # whole, once its rule numbers are set aside
    assert original[-2] in unnumbered


def test_an_unknown_setup_has_no_rulebook(client):
    assert client.get(reverse("rulebook", args=["nessuno"])).status_code == 404


def test_the_rulebook_is_rendered_sanitized(settings, tmp_path, monkeypatch, client):
    """Raw HTML and script links in a rules file never reach the page."""
    (tmp_path / "prova.md").write_text(
        "# Prova\n\n* **PRV-R1** <script>alert(1)</script> [x](javascript:alert(1))\n"
        '<img src=x onerror="alert(1)">\n\nSee PRV-R1.\n',
        encoding="utf-8",
    )
    monkeypatch.setattr(rulebook_module, "DOCS", tmp_path)  # no rulebook is cached yet
    html = client.get(reverse("rulebook", args=["prova"])).content.decode()
    article = html.split('<article class="rulebook">')[1].split("</article>")[0]
    assert "<script" not in article
    assert "<img" not in article
    assert 'href="javascript' not in article
    assert 'id="PRV-R1"' in article
    assert 'See <a href="#PRV-R1" class="rule">PRV-R1</a>' in article


def test_rule_tags_link_to_their_paragraph_escaped():
    html = link_rules("<b>x</b> [WWW-R57, INQ-D6] [spec] XYZ-R1")
    assert html == (
        '&lt;b&gt;x&lt;/b&gt; [<a href="/regolamento/wild-west-wolf/#it-WWW-R57" class="rule">'
        'WWW-R57</a>, <a href="/regolamento/inquisizione/#INQ-D6" class="rule">INQ-D6</a>] '
        "[spec] XYZ-R1"
    )


def test_the_player_page_links_the_regolamento_and_refusals_link_their_rule(client, gm_user):
    """WWW-R34 refusals and the page itself point to the setup's Regolamento."""
    game = make_game(gm_user)
    marshal = game.players.get(role="maresciallo")
    login_as(client, marshal)
    html = client.get(reverse("player_home")).content.decode()
    assert f'href="{reverse("rulebook", args=["wild-west-wolf"])}"' in html
    phase = current_phase(game)
    response = client.post(reverse("player_vote"), {"target": "", "phase": phase.pk},
                           headers={"HX-Request": "true"})  # fmt: skip
    assert 'href="/regolamento/wild-west-wolf/#it-WWW-R14"' in response.content.decode()


def test_the_gm_trace_and_options_link_their_rules(client, gm_user):
    """The explanation trace and each option's DECISION link to the Regolamento."""
    game = make_game(gm_user)
    phase_commit(phase=current_phase(game), user=gm_user)  # N0
    phase = current_phase(game)
    from games.services.submissions import vote_cast

    vote_cast(phase=phase, player=game.players.get(role="sceriffo"),
              target=game.players.filter(role="cowboy").first())  # fmt: skip
    assert any("[WWW-R10" in str(line) for line in phase_preview(phase).outcome.trace)
    client.force_login(gm_user)
    html = client.get(reverse("games:phase", args=[game.pk])).content.decode()
    trace = html.split('<ol class="trace">')[1].split("</ol>")[0]
    assert '<a href="/regolamento/wild-west-wolf/#it-WWW-R10" class="rule">' in trace
    html = client.get(reverse("games:new") + "?setup=wild-west-wolf").content.decode()
    assert 'href="/regolamento/wild-west-wolf/"' in html
    assert '<a href="/regolamento/wild-west-wolf/#WWW-D22" class="rule">WWW-D22</a>' in html
    html = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert f'href="/partite/{game.pk}/regolamento/"' in html


def test_the_rulebook_of_a_game_says_its_will_limit(client, gm_user):
    """WWW-D22 with www.will_word_limit = 200: the GM's (from the game's page) and the
    players' Regolamento say the game's 200 where the DECISION says 150; without the
    game, the text stands."""
    game = make_game(gm_user, options={"www.will_word_limit": 200})
    url = reverse("rulebook", args=["wild-west-wolf"])

    def d22(html: str) -> str:
        return html.split('id="WWW-D22"')[1].split("</li>")[0]

    plain = d22(client.get(url).content.decode())
    assert "after 150 words" in plain
    assert "200" not in plain
    client.force_login(gm_user)
    detail = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    mine_url = reverse("games:rulebook", args=[game.pk])
    assert f'href="{mine_url}"' in detail
    mine = d22(client.get(mine_url).content.decode())
    assert 'after <mark title="www.will_word_limit">200</mark> words' in mine
    assert "www.will_word_limit = <mark" in mine
    assert "150" not in mine
    client.logout()
    login_as(client, game.players.get(role="notaio"))
    assert "after <mark" in d22(client.get(url).content.decode())
    other = make_game(gm_user, setup="inquisizione")
    assert "<mark" not in client.get(reverse("rulebook", args=["inquisizione"])).content.decode()
    assert other.setup == "inquisizione"


@pytest.mark.parametrize("setup", SETUPS)
def test_the_italian_reader_meets_the_italian_text_first(client, setup):
    """Issue 30: the Regolamento was the English specification with the Italian original
    at the end; in Italian the original comes first, in English the specification."""
    italian = client.get(reverse("rulebook", args=[setup])).content.decode()
    first_rule = re.search(r'id="[A-Z]{2,4}-[RDI]\d+"', italian).start()
    assert italian.index('<h2 id="testo-originale">') < first_rule
    assert 'href="#riferimento"' in italian
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    english = client.get(reverse("rulebook", args=[setup])).content.decode()
    first_rule = re.search(r'id="[A-Z]{2,4}-[RDI]\d+"', english).start()
    assert english.index('<h2 id="testo-originale">') > first_rule


@pytest.mark.parametrize("setup", SETUPS)
def test_the_italian_original_is_numbered_as_the_specification(client, setup):
    """Issue 30: both texts numbered the same. Every rule the specification defines
    (RIB-R3) has its place in the Italian original (docs/rules/<setup>.numbers names the
    words where it begins, found exactly once), marked there [RIB-R3] with the anchor
    it-RIB-R3 that links to the English rule, and the English rule links back."""
    path = ROOT / "docs" / "rules" / f"{setup}.md"
    text = path.read_text(encoding="utf-8")
    original = text.partition("\n## Testo originale\n")[2]
    prefix = rulebook(setup).prefix
    rules = set(re.findall(rf"\*\*({prefix}-R\d+)\b", text))
    numbers = rulebook_module.original_numbers(setup)
    assert rules
    assert set(numbers) == rules
    found = {tag: len(rulebook_module.original_words(words).findall(original))
             for tag, words in numbers.items()}  # fmt: skip
    assert found == dict.fromkeys(numbers, 1)
    html = client.get(reverse("rulebook", args=[setup])).content.decode()
    for tag in rules:
        assert f'<a id="it-{tag}" href="#{tag}" class="rule-original">[{tag}]</a>' in html
        assert f'<a href="#it-{tag}" class="to-original" hreflang="it" lang="it">IT</a>' in html
    first = min(rules, key=lambda tag: int(tag.rsplit("R", 1)[1]))
    spec_at, original_at = html.find(f'id="{first}"'), html.find(f'id="it-{first}"')
    assert 0 <= original_at < spec_at  # an Italian reader meets the Italian text first


def test_a_rule_tag_read_in_italian_leads_to_the_italian_original(client):
    """Issue 31: a rule tag on an Italian page opened the English specification; it now
    lands on the rule's place in the Italian original, an English reader's on the rule
    (a DECISION, which the original does not state, on the reference in both)."""
    with translation.override("it"):
        italian = str(link_rules("[WWW-R41] [WWW-D23]"))
    with translation.override("en"):
        english = str(link_rules("[WWW-R41]"))
    page = reverse("rulebook", args=["wild-west-wolf"])
    assert f'href="{page}#it-WWW-R41"' in italian
    assert f'href="{page}#WWW-D23"' in italian
    assert f'href="{page}#WWW-R41"' in english
    assert 'id="it-WWW-R41"' in client.get(page).content.decode()
