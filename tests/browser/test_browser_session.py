"""One Chromium for the browser tests, a fresh context per test (issue 33 §6): the second
test gets the very browser the first used, with none of the first test's contexts (its
pages, cookies and storage) left open."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser
FIRST: list[object] = []  # the browser the first test saw


def test_one_chromium_for_the_run_part_1(browser):
    """Opens a context with a cookie and leaves it open: the fixture closes it."""
    context = browser.new_context()
    context.add_cookies([{"name": "seen", "value": "1", "url": "http://localhost"}])
    context.new_page()
    FIRST.append(browser)


def test_one_chromium_for_the_run_part_2(browser):
    """Runs after part 1, in the same process (a file's tests run in order, the parts in one
    process: tests/parallel.py): same browser, no context left."""
    assert [browser] == FIRST
    assert browser.contexts == []
    assert browser.new_context().cookies() == []
