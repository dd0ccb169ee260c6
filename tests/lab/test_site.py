"""The Bilanciamento page (docs/balance.md): a study started from the form runs as chunk
tasks, stores each chunk, merges them into the same figures as the pure run, and shows
them with plots; a cancelled study stops. The chunk tasks run eagerly here; the real
worker's run is tests/lab/test_worker.py."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from gm.celery import app
from lab.models import BalanceChunk, BalanceStudy
from lab.services import balance_chunk_run, balance_study_cancel, balance_study_start
from roles.balance.study import Study, Variant, run_study
from roles.balance.study_report import compare, summary

pytestmark = pytest.mark.django_db


@pytest.fixture
def eager():
    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = before


def pure_figures(variant: Variant, games: int, model: str, seed: int) -> dict:
    aggregate = run_study(Study(variant, games, model, seed))
    return json.loads(json.dumps(summary(aggregate, variant.setup)))


def test_the_form_starts_a_study_and_the_page_shows_its_figures(
    client, gm_user, eager, django_capture_on_commit_callbacks
):
    client.force_login(gm_user)
    page = client.get(reverse("balance:home"))
    assert page.status_code == 200
    assert 'value="20000"' in page.content.decode()  # the default number of games
    form = {"setup": "coin-toss", "games": "1200", "model": "informed", "seed": "9",
            "opt_ct__fate_strikes": "on", "versus": "on", "swap_out": "prescelto",
            "swap_in": "gregario", "vs_ct__fate_strikes": "on"}  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("balance:home"), form)
    study = BalanceStudy.objects.get()
    assert response.url == reverse("balance:detail", args=[study.pk])
    study.refresh_from_db()
    assert study.status == BalanceStudy.Status.DONE
    assert BalanceChunk.objects.filter(study=study).count() == 2 * study.chunks == 6
    assert study.figures["first"] == pure_figures(Variant("coin-toss"), 1200, "informed", 9)
    swapped = Variant("coin-toss", swap=("prescelto", "gregario"))
    assert study.figures["second"] == pure_figures(swapped, 1200, "informed", 9)
    blu = study.figures["comparison"][1]
    assert blu["low"] <= 2 / 3 <= blu["high"]  # the Blu win always instead of 1/3 (CT-R3)
    html = client.get(study.get_absolute_url()).content.decode()
    assert html.count("<svg") >= 8
    assert "Blu: vittorie " in html
    assert "IC 95%" in html
    listing = client.get(reverse("balance:home")).content.decode()
    assert study.get_absolute_url() in listing


def test_english_page(client, gm_user, eager, django_capture_on_commit_callbacks):
    client.force_login(gm_user)
    with django_capture_on_commit_callbacks(execute=True):
        study = balance_study_start(gm=gm_user, variant=Variant("coin-toss"), games=300,
                                    model="random", seed=1, versus=Variant(
                                        "coin-toss", swap=("prescelto", "gregario")))  # fmt: skip
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    html = client.get(study.get_absolute_url()).content.decode()
    assert "Blu: wins " in html
    assert "Wins by faction (95% CI)" in html


def running(study: BalanceStudy) -> BalanceStudy:
    """As the publishing task leaves a study (lab.balance_publish), its chunks not queued."""
    BalanceStudy.objects.filter(pk=study.pk).update(status=BalanceStudy.Status.RUNNING)
    study.refresh_from_db()
    return study


def test_a_cancelled_study_plays_no_more_chunks(gm_user):
    study = running(balance_study_start(gm=gm_user, variant=Variant("coin-toss"), games=1500,
                                        model="random", seed=2))  # fmt: skip
    assert balance_chunk_run(study.pk, 0, 0) == "stored"
    assert balance_study_cancel(study=study)
    assert balance_chunk_run(study.pk, 0, 1) == "skipped"
    study.refresh_from_db()
    assert study.status == BalanceStudy.Status.CANCELLED
    assert study.parts.count() == 1
    assert not balance_study_cancel(study=study)  # once


def test_the_progress_is_polled_and_works_without_javascript(client, gm_user):
    study = running(balance_study_start(gm=gm_user, variant=Variant("coin-toss"), games=1000,
                                        model="random", seed=3))  # fmt: skip
    balance_chunk_run(study.pk, 0, 0)
    client.force_login(gm_user)
    page = client.get(study.get_absolute_url()).content.decode()
    assert 'value="50"' in page  # one chunk of two
    assert 'hx-trigger="every 1s"' in page
    assert reverse("balance:detail", args=[study.pk]) in page  # the refresh link
    partial = client.get(study.get_absolute_url(), headers={"HX-Request": "true"})
    assert partial.content.decode().lstrip().startswith('<div id="progress"')
    balance_chunk_run(study.pk, 0, 1)
    done = client.get(study.get_absolute_url(), headers={"HX-Request": "true"})
    assert done["HX-Refresh"] == "true"
    other = client.get(reverse("balance:detail", args=[study.pk + 999]))
    assert other.status_code == 404


def test_the_comparison_is_the_pure_one():
    a = run_study(Study(Variant("coin-toss"), 500, "random", 1))
    b = run_study(Study(Variant("coin-toss", swap=("prescelto", "gregario")), 500, "random", 1))
    assert compare(a, b, "coin-toss")[1]["difference"] == pytest.approx(1 - a.wins["blu"] / 500)
