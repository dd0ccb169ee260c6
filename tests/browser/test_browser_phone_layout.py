"""Browser, on a 390 px phone (issue 31 minor): ""Riapri anche ai giocatori" floats away
from its button; on a 390 px phone the GM's submissions table breaks headers mid-word."
The checkbox sits at its words and they sit with their button; every header of the GM's
tables breaks, if at all, between words, and none spills out of its cell."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Phase
from tests.browser.pages import busy_game, gm_phone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Each word of each header: a word on two lines has client rects on two lines.
BROKEN_HEADERS = """(selector) => Array.from(document.querySelectorAll(selector)).flatMap(th => {
  const bad = [];
  if (th.scrollWidth > th.clientWidth + 1) bad.push(th.textContent.trim() + ': spills out');
  const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const word of node.textContent.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, word.index);
      range.setEnd(node, word.index + word[0].length);
      const lines = new Set(Array.from(range.getClientRects()).map(r => Math.round(r.top)));
      if (lines.size > 1) bad.push(word[0] + ': broken mid-word');
    }
  }
  return bad;
})"""

# The checkbox, its words and the button of the undo form, as boxes.
UNDO_BOXES = """() => {
  const form = document.querySelector('form:has(input[name=players])');
  const box = form.querySelector('input[type=checkbox]');
  const label = box.closest('label');
  const range = document.createRange();
  range.selectNodeContents(label);
  const words = Array.from(range.getClientRects()).filter(r => r.width > 20).pop();
  const plain = r => ({left: r.left, right: r.right, top: r.top, bottom: r.bottom,
                       width: r.width, height: r.height});
  return {box: plain(box.getBoundingClientRect()), words: plain(words),
          button: plain(form.querySelector('button').getBoundingClientRect())};
}"""


def assert_together(boxes: dict) -> None:
    box, words, button = boxes["box"], boxes["words"], boxes["button"]
    assert box["width"] < 40, boxes  # a checkbox, not a row-wide box
    middle = (box["top"] + box["bottom"]) / 2
    assert words["top"] <= middle <= words["bottom"], boxes  # on the line of its words
    assert 0 <= words["left"] - box["right"] < 20, boxes  # just before them
    gap = button["top"] - max(box["bottom"], words["bottom"])
    beside = button["left"] >= words["right"] and button["top"] < words["bottom"]
    assert beside or 0 <= gap < 20, boxes  # the button right after, beside or below


def test_reopen_to_players_sits_with_its_button_and_headers_break_between_words(
    live_server, browser, gm_user
):
    game = busy_game(gm_user)
    gm = gm_phone(browser, live_server)
    gm.goto(live_server.url + reverse("games:phase", args=[game.pk]))
    assert gm.locator("#submissions tbody tr").count() > 5
    assert gm.evaluate(BROKEN_HEADERS, "main th") == []
    assert_together(gm.evaluate(UNDO_BOXES))
    with gm.expect_navigation():
        gm.locator("form:has(input[name=players]) button").click()  # the confirmation page
    assert "Annullare la risoluzione" in gm.locator("h1").inner_text()
    assert_together(gm.evaluate(UNDO_BOXES))
    gm.goto(live_server.url + reverse("games:detail", args=[game.pk]))
    assert gm.evaluate(BROKEN_HEADERS, "main th") == []
    assert Phase.objects.filter(game=game, status=Phase.Status.COMMITTED).exists()
