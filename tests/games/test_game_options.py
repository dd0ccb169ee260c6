"""The new-game form's options (issue 13 §3): typed fields, words a GM understands, and
only options some code reads."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from django import forms
from django.urls import reverse
from django.utils import translation

from games.forms.game import GameCreateForm, option_fields
from games.models import Game
from games.text.rulebook import option_rule
from roles.engine.setups import SetupError, available_setups, load_setup, setup_dir
from tests.desks.forms import deal
from tests.factories import WWW_NAMES

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.django_db

BASE = {
    "name": "Prova", "setup": "wild-west-wolf", "players": "\n".join(WWW_NAMES),
    "language": "it", "vote_close_time": "22:00", "day_close_time": "22:15",
    "powers_close_time": "22:30", "confirmed": "1",  # the list already checked (issue 12)
}  # fmt: skip


def defaults(setup_key: str = "wild-west-wolf") -> dict[str, str]:
    """The form as the GM finds it: every option at its default, as a browser posts it."""
    form = GameCreateForm(setup_key=setup_key)
    data = {}
    for field in form.option_fields():
        value = field.initial
        if value is True:
            data[field.name] = "on"
        elif value is not False:
            data[field.name] = value.strftime("%H:%M") if hasattr(value, "strftime") else value
    return {**BASE, "setup": setup_key, **data}


def test_free_text_will_deadline_is_refused_at_creation(client, gm_user):
    """WWW-D23: the day-death will deadline is a time; "alle dieci e mezza" would later
    crash the page of every player who dies by day, so the form refuses it."""
    client.force_login(gm_user)
    response = client.post(reverse("games:new"), {
        **defaults(), "opt_www__day_death_will_deadline": "alle dieci e mezza",
    })  # fmt: skip
    assert response.status_code == 200
    assert Game.objects.count() == 0
    assert "Scrivi un orario come 22:30 (ore e minuti)." in response.content.decode()


def test_a_valid_time_is_stored_as_hh_mm(client, gm_user):
    """WWW-D23: a GM who moves the day-death will deadline gets it as the rules read it."""
    client.force_login(gm_user)
    response = deal(client, reverse("games:new"), {
        **defaults(), "opt_www__day_death_will_deadline": "23:00",
        "opt_www__notary_delivery": "since_last",
    })  # fmt: skip
    assert response.status_code == 200  # dealt: the sheet with the links, shown once
    game = Game.objects.get()
    assert game.options == {
        "www.day_death_will_deadline": "23:00",
        "www.notary_delivery": "since_last",
    }


def test_a_choice_outside_its_values_is_refused(client, gm_user):
    client.force_login(gm_user)
    response = client.post(reverse("games:new"), {
        **defaults(), "opt_www__notary_delivery": "a caso",
    })  # fmt: skip
    assert response.status_code == 200
    assert Game.objects.count() == 0


def test_the_engine_refuses_a_time_that_is_not_hh_mm():
    """The service path (scenarios, the lab) is held to the same kinds as the form."""
    setup = load_setup("wild-west-wolf")
    with pytest.raises(SetupError, match="day_death_will_deadline must be HH:MM"):
        setup.with_options({"www.day_death_will_deadline": "alle dieci e mezza"})
    with pytest.raises(SetupError, match="notary_delivery must be one of"):
        setup.with_options({"www.notary_delivery": "sometimes"})


@pytest.mark.parametrize("setup_key", ["wild-west-wolf", "inquisizione"])
def test_each_option_is_a_typed_field_with_words_in_both_languages(setup_key):
    setup = load_setup(setup_key)
    kinds = {"flag": forms.BooleanField, "number": forms.IntegerField,
             "time": forms.TimeField, "choice": forms.ChoiceField}  # fmt: skip
    with translation.override("it"):
        italian = option_fields(setup)
    with translation.override("en"):
        english = option_fields(setup)
    assert len(italian) == len(setup.options)
    for name, option in setup.option_fields.items():
        field = italian["opt_" + name.replace(".", "__")]
        assert isinstance(field, kinds[option.kind]), name
        assert "_" not in field.label, name  # words, not the key
        assert "Predefinito:" in field.help_text, name
        other = english["opt_" + name.replace(".", "__")]
        assert other.label == option.label["en"], name
        assert "Default:" in other.help_text, name
        if option.kind == "choice":
            assert [value for value, _ in field.choices] == list(option.choices)


def test_the_new_game_page_shows_labels_help_and_rule_links(client, gm_user):
    client.force_login(gm_user)
    html = client.get(reverse("games:new") + "?setup=wild-west-wolf").content.decode()
    assert "Scadenza del testamento (morti di giorno)" in html
    assert 'name="opt_www__day_death_will_deadline" value="22:30"' in html
    assert 'type="time"' in html
    assert "Predefinito: 22:30." in html
    assert 'id="id_opt_www__day_death_will_deadline_helptext"' in html  # aria-describedby
    assert 'href="/regolamento/wild-west-wolf/#WWW-D23"' in html


@pytest.mark.parametrize("setup_key", ["wild-west-wolf", "inquisizione"])
def test_every_offered_option_cites_its_decision(setup_key):
    """The help's rule number: each option is a DECISION of the setup's rulebook."""
    assert [o for o in load_setup(setup_key).options if not option_rule(setup_key, o)] == []


def _code() -> str:
    """Every Python module and template of the site and the rules, but the setup loader
    (which declares the common options, it does not read them)."""
    files = [
        *ROOT.joinpath("roles").rglob("*.py"),
        *ROOT.joinpath("games").rglob("*.py"),
        *ROOT.joinpath("templates").rglob("*.html"),
        *ROOT.joinpath("tests", "setups").rglob("*.py"),
    ]  # test setups
    # (the test-only setups' rules read their options too)
    skip = {"setups.py", "options.py"}
    return "\n".join(f.read_text(encoding="utf-8") for f in files if f.name not in skip)


def test_every_offered_option_is_read_by_some_code():
    """Issue 13 §3: an option no code reads changes nothing, so it is not offered."""
    code = _code()
    unread = []
    for key in available_setups():
        setup = load_setup(key)
        if not setup.option_fields:
            continue
        for name in setup.options:
            short = name.split(".", 1)[1]
            read = re.search(rf"[\"'}}]{short}[\"']", code)  # opt(state, "x"), f"{prefix}x"
            if not (read or re.search(rf"[\"']{re.escape(name)}[\"']", code)):  # options["www.x"]
                unread.append(name)
    assert unread == []


def test_a_free_text_option_is_refused_by_the_loader(tmp_path, monkeypatch):
    source = setup_dir("classic-village") / "setup.yaml"
    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    data["options"]["cv.dawn"] = "quando vuole il master"
    data["option_fields"]["cv.dawn"] = {"label": {"it": "Alba"}, "help": {"it": "Quando."}}
    path = tmp_path / "setup.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    from roles.engine import setups

    monkeypatch.setitem(
        setups._registered, "classic-village", (path, setups._registered["classic-village"][1])
    )
    load_setup.cache_clear()
    try:
        with pytest.raises(SetupError, match=r"cv\.dawn is free text"):
            load_setup("classic-village")
        del data["option_fields"]["cv.investigate_dead"]
        data["options"].pop("cv.dawn")
        data["option_fields"].pop("cv.dawn")
        path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
        load_setup.cache_clear()
        with pytest.raises(SetupError, match="investigate_dead needs an Italian label"):
            load_setup("classic-village")
    finally:
        load_setup.cache_clear()


def test_www_d35_a_retired_or_unknown_option_is_refused_naming_it():
    """WWW-D35: a retired option (public_posting_until, read by nothing) and an unknown one
    are both refused, each naming its key; stored games lose their retired keys in a data
    migration (games/migrations), so they keep loading."""
    setup = load_setup("wild-west-wolf")
    with pytest.raises(SetupError) as retired:
        setup.with_options({"www.public_posting_until": "a mezzanotte"})
    assert retired.value.said.id == "option.retired"
    assert "www.public_posting_until" in str(retired.value)
    with pytest.raises(SetupError) as unknown:
        setup.with_options({"www.made_up": True})
    assert unknown.value.said.id == "option.unknown"
    assert "www.made_up" in str(unknown.value)
