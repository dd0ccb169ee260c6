"""Issue 31: every page in each language has no word of the other. The walk takes every
route of the URLconf (a new one is walked, or listed below with its reason) for the GM, a
player and a visitor, over Wild West Wolf games (just dealt, in their third night, finished),
an Inquisizione day with the Boia's secret vote and a night voted in the thread, a BANG!
and a Time Car game and a balance study, in Italian and in English, chosen as a user does
(the language switch). Posts to paste stay in the
game's language, as designed (textareas), and what people typed (names, reasons, wills)
is theirs; everything else is checked word by word (tests/words.py)."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
import time_machine
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from desks.automobile.desk import adt_game_create, adt_log
from desks.ribelle.desk import ribelle_game_create, ribelle_log
from games.engine import load_setup
from games.models import Game, Phase, Submission, Will
from games.services.game import player_link_issue
from games.services.phases import current_phase, override_add, phase_commit
from games.services.submissions import action_submit, vote_cast
from games.services.topic_settings import topic_settings_update
from lab.models import BalanceStudy
from roles.balance.study import Variant
from tests.conftest import ROOT
from tests.factories import first_day, make_game, night_one, tomorrow_morning
from tests.played import played_game
from tests.words import ITALIAN_ONLY, other_language, page_words

pytestmark = pytest.mark.django_db
LANGUAGES = ("it", "en")

# Routes that are no page to read, each with its reason (a route missing from here and
# from the walk fails the test: a new page is never forgotten).
NOT_PAGES = {
    "healthz": "the health check's JSON, for the load balancer",
    "favicon.ico": "a redirect to the static icon",
    "logout": "POST only (Django's LogoutView)",
    "set_language": "the language switch itself: POST, then a redirect",
    "games:backup": "the game as a JSON file to download",
    "admin:*": "Django's own admin, for the site's operator, in Django's English",
}


def listed(route: str) -> bool:
    """Whether ``route`` is no page to read (by its name, or its namespace's ``ns:*``)."""
    return route in NOT_PAGES or f"{route.partition(':')[0]}:*" in NOT_PAGES


# The pages each kind of reader can reach; the others answer 302 (to the login), 403,
# 404 or 405 (POST only) to him.
VIEWERS = ("gm", "player", "visitor")
NOT_HTML = 0  # a 200 that is no page (a file, JSON): list its route


@dataclass
class World:
    """The games the walk reads, what people typed in them, what each route answered."""

    werewolf: list[Game]
    desks: list[Game]
    study: BalanceStudy
    seen: dict[str, set[int]] = field(default_factory=dict)  # route -> statuses
    user_text: set[str] = field(default_factory=set)

    @property
    def games(self) -> list[Game]:
        return self.werewolf + self.desks


def routes() -> Iterator[tuple[str, URLPattern]]:
    """Every route of the URLconf as ``namespace:name`` (its path when it has no name)."""

    def walk(patterns: list, namespace: str) -> Iterator[tuple[str, URLPattern]]:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                inner = f"{pattern.namespace}:" if pattern.namespace else namespace
                yield from walk(pattern.url_patterns, inner)
            else:
                yield f"{namespace}{pattern.name or str(pattern.pattern)}", pattern

    yield from walk(get_resolver().url_patterns, "")


def _urls(route: str, pattern: URLPattern, world: World) -> Iterator[str]:
    """The concrete addresses of ``route`` over the world's games."""
    params = set(pattern.pattern.converters)
    if not params:
        yield reverse(route)
        if route == "games:new":
            yield reverse(route) + "?setup=inquisizione"
        return
    if params == {"setup"}:
        for slug in ("wild-west-wolf", "inquisizione", "ribelle", "automobile-del-tempo"):
            yield reverse(route, kwargs={"setup": slug})
        return
    if params == {"token"}:
        return  # the private link: the player's walk opens it
    if route.startswith("balance:"):
        yield reverse(route, kwargs={"pk": world.study.pk})
        return
    games = world.desks if route.startswith("desks:") else world.games
    for game in games:
        kwargs = {"pk": game.pk}
        if "player_pk" in params:
            kwargs["player_pk"] = game.players.order_by("seat").first().pk
        if "phase_pk" in params:
            phase = game.phases.filter(status=Phase.Status.COMMITTED).last()
            if phase is None:
                continue
            kwargs["phase_pk"] = phase.pk
        if "sub_pk" in params:
            sub = Submission.objects.filter(phase__game=game).last()
            if sub is None:
                continue
            kwargs["sub_pk"] = sub.pk
        url = reverse(route, kwargs=kwargs)
        yield url
        if route == "games:detail":
            yield url + "?link=nuovi"
        if route == "games:spoiler":
            yield from (f"{url}?lang={lang}" for lang in LANGUAGES)


def _client(viewer: str, lang: str, world: World, gm) -> Client:
    client = Client()
    if viewer == "gm":
        client.force_login(gm)
    elif viewer == "player":
        player = world.werewolf[0].players.order_by("seat").first()
        client.get(reverse("player_enter", args=[player_link_issue(player=player)]))
    client.post(reverse("set_language"), {"language": lang, "next": "/"})  # as a user does
    return client


def _read(client: Client, url: str, lang: str, world: World, route: str) -> dict[str, list]:
    """GET ``url``; an HTML page's words of the other language, by address."""
    response = client.get(url)  # a redirect is read where it leads, on its own route
    page = response.headers.get("Content-Type", "").startswith("text/html")
    status = response.status_code if page or response.status_code != 200 else NOT_HTML
    world.seen.setdefault(route, set()).add(status)
    if status != 200:
        return {}
    html = response.content.decode()
    assert f'<html lang="{lang}">' in html, url
    found = other_language(without(page_words(html), world.user_text), lang)
    return {f"{url} ({lang})": found} if found else {}


def _user_text(world: World) -> set[str]:
    """What people typed: names, reasons, wills (theirs, in any language)."""
    typed = set()
    for game in world.games:
        typed.add(game.name)
        for player in game.players.all():
            typed |= {player.name, *player.previous_names}
        for phase in game.phases.all():
            typed |= {o.get("reason", "") for o in phase.overrides}
    typed |= set(Submission.every.values_list("reason", flat=True))
    for text in Will.objects.values_list("text", flat=True):
        typed |= {line.strip() for line in text.splitlines()}
    return typed - {""}


def _world(gm) -> World:
    third_night = played_game(gm, finish=False)
    phase_commit(phase=current_phase(third_night), user=gm)  # D3: nobody votes
    night = current_phase(third_night)  # N3: an attack and an investigation
    cowboy = third_night.players.filter(role="cowboy").order_by("seat").last()
    action_submit(phase=night, player=third_night.players.get(role="indiano"), target=cowboy)
    action_submit(phase=night, player=third_night.players.get(role="maresciallo"),
                  target=cowboy)  # fmt: skip
    teacher = third_night.players.get(role="maestrina")  # refused: she accompanies herself
    Submission.objects.create(phase=night, player=teacher, kind=Submission.Kind.ACTION,
                              slot="accompany", target=teacher)  # fmt: skip
    override_add(phase=night, user=gm, kind="spare",
                 player=third_night.players.get(role="sceriffo"), reason="motivo")  # fmt: skip
    inquisition = make_game(gm, setup="inquisizione", name="Lupus 2")
    day = first_day(inquisition, gm)
    wolf = inquisition.players.filter(role="lupo_mannaro").first()
    for voter in inquisition.players.order_by("seat")[:4]:
        if voter != wolf:
            vote_cast(phase=day, player=voter, target=wolf)
    vote_cast(phase=day, player=inquisition.players.get(role="boia"), target=wolf, secret=True)
    bang = ribelle_game_create(gm=gm, name="Saloon", player_names=["Sam", "Vic", "Olga", "Reb"],
                               seed=1)  # fmt: skip
    ribelle_log(game=bang, kind="turn", players=["Sam"], user=gm, phase=2)
    train = adt_game_create(gm=gm, name="Treno", config={"cars": 3, "rounds": 5},
                            bandits={"Ada": "django", "Bea": "belle"})  # fmt: skip
    adt_log(game=train, kind="stealin", data={}, user=gm)
    study = BalanceStudy.objects.create(gm=gm, setup="wild-west-wolf", games=1000, chunks=1,
                                        variant=Variant("wild-west-wolf").as_dict())  # fmt: skip
    dealt = make_game(gm, name="Lupus 3")  # N0: the Pianista's fake role
    inquisition_night = make_game(gm, setup="inquisizione", name="Lupus 4")
    night_one(inquisition_night, gm)  # N1: the Guards, the Postino, the Templare
    topic_settings_update(game=inquisition_night, user=gm, votes_from_topic=True,
                          vote_lines=["[b]Voto: Nome[/b]"], withdraw_lines=["#ritiro"],
                          aliases="", gm_names=["Narratore"])  # fmt: skip
    werewolf = [third_night, played_game(gm), inquisition, dealt, inquisition_night]
    world = World(werewolf, [bang, train], study)
    world.user_text = _user_text(world)
    return world


def test_every_page_in_each_language_has_no_word_of_the_other(gm_user):
    with time_machine.travel(tomorrow_morning(), tick=True):  # the wills' noon not passed
        world = _world(gm_user)
        found: dict[str, list] = {}
        for lang in LANGUAGES:
            for viewer in VIEWERS:
                client = _client(viewer, lang, world, gm_user)
                for route, pattern in routes():
                    if listed(route):
                        continue
                    for url in _urls(route, pattern, world):
                        found |= _read(client, url, lang, world, route)
            found |= _every_players_page(world, lang)
    assert found == {}, "\n".join(f"{page}: {words}" for page, words in sorted(found.items()))
    opened = {"player_enter": {302}}  # a private link becomes the session, then /io/
    unread = {r for r, seen in world.seen.items() if not seen & opened.get(r, {200, 405})}
    missing = {r for r, _ in routes() if r not in world.seen and not listed(r)}
    assert missing == set(), "a new route: walk it, or list it in NOT_PAGES with its reason"
    assert unread == set(), "a route no reader could open: give the walk what it needs"


def _every_players_page(world: World, lang: str) -> dict[str, list]:
    """Each player's own page (every card of each setup, every desk seat), through his
    private link."""
    found: dict[str, list] = {}
    for game in world.games:
        for player in game.players.order_by("seat"):
            client = Client()
            entered = client.get(reverse("player_enter", args=[player_link_issue(player=player)]))
            world.seen.setdefault("player_enter", set()).add(entered.status_code)
            client.post(reverse("set_language"), {"language": lang, "next": "/"})
            read = _read(client, reverse("player_home"), lang, world, "player_home")
            found |= {f"{url} {game.setup} {player.role}": words for url, words in read.items()}
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_posts_are_in_the_games_language(client, gm_user, lang):
    """Posts stay in the game's language, by design: an English game's posts (an
    execution, a night death, the end with the winning side and every role) hold no
    Italian word of the list, an Italian game's no English one."""
    game = make_game(gm_user, language=lang)
    day = first_day(game, gm_user)
    indian, sheriff = game.players.get(role="indiano"), game.players.get(role="sceriffo")
    vote_cast(phase=day, player=sheriff, target=game.players.filter(role="cowboy").first())
    phase_commit(phase=day, user=gm_user)
    night = current_phase(game)
    action_submit(phase=night, player=game.players.get(role="capo_indiano"), target=sheriff)
    phase_commit(phase=night, user=gm_user)
    day = current_phase(game)
    for player in game.players.filter(role__in=["capo_indiano", "sciamano", "indiano"]):
        override_add(phase=day, user=gm_user, kind="kill", player=player, reason="-")
    phase_commit(phase=day, user=gm_user)
    client.force_login(gm_user)
    page = client.get(reverse("games:posts", args=[game.pk])).content.decode()
    posts = " ".join(re.findall(r"<textarea\b[^>]*>(.*?)</textarea>", page, flags=re.S))
    assert indian.name in posts  # the posts were read
    names = {p.name for p in game.players.all()} | {game.name}
    assert other_language(without(posts, names), lang) == []


@pytest.mark.parametrize(("lang", "told"), [("it", "Conosci:"), ("en", "You know:")])
def test_the_gm_reads_whom_a_player_knows_once(client, gm_user, lang, told):
    """Under «Sa all'inizio» ("Knows at start") the GM's sheet and the spoiler name whom
    the Indians know, not the player's own "Conosci: ..." ("You know: ...") again; the
    player reads it so on his page."""
    game = played_game(gm_user)
    client.force_login(gm_user)
    client.post(reverse("set_language"), {"language": lang, "next": "/"})
    indians = game.players.filter(role__in=["capo_indiano", "sciamano"]).values_list("name")
    for name in ("detail", "spoiler"):
        text = page_words(client.get(reverse(f"games:{name}", args=[game.pk])).content.decode())
        assert told not in text, name
        assert ", ".join(n for (n,) in indians) in text, name


def without(text: str, typed: set[str]) -> str:
    """``text`` less what people typed, each as whole words ("Mar" is no part of Marshal)."""
    for words in sorted(typed, key=len, reverse=True):
        text = re.sub(rf"(?<!\w){re.escape(words)}(?!\w)", " ", text)
    return text


def test_a_broken_translation_is_caught():
    """The check itself: an Italian word on an English page, an English one on an Italian
    page, whole words only (Giornale is no Giorno), posts in textareas left out."""
    english = '<html lang="en"><main><p>Day 1 · Giorno 1</p><textarea>Notte 1</textarea></main>'
    assert other_language(page_words(english), "en") == ["Giorno"]
    italian = "<p>Notte 2: the Sheriff · Giornale</p>"
    assert other_language(page_words(italian), "it") == ["Sheriff", "the"]
    assert other_language(page_words("<p>Giornale, Theory</p>"), "en") == []
    assert re.search(r"\bGiorno\b", "Giornale") is None


CATALOGUES = sorted(
    str(po.relative_to(ROOT))
    for po in ROOT.glob("**/locale/*/LC_MESSAGES/*.po")
    if ".venv" not in po.parts
)


@pytest.mark.parametrize("po", CATALOGUES)
def test_no_catalogue_has_an_untranslated_or_fuzzy_entry(po):
    """The site's English catalogue, the engine's and each setup's Italian ones: every
    entry translated, none fuzzy (msgfmt's own count)."""
    said = subprocess.run(["msgfmt", "--statistics", "--check-format", "-o", "/dev/null", po],
                          capture_output=True, text=True, check=True, cwd=ROOT)  # fmt: skip
    assert re.fullmatch(r"\d+ translated messages?\.\n", said.stderr), said.stderr


def test_no_stray_catalogue_in_the_role_packages():
    """The setups' catalogues translate the engine's English into Italian: an English one
    (a makemessages across the tree makes them empty) would shadow nothing but noise."""
    assert sorted(ROOT.glob("roles/*/locale/en")) == []


@pytest.mark.parametrize("setup", ["wild-west-wolf", "inquisizione"])
def test_every_card_and_group_has_its_english_name(setup):
    """The English reader's card: its title and text in English, and no Italian word of
    the list in them."""
    for card in load_setup(setup).cards.values():
        assert card.name_en, card.key
        assert card.text_en, card.key
        assert other_language(f"{card.name_en} {card.text_en}", "en") == [], card.key
        assert card.name_en not in ITALIAN_ONLY
