"""Issue 13 §2: everything the engine says to a person is a message id with parameters,
rendered through the catalogues in Italian and in English; no Italian page shows an
engine key or an English sentence of the engine."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import time_machine
from django.urls import reverse
from django.utils import translation

from games.models import Submission
from games.services.game import player_link_issue
from games.services.phases import current_phase, override_add, phase_commit, phase_preview
from games.services.submissions import action_submit
from games.text.words import catalogue, say
from roles.engine.messages import CATALOGUE, WORDS, Message, Role, Word, render
from roles.engine.registry import ruleset_for
from roles.engine.setups import load_setup
from tests.conftest import ROOT
from tests.factories import tomorrow_morning
from tests.played import played_game
from tests.words import PLACEHOLDER, load_all_setups, untranslated, visible_text

# Which setup's catalogue holds an id, by its prefix (generic ids have none).
PREFIXES = {"www": "wild-west-wolf", "inq": "inquisizione", "cv": "classic-village",
            "ct": "coin-toss"}  # fmt: skip


def _setup_of(message_id: str) -> str:
    return PREFIXES.get(message_id.split(".")[0], "")


def _has(setup: str, lang: str, msgid: str, context: str | None = None) -> bool:
    """Whether the chain of catalogues for ``setup`` translates ``msgid`` (an entry, even
    one identical to the English, counts; a missing one does not)."""
    key = f"{context}\x04{msgid}" if context else msgid
    chain = catalogue(setup, lang)
    while chain is not None:
        if key in getattr(chain, "_catalog", {}):
            return bool(chain._catalog[key])
        chain = getattr(chain, "_fallback", None)
    return False


def _sample(message_id: str) -> Message:
    names = PLACEHOLDER.findall(CATALOGUE[message_id])
    return Message(message_id, {n: f"«{n}»" for n in names})


def test_every_message_id_renders_in_italian_and_english():
    """Each id: Italian has its own entry with the same placeholders; English renders as
    the engine's own text (the msgid is the English)."""
    load_all_setups()
    assert len(CATALOGUE) > 100
    missing, placeholders = [], []
    for message_id, template in sorted(CATALOGUE.items()):
        setup = _setup_of(message_id)
        if not _has(setup, "it", template):
            missing.append(message_id)
            continue
        italian = catalogue(setup, "it").gettext(template)
        if sorted(PLACEHOLDER.findall(italian)) != sorted(PLACEHOLDER.findall(template)):
            placeholders.append(message_id)
        sample = _sample(message_id)
        with translation.override("it"):
            assert "«" in say(sample, setup) or "%(" not in template
        with translation.override("en"):
            assert say(sample, setup) == render(sample) == str(sample)
    assert missing == []
    assert placeholders == []


def test_every_verb_is_translated_in_both_its_uses():
    """The abilities' verbs, as "can %(verb)s only at night" and "cannot %(verb)s X"."""
    load_all_setups()
    missing = []
    for context, text in sorted(WORDS):
        if not any(_has(setup, "it", text, context) for setup in PREFIXES.values()):
            missing.append((context, text))
    assert missing == []
    for setup in (s for s in load_all_setups() if s in PREFIXES.values()):
        rules = ruleset_for(setup)
        for role in rules.setup.cards:
            for ability in rules.card_abilities(role):
                assert any(text == ability.verb for _, text in WORDS), (setup, ability.verb)


def test_a_refusal_reads_in_the_players_language():
    """WWW-D4: a vote for oneself is refused, in Italian to an Italian player."""
    rules = ruleset_for("wild-west-wolf")
    said = Message("vote.self", {}, "")
    with translation.override("it"):
        assert say(said) == "non può votare per sé stesso"
    with translation.override("en"):
        assert say(said) == "cannot vote for himself"
    verb = Message(
        "action.repeat", {"verb": Word("accompany", "verb with object"), "target": "Cid"}
    )
    with translation.override("it"):
        assert say(verb, rules.key) == "non può accompagnare Cid per due notti di seguito"
    role = Message("www.trace.shot", {"gunman": "Ugo", "role": Role("pistolero"), "target": "Cid"})
    with translation.override("it"):
        assert say(role, rules.key) == "Ugo (Pistolero) spara a Cid"
    assert str(role) == "Ugo (pistolero) shoots Cid"


def test_every_message_id_the_code_says_is_declared():
    """A literal id in ``msg("...")`` anywhere in the engine, the setups or the site is in
    the catalogue (an id built at run time is checked by the results test below)."""
    load_all_setups()
    said = re.compile(r"""\bmsg\(\s*"([a-z_.]+)"|\bMessage\(\s*"([a-z_.]+)\"""")
    unknown = []
    for folder in ("roles", "games", "tests/setups"):
        for path in (ROOT / folder).rglob("*.py"):
            for found in said.findall(path.read_text(encoding="utf-8")):
                key = found[0] or found[1]
                if key not in CATALOGUE:
                    unknown.append(f"{path.relative_to(ROOT)}: {key}")
    assert unknown == []


def test_every_result_a_setup_gives_has_its_sentence():
    """Every value a result kind may take (docs/spec/scenarios.md) reads as a sentence of
    its setup, in both languages."""
    cases = {
        "wild-west-wolf": [
            ("investigation", "Cid", "americano"), ("investigation", "Cid", "indiano"),
            ("autopsy", "Cid", "indiano"), ("autopsy", None, "nessuno"),
            ("vision", "Cid", "rinnegato"), ("vip", "Cid", "vip"), ("vip", "Cid", "non_vip"),
            ("spotted", None, "Cid"), ("spotted", None, "sciamano"), ("spotted_by", None, "Ada"),
            ("recruit", "Cid", "success"), ("recruit", "Cid", "failed"),
            ("recruit", "Cid", "exposed"), ("recognized", None, "Ada"),
            ("recruited_by", None, "Ada"), ("wills", None, ["Ada", "Bea"]),
            ("rinnegato", None, "Cid"), ("bounty", None, "Cid"), ("role", None, "cowboy"),
            ("knows", None, ["Ada", "Bea"]), ("converted", "Cid", True),
            ("converted", "Cid", False), ("bounty_role", "Cid", "pastore"),
            ("role_of", "Cid", "bandito"),
        ],
        "inquisizione": [
            ("investigation", "Cid", "innocente"), ("investigation", None, "losco"),
            ("investigation", "Cid", "eretico"), ("investigation", "Cid", "non_eretico"),
            ("visitors", None, ["Ada"]), ("visitors", None, []), ("last_wolf", None, True),
        ],
    }  # fmt: skip
    from games.text.presentation import describe

    for setup, results in cases.items():
        for kind, about, value in results:
            for lang in ("it", "en"):
                with translation.override(lang):
                    text = describe(setup, kind, about, value)
                assert untranslated(text) == [] or lang == "en", (setup, kind, value, text)
                assert not text.startswith(f"{kind}:"), (setup, kind, value)
    with translation.override("it"):
        assert describe("wild-west-wolf", "visitors", None, ["Ada"]).startswith("visitors:")


def test_the_setups_own_words_are_in_both_languages():
    """Labels, causes of death and post lines of each setup's YAML: Italian and English."""
    for setup in load_all_setups():
        data = load_setup(setup)
        for table in (data.labels, data.causes, data.texts):
            for key, labels in table.items():
                assert labels.get("it"), (setup, key)
                assert labels.get("en"), (setup, key)


def test_each_catalogue_is_compiled_from_its_source():
    """The committed .mo files hold what their .po files say (msgfmt was run)."""
    import gettext as gnu
    import subprocess

    for po in [*ROOT.glob("roles/*/locale/*/LC_MESSAGES/django.po"),
               *ROOT.glob("tests/setups/*/locale/*/LC_MESSAGES/django.po")]:  # fmt: skip
        mo = po.with_suffix(".mo")
        fresh = Path(mo.parent / "fresh.mo")
        try:
            subprocess.run(["msgfmt", "--check-format", "-o", str(fresh), str(po)], check=True)
            with mo.open("rb") as a, fresh.open("rb") as b:
                assert gnu.GNUTranslations(a)._catalog == gnu.GNUTranslations(b)._catalog, po
        finally:
            fresh.unlink(missing_ok=True)


@pytest.mark.django_db
def test_the_pages_of_a_played_game_in_italian_hold_no_engine_word(client, gm_user):
    """Phase page (with a preview's results, trace and refused submissions), a player's
    page, the spoiler, the posts page and the audit log of a whole played game, in
    Italian: no engine key, no English sentence of the engine."""
    with time_machine.travel(tomorrow_morning(), tick=True):  # the wills' noon deadline not passed
        _pages_hold_no_engine_word(client, gm_user)


def _pages_hold_no_engine_word(client, gm_user):
    game = played_game(gm_user, finish=False)
    phase_commit(phase=current_phase(game), user=gm_user)  # D3: nobody votes
    night = current_phase(game)  # N3: an attack, an answer, a refused submission
    cowboy = game.players.filter(role="cowboy").order_by("seat").last()  # the one alive
    action_submit(phase=night, player=game.players.get(role="indiano"), target=cowboy)
    action_submit(phase=night, player=game.players.get(role="maresciallo"), target=cowboy)
    teacher = game.players.get(role="maestrina")
    Submission.objects.create(phase=night, player=teacher, kind=Submission.Kind.ACTION,
                              slot="accompany", target=teacher)  # fmt: skip
    override_add(phase=night, user=gm_user, kind="spare",
                 player=game.players.get(role="sceriffo"), reason="motivo")  # fmt: skip
    preview = phase_preview(night)
    assert preview.inputs.dropped, "a refused submission shows on the phase page"
    assert {r.kind for r in preview.outcome.results} >= {"investigation"}
    client.force_login(gm_user)
    pages = {
        name: client.get(reverse(f"games:{name}", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="it")
        for name in ("phase", "posts", "audit", "detail", "wills")
    }
    finished = played_game(gm_user)
    pages["spoiler"] = client.get(reverse("games:spoiler", args=[finished.pk]))
    for player in finished.players.filter(role__in=["maresciallo", "notaio", "indiano", "cowboy"]):
        link = reverse("player_enter", args=[player_link_issue(player=player)])
        pages[f"player {player.role}"] = client.get(link, follow=True)
    for name, response in pages.items():
        assert response.status_code == 200, name
        text = visible_text(response.content.decode())
        assert untranslated(text) == [], name
    assert "Indiano" in visible_text(pages["player maresciallo"].content.decode())


def test_the_posts_lines_are_in_both_languages():
    """The public posts (roles/engine/announce.py): English the templates, Italian the
    engine's catalogue, read without Django (the replay prints the Italian)."""
    from roles.engine.announce import TEXT, post_texts
    from roles.engine.messages import engine_catalogue

    italian = engine_catalogue("it")
    for key, template in TEXT.items():
        assert italian._catalog.get(template), key  # type: ignore[attr-defined]
        fields = sorted(re.findall(r"\{(\w*)\}", template))
        assert sorted(re.findall(r"\{(\w*)\}", post_texts("it")[key])) == fields, key
    assert post_texts("it")["nobody_died"] == "Stanotte non è morto nessuno."
    assert post_texts("en")["nobody_died"] == "Nobody died tonight."


def test_the_desks_words_are_in_both_languages():
    """Issue 13 §2 and the desks: the Time Car's ids (its Italian in its package's
    catalogue, English the templates) and BANG!'s (the site's catalogue, Italian msgids)."""
    from desks.ribelle import text as ribelle_text
    from roles.automobile_del_tempo import messages as adt

    italian = adt.catalogue("it")
    for table in (adt.TEXT, adt.UNITS, adt.FLOORS, adt.LOOT):
        for key, template in table.items():
            assert italian._catalog.get(template), key  # type: ignore[attr-defined]
            fields = sorted(re.findall(r"\{(\w*)\}", template))
            assert sorted(re.findall(r"\{(\w*)\}", italian.gettext(template))) == fields, key
    assert adt.render("adt.hide.where", {"under": "car2"}, "it") == "si nasconde sotto il Vagone 2"
    assert adt.render("adt.hide.where", {"under": "car2"}, "en") == "hides under car 2"
    names = [ribelle_text.MESSAGES, ribelle_text.ROLE_NAMES, ribelle_text.SIDE_WINS,
             ribelle_text.DECK_NAMES, ribelle_text.GOALS]  # fmt: skip
    untranslated_en = []
    for table in names:
        for key, text in table.items():
            with translation.override("en"):
                english = str(text)
            with translation.override("it"):
                if english == str(text) and len(english) > 12:  # not a proper name
                    untranslated_en.append(key)
    assert untranslated_en == []


def test_the_engine_says_no_sentence_only_ids():
    """A trace line or a refusal written as a sentence (a string or an f-string) in the
    engine or a setup would reach a person in English: each must be a message id."""
    import ast

    folders = [ROOT / "roles" / "engine", ROOT / "roles" / "wild_west_wolf",
               ROOT / "roles" / "inquisizione", ROOT / "tests" / "setups"]  # fmt: skip
    sentences = []
    for folder in folders:
        for path in folder.rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Call):
                    continue
                name = getattr(node.func, "attr", getattr(node.func, "id", ""))
                said = {"why": 0, "violation": 2, "RuleViolation": 0}.get(name)
                if said is None or len(node.args) <= said:
                    continue
                if isinstance(node.args[said], ast.Constant | ast.JoinedStr):
                    sentences.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert sentences == []
