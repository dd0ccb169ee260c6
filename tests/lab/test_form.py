"""Issue 30, major 6 and the lab minors: the Bilanciamento form marks the options a
player model does not simulate and refuses a second variant that differs only there, or
not at all; a model that cannot play an option is refused; the study list names the
setup and what is compared, the page says each variant's options in words, a cancelled
study keeps what it played, the length histogram has a y axis."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from lab.forms import BalanceStudyForm
from lab.models import BalanceStudy
from lab.plots import plots
from lab.services import balance_chunk_run, balance_study_cancel, balance_study_start
from roles.balance.study import Variant

pytestmark = pytest.mark.django_db

WWW = {"setup": "wild-west-wolf", "games": "1000", "model": "informed", "seed": "1"}


def defaults() -> dict[str, str]:
    """Every option of both variants at its default, as the page's form sends it."""
    form = BalanceStudyForm(setup_key="wild-west-wolf")
    sent = {}
    for name, field in form.fields.items():
        if not name.startswith(("opt_", "vs_")):
            continue
        value = field.initial
        if value is True:
            sent[name] = "on"
        elif value is not False and value is not None:
            sent[name] = value.strftime("%H:%M") if hasattr(value, "strftime") else str(value)
    return sent


def post(client, **fields):
    """The form as sent: a checkbox given "" is left unticked."""
    data = {**WWW, **defaults(), **fields}
    return client.post(reverse("balance:home"), {k: v for k, v in data.items() if v != ""})


def errors(response) -> str:
    match = re.search(r'<div class="error" role="alert">(.*?)</div>', response.content.decode(),
                      re.S)  # fmt: skip
    return match.group(1) if match else ""


def test_an_unsimulated_option_is_marked_on_the_form(client, gm_user):
    client.force_login(gm_user)
    html = client.get(reverse("balance:home"), {"setup": "wild-west-wolf"}).content.decode()
    label = re.search(r'name="opt_www__reveal_role_on_death".*?</label>', html, re.S).group(0)
    assert "Rivela il ruolo alla morte" in label
    assert "(non simulata: non cambia i risultati)" in label
    pistolero = re.search(r'name="opt_www__hunter_immune_to_pistolero".*?</label>', html, re.S)
    assert "non simulata" not in pistolero.group(0)  # WWW-D12 is played
    deputy = re.search(r'name="opt_www__deputy_saves_on_double".*?</label>', html, re.S)
    assert "(non simulata dal modello Informato)" in deputy.group(0)
    change = re.search(r'name="opt_www__allow_vote_change".*?</label>', html, re.S)
    assert (
        "(non simulata dal modello Informato; il modello Casuale non sa giocarla)"
        in change.group(0)
    )


def test_a_second_variant_on_an_unsimulated_option_is_refused(client, gm_user):
    """The issue's case: "rivela il ruolo alla morte" ticked in the second variant gave
    identical counts and "la Legge vince altrettanto spesso"."""
    client.force_login(gm_user)
    response = post(client, versus="on", vs_www__reveal_role_on_death="on")
    assert response.status_code == 200
    assert "Il modello Informato non simula Rivela il ruolo alla morte" in errors(response)
    assert not BalanceStudy.objects.exists()
    # the same option set alike in both variants is no comparison of it: accepted
    response = post(client, versus="on", opt_www__reveal_role_on_death="on",
                    vs_www__reveal_role_on_death="on",
                    vs_www__hunter_immune_to_pistolero="")  # fmt: skip
    assert response.status_code == 302
    study = BalanceStudy.objects.get()
    assert study.variant["options"] == {"www.reveal_role_on_death": True}
    assert study.versus["options"] == {"www.reveal_role_on_death": True,
                                       "www.hunter_immune_to_pistolero": False}  # fmt: skip


def test_an_identical_second_variant_is_refused(client, gm_user):
    client.force_login(gm_user)
    response = post(client, versus="on", opt_www__hunter_immune_to_pistolero="",
                    vs_www__hunter_immune_to_pistolero="")  # fmt: skip
    assert "La seconda variante è identica alla prima" in errors(response)
    assert not BalanceStudy.objects.exists()
    response = post(client, versus="on", swap_out="cowboy", swap_in="rinnegato",
                    opt_www__hunter_immune_to_pistolero="",
                    vs_www__hunter_immune_to_pistolero="")  # fmt: skip
    assert response.status_code == 302  # the same options and a card swapped: a comparison


def test_an_option_the_model_cannot_play_is_refused(client, gm_user):
    """The random model's votes change: with vote changes refused its games stop."""
    client.force_login(gm_user)
    response = post(client, model="random", opt_www__allow_vote_change="")
    assert "Il modello Casuale non sa giocare: Cambio del voto" in errors(response)
    response = post(client, model="informed", opt_www__allow_vote_change="")
    assert response.status_code == 302


def test_the_list_and_the_page_say_the_variants_in_words(client, gm_user):
    client.force_login(gm_user)
    post(client, versus="on", opt_www__reveal_role_on_death="on",
         vs_www__reveal_role_on_death="on", vs_www__hunter_immune_to_pistolero="",
         swap_out="cowboy", swap_in="rinnegato")  # fmt: skip
    study = BalanceStudy.objects.get()
    listing = client.get(reverse("balance:home")).content.decode()
    row = re.search(r"<tbody>.*?</tbody>", listing, re.S).group(0)
    assert "Wild West Wolf" in row
    assert "wild-west-wolf" not in row
    assert (
        "confronto: Cacciatore immune al Pistolero: sì → no; una carta Cowboy sostituita da "
        "Rinnegato" in row
    )
    page = client.get(study.get_absolute_url()).content.decode()
    lines = re.search(r'<p class="muted variant-words">(.*?)</p>', page, re.S).group(1)
    assert "Prima variante: Rivela il ruolo alla morte: sì" in lines
    assert (
        "Seconda variante: Rivela il ruolo alla morte: sì; Cacciatore immune al Pistolero: no"
        "; una carta Cowboy sostituita da Rinnegato" in lines
    )
    assert "www." not in lines
    assert " = " not in lines


def test_a_cancelled_study_keeps_what_it_played(client, gm_user):
    study = balance_study_start(gm=gm_user, variant=Variant("coin-toss"), games=1500,
                                model="random", seed=4)  # fmt: skip
    BalanceStudy.objects.filter(pk=study.pk).update(status=BalanceStudy.Status.RUNNING)
    assert balance_chunk_run(study.pk, 0, 0) == "stored"
    assert balance_chunk_run(study.pk, 0, 1) == "stored"
    assert balance_study_cancel(study=study)
    study.refresh_from_db()
    assert study.status == BalanceStudy.Status.CANCELLED
    assert study.figures["first"]["games"] == 1000
    client.force_login(gm_user)
    page = client.get(study.get_absolute_url()).content.decode()
    assert (
        "Studio annullato: i risultati valgono per le 1000 partite giocate prima "
        "dell'annullamento." in page
    )
    assert page.count("<svg") >= 4
    assert 'table class="figures"' in page
    empty = balance_study_start(gm=gm_user, variant=Variant("coin-toss"), games=500,
                                model="random", seed=5)  # fmt: skip
    assert balance_study_cancel(study=empty)  # still queued: cancelled before any game
    page = client.get(empty.get_absolute_url()).content.decode()
    assert "Studio annullato prima che una partita fosse giocata: nessun risultato." in page


def test_the_length_histogram_has_a_y_axis(gm_user):
    study = balance_study_start(gm=gm_user, variant=Variant("wild-west-wolf"), games=500,
                                model="random", seed=6)  # fmt: skip
    BalanceStudy.objects.filter(pk=study.pk).update(status=BalanceStudy.Status.RUNNING)
    balance_chunk_run(study.pk, 0, 0)
    study.refresh_from_db()
    svg = plots(study, "it")[0]["length_svg"]
    tallest = max(study.figures["first"]["length"]["days"].values())
    assert 'class="y-axis"' in svg
    assert f'class="y-tick" x="52" y="26.0" text-anchor="end">{tallest}</text>' in svg
    assert ">partite</text>" in svg
