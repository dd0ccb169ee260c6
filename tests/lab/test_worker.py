"""A balance study split into chunk tasks on a real Celery worker (real Redis, the test
database) gives exactly the figures of the single-process run with the same seed."""

from __future__ import annotations

import json
import time

import pytest

from lab.models import BalanceStudy
from lab.services import balance_study_start
from roles.balance.study import Study, Variant, run_study
from roles.balance.study_report import summary

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]


def wait_done(study: BalanceStudy, seconds: float = 180) -> BalanceStudy:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        study.refresh_from_db()
        if study.status == BalanceStudy.Status.DONE:
            return study
        time.sleep(0.5)
    pytest.fail(f"the study is still {study.status} with {study.parts.count()} chunks stored")


def test_the_chunked_job_on_a_worker_equals_the_single_process_run(celery_worker_process, gm_user):
    variant = Variant("inquisizione", {"inq.guards_can_protect_partner": True})
    study = wait_done(balance_study_start(gm=gm_user, variant=variant, games=1100,
                                          model="informed", seed=21))  # fmt: skip
    assert study.parts.count() == 3  # 500 + 500 + 100 games, each stored by its task
    alone = summary(run_study(Study(variant, 1100, "informed", 21)), "inquisizione")
    assert study.figures["first"] == json.loads(json.dumps(alone))
    assert study.figures["first"]["games"] == 1100
