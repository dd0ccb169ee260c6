"""The browser tests' starting pages: the GM logged in on a desktop, a player's phone."""

from __future__ import annotations

from django.urls import reverse
from playwright.sync_api import Browser, Page

from games.models import Player
from games.services.game import player_link_issue
from tests.conftest import PHONE


def gm_page(browser: Browser, live_server, username: str = "master") -> Page:
    """A new context on the dashboard, logged in as ``username`` (password pw-master-1)."""
    page = browser.new_context().new_page()
    page.goto(f"{live_server.url}/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "pw-master-1")
    page.click("button[type=submit]")
    return page


def phone_for(browser: Browser, live_server, player: Player) -> Page:
    """A new 390 px phone context that opened ``player``'s private link."""
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(live_server.url + reverse("player_enter", args=[player_link_issue(player=player)]))
    return phone
