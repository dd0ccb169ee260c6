"""Issue 31, the minors: small faults a new GM met on two game days."""

from __future__ import annotations

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_every_page_names_its_icon_and_favicon_ico_answers(client, gm_user):
    """Issue 31 minor: every page logged a 404 for /favicon.ico."""
    client.force_login(gm_user)
    html = client.get(reverse("dashboard")).content.decode()
    assert '<link rel="icon" href="/static/favicon.svg"' in html
    assert finders.find("favicon.svg")
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response.url == "/static/favicon.svg"
