"""The browser tests' starting pages: the GM logged in on a desktop or a phone, a player's
phone, a busy game to show on them, what measures a page's width, and a page that keeps
every violation of the site's Content-Security-Policy."""

from __future__ import annotations

from django.urls import reverse
from playwright.sync_api import Browser, BrowserContext, Page

from games.models import Game, Player
from games.services.game import player_link_issue
from games.services.phases import current_phase, phase_commit
from games.services.submissions import action_submit, vote_cast, will_save
from tests.conftest import PHONE
from tests.factories import make_game

# Every violation of the page's policy, as the page itself sees it (with or without a
# console message): collected in window.__violations from the first script the page runs.
CSP_LISTEN = """window.__violations = [];
document.addEventListener('securitypolicyviolation', e => window.__violations.push(
  e.violatedDirective + ' ' + (e.blockedURI || 'inline') + ' ' + (e.sample || '')));"""


def policy_watched(context: BrowserContext, reported: list[str]) -> Page:
    """A new page of ``context`` that keeps every policy violation: the page's own events
    in ``window.__violations``, the console's reports of them in ``reported``."""
    context.add_init_script(CSP_LISTEN)
    page = context.new_page()
    page.on("console", lambda msg: "Content Security Policy" in msg.text
            and reported.append(msg.text))  # fmt: skip
    return page


def log_in(page: Page, site: str, username: str = "master", password: str = "pw-master-1") -> None:
    """``page`` logs in on the site at ``site`` (its address, no trailing slash)."""
    page.goto(f"{site}/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")


def gm_page(browser: Browser, live_server, username: str = "master") -> Page:
    """A new context on the dashboard, logged in as ``username`` (password pw-master-1)."""
    page = browser.new_context().new_page()
    log_in(page, live_server.url, username)
    return page


def phone_for(browser: Browser, live_server, player: Player) -> Page:
    """A new 390 px phone context that opened ``player``'s private link."""
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(live_server.url + reverse("player_enter", args=[player_link_issue(player=player)]))
    return phone


WIDE = "document.documentElement.scrollWidth"
CULPRITS = """() => Array.from(document.querySelectorAll('body *'))
  .filter(e => e.getBoundingClientRect().right > 391)
  .map(e => e.tagName + '.' + e.className + '#' + e.id)
  .slice(0, 30)"""  # what sticks out, for the failure message


def gm_phone(browser: Browser, live_server, **context) -> Page:
    """A new 390 px phone context, logged in as the GM."""
    page = browser.new_context(**PHONE, **context).new_page()
    log_in(page, live_server.url)
    return page


def busy_game(gm_user) -> Game:
    """A Wild West Wolf game on Day 2 with votes, a death, an executed Indian, the
    Indians split on tonight's attack and a choice on a dead target."""
    game = make_game(gm_user, name="Una partita dal nome piuttosto lungo per un telefono")
    phase_commit(phase=current_phase(game), user=gm_user)  # N0
    day = current_phase(game)
    cowboys = list(game.players.filter(role="cowboy").order_by("seat"))
    indiano = game.players.get(role="indiano")
    for voter in game.players.exclude(pk=indiano.pk)[:6]:
        vote_cast(phase=day, player=voter, target=indiano)
    phase_commit(phase=day, user=gm_user)  # D1: the Indian is executed
    night = current_phase(game)
    action_submit(phase=night, player=game.players.get(role="capo_indiano"), target=cowboys[0])
    will_save(player=cowboys[0], text="Lunghissimo " * 40)
    phase_commit(phase=night, user=gm_user)  # N1: the first cowboy dies
    day = current_phase(game)
    night = game.phases.get(label="N2")
    action_submit(phase=night, player=game.players.get(role="capo_indiano"), target=cowboys[1])
    action_submit(phase=night, player=game.players.get(role="sciamano"), target=cowboys[2])
    pastore, maresciallo = game.players.get(role="pastore"), game.players.get(role="maresciallo")
    action_submit(phase=night, player=game.players.get(role="maestrina"), target=pastore)
    living = list(game.players.exclude(pk__in=[indiano.pk, cowboys[0].pk, pastore.pk]))
    for voter in living[:8]:
        vote_cast(phase=day, player=voter, target=pastore)
    for voter in living[8:]:
        if voter != maresciallo:
            vote_cast(phase=day, player=voter, target=maresciallo)
    return game
