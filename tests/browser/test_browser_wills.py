"""Browser: a Wild West Wolf Notaio delivers two wills, one of 174 words; the recipient
reads both on his phone, the long one cut after the 150th word with the cut shown; the GM
reads them; the spoiler has them. The page's word counter agrees with the server's cut."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Game
from games.services.phases import current_phase, override_add, phase_commit
from roles.engine.wills import cut_will
from tests.browser.pages import gm_page, phone_for
from tests.factories import LONG_WILL, notaio_delivers_two_wills

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("before_noon"),
]

TRICKY = [
    "",
    "   ",
    "una",
    "  due\u00a0parole  ",  # a no-break space separates words (str.split)
    "a\u200bb c",  # a zero-width space does not
    "x\ufeffy z",  # U+FEFF is whitespace to JavaScript's \s, not to str.split
    "p\x1cq\x85r s",  # U+001C and U+0085 are whitespace to str.split, not to \s
    "emoji 🐺 lupo\u3000ideografico\u2028riga\tfine",
    "perché\r\nl'ultima   parola… è\nqui",
]


def test_notaio_delivers_two_wills_read_by_the_recipient_the_gm_and_the_spoiler(
    live_server, browser, django_user_model
):
    """WWW-R41, WWW-R42, WWW-R45, WWW-D22."""
    gm_user = django_user_model.objects.create_user(username="master", password="pw-master-1")
    game, recipient, first, second = notaio_delivers_two_wills(gm_user)

    phone = phone_for(browser, live_server, recipient)
    delivered = phone.locator("#delivered-wills")
    text = delivered.inner_text()
    assert f"Testamento di {first.name}" in text
    assert f"Testamento di {second.name}" in text
    assert "parola150 […]" in text
    assert "parola151" not in text
    assert "Tagliato dopo la 150ª parola: 24 parole non riportate." in text
    assert "Io ero un semplice cowboy." in text

    # The live counter counts as the server cuts, and shows where the cut falls.
    area = phone.locator("textarea[name=text]")
    area.fill(LONG_WILL)
    assert phone.locator("[data-word-count]").inner_text() == "174"
    assert (
        "Il taglio cade dopo la 150ª parola, «parola150»: 24 parole"
        in phone.locator("[data-will-cut]").inner_text()
    )
    pattern = area.get_attribute("data-word-pattern")
    for sample in [*TRICKY, LONG_WILL]:
        for limit in (0, 1, 2, 150):
            js = phone.evaluate("([t, n, p]) => TabulaWills.cut(t, n, p)", [sample, limit, pattern])
            py = cut_will(sample, limit)
            assert (js["kept"], js["words"], js["dropped"], js["lastWord"]) == (
                py.kept, py.words, py.dropped, py.last_word,
            ), repr(sample)  # fmt: skip

    gm = gm_page(browser, live_server)
    gm.goto(live_server.url + reverse("games:wills", args=[game.pk]))
    first_will = gm.locator(f"#will-{first.seat}").inner_text()
    assert "parola150 […]" in first_will
    assert "parola174" in first_will  # the GM reads the words after the cut too
    assert f"{recipient.name} (N2)" in first_will
    assert "Io ero un semplice cowboy." in gm.locator(f"#will-{second.seat}").inner_text()

    day = current_phase(game)
    for indian in game.players.filter(role__in=["capo_indiano", "sciamano", "indiano"]):
        override_add(phase=day, user=gm_user, kind="kill", player=indian, reason="fine")
    phase_commit(phase=day, user=gm_user)
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    gm.goto(live_server.url + reverse("games:spoiler", args=[game.pk]))
    wills = gm.locator("#wills").inner_text()
    assert "parola174" in wills
    assert "Io ero un semplice cowboy." in wills
