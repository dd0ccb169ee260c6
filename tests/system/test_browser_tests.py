"""Every test that drives Chromium lives in tests/browser/, whose Chromium and
Playwright loop start and stop with the package (tests/browser/conftest.py): no other
test runs under that loop, before or after, split over processes or not."""

from __future__ import annotations

import asyncio
import os

import pytest

from tests.conftest import ROOT


def test_every_test_that_drives_chromium_is_in_the_browser_package(request):
    browser_dir = ROOT / "tests" / "browser"
    outside = [
        item.nodeid
        for item in request.session.items
        if ({"browser", "chromium"} & set(item.fixturenames) or item.get_closest_marker("browser"))
        and browser_dir not in item.path.parents
    ]
    assert outside == []


@pytest.mark.django_db
def test_no_event_loop_runs_here_and_the_orm_is_guarded(django_user_model):
    with pytest.raises(RuntimeError, match="no running event loop"):
        asyncio.get_running_loop()
    assert "DJANGO_ALLOW_ASYNC_UNSAFE" not in os.environ
    assert django_user_model.objects.count() == 0
