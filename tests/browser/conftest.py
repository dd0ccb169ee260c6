"""The system Chromium, for the tests of this package: every test that drives a browser
lives here (tests/system/test_browser_tests.py checks it).

One Playwright and one Chromium serve the whole package (issue 33 §6), a new context per
test. Playwright's sync API keeps its event loop marked as running in this thread from
its start to its stop, and Django refuses the ORM under a running loop: the package's
tests may use it (DJANGO_ALLOW_ASYNC_UNSAFE, through the transactional database's flush
after each test too), and the loop stops with the package, so every other test runs
without it, before or after (a split run keeps the package in one process:
tests/parallel.py)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connections
from playwright.sync_api import Browser, sync_playwright

from tests.conftest import CI

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


def require_chromium() -> str:
    if not Path(CHROMIUM).exists():
        if CI:
            pytest.fail("CI=true but the system Chromium (Debian package chromium) is missing")
        pytest.skip("the system Chromium is not installed (apt-get install chromium)")
    return CHROMIUM


@pytest.fixture(scope="package")
def chromium() -> Iterator[Browser]:
    """One Playwright and one system Chromium for the package's tests."""
    executable = require_chromium()
    with pytest.MonkeyPatch.context() as patch, sync_playwright() as pw:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop vs the ORM
        browser = pw.chromium.launch(
            executable_path=executable,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield browser
        browser.close()


@pytest.fixture
def browser(chromium: Browser) -> Iterator[Browser]:
    """The package's Chromium; every context a test opens (its GM, its phones) is closed
    when the test ends, so no cookie, storage or page outlives it."""
    assert not chromium.contexts, "a context outlived its test"
    yield chromium
    for context in chromium.contexts:
        context.close()
    connections.close_all()  # what the test opened while Playwright ran (its own context)
