"""Deadlines close once and only once: racing ticks, a worker killed mid-close, submissions
straddling the deadline, a beat that was down for a while (real worker, real Redis)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
import random
import signal
import subprocess
import sys
import threading
import time
import uuid
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from games.models import AuditEvent, Phase, Submission
from games.services.deadlines import (
    deadlines_run,
    phase_close,
    phase_extend,
    phase_pause,
    phase_resume,
)
from games.services.game import player_link_issue
from games.services.phases import current_phase, phase_commit
from games.services.submissions import vote_cast
from games.tasks import deadlines_tick
from tests.conftest import ROOT, database_url_for_subprocess
from tests.factories import commits, day_one, set_deadline, wait_for, worker_idle

pytestmark = pytest.mark.django_db(transaction=True)


def test_due_day_is_resolved_and_night_left_for_the_gm(gm_user):
    game, day = day_one(gm_user)
    sheriff, indian = game.players.get(role="sceriffo"), game.players.get(role="indiano")
    vote_cast(phase=day, player=sheriff, target=indian)
    set_deadline(day, timezone.now() - dt.timedelta(seconds=1))
    assert deadlines_run() == {"committed": 1}
    day.refresh_from_db()
    assert day.status == Phase.Status.COMMITTED
    assert day.outcome["execution"]["executed"] == indian.name
    night = current_phase(game)
    set_deadline(night, timezone.now() - dt.timedelta(seconds=1))
    assert deadlines_run() == {"closed": 1}
    night.refresh_from_db()
    assert night.status == Phase.Status.CLOSED  # the GM previews and commits


def test_auto_commit_nights(gm_user):
    game, day = day_one(gm_user)
    game.auto_commit_nights = True
    game.save()
    set_deadline(day, timezone.now() - dt.timedelta(seconds=2))
    set_deadline(game.phases.get(label="N1"), timezone.now() - dt.timedelta(seconds=1))
    assert deadlines_run() == {"committed": 2}
    assert current_phase(game).label == "D2"


def test_two_ticks_racing_close_once(gm_user):
    game, day = day_one(gm_user)
    set_deadline(day, timezone.now() - dt.timedelta(seconds=1))
    results = []

    def tick():
        try:
            results.append(phase_close(day.pk))
        finally:
            connection.close()

    threads = [threading.Thread(target=tick) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == ["committed", "not_due", "not_due", "not_due"]
    assert commits(game) == 2  # N0 by hand, D1 once


def test_the_close_comes_a_grace_after_the_deadline_and_the_receive_stamp_decides(
    gm_user, settings
):
    """A vote that reached the site before the deadline and reaches the database within
    the grace counts; one that reached the site after it is refused, grace or not."""
    settings.TABULA_CLOSE_GRACE_SECONDS = 5
    game, day = day_one(gm_user)
    deadline = timezone.now() - dt.timedelta(seconds=2)
    set_deadline(day, deadline)
    assert deadlines_run() == {}  # within the grace: still open
    voter, late, target = list(game.players.all())[:3]
    vote_cast(phase=day, player=voter, target=target,
              received_at=deadline - dt.timedelta(seconds=0.5))  # fmt: skip
    with pytest.raises(ValidationError, match="è chiusa"):
        vote_cast(phase=day, player=late, target=target,
                  received_at=deadline + dt.timedelta(seconds=0.5))  # fmt: skip
    set_deadline(day, timezone.now() - dt.timedelta(seconds=6))  # the grace is over
    assert deadlines_run() == {"committed": 1}
    day.refresh_from_db()
    assert [vote["voter"] for vote in day.inputs["votes"]] == [voter.seat]


def test_submissions_are_refused_after_the_deadline_by_the_database_clock(gm_user):
    game, day = day_one(gm_user)
    set_deadline(day, timezone.now() - dt.timedelta(milliseconds=1))
    with pytest.raises(ValidationError) as info:
        vote_cast(phase=day, player=game.players.first(), target=game.players.last())
    assert "è chiusa" in info.value.messages[0]


def test_extend_pause_resume_are_logged(gm_user):
    game, day = day_one(gm_user)
    later = day.closes_at + dt.timedelta(hours=1)
    phase_extend(phase=day, closes_at=later, user=gm_user, reason="festa")
    phase_pause(phase=day, user=gm_user, reason="server del forum giù")
    set_deadline(day, timezone.now() - dt.timedelta(seconds=1))
    assert deadlines_run() == {}  # a paused phase does not close
    phase_resume(phase=day, user=gm_user)
    kinds = list(AuditEvent.objects.filter(game=game).values_list("kind", flat=True))
    assert {"deadline_moved", "deadline_paused", "deadline_resumed"} <= set(kinds)


def test_beat_down_for_a_while_then_overdue_phases_close_in_order(gm_user, celery_worker_process):
    games = [day_one(gm_user, name=f"G{i}", seed=i) for i in range(3)]
    base = timezone.now() - dt.timedelta(hours=1)
    for offset, (_, day) in enumerate(games):
        set_deadline(day, base + dt.timedelta(minutes=10 * (2 - offset)))  # last game first
    deadlines_tick.delay()
    assert wait_for(lambda: Phase.objects.filter(label="D1", status="committed").count() == 3)
    closes = list(
        AuditEvent.objects.filter(kind="deadline")
        .order_by("at", "pk")
        .values_list("game__name", flat=True)
    )
    assert closes == ["G2", "G1", "G0"]
    deadlines_tick.delay()
    worker_idle()  # the tick ran, and closed nothing twice
    assert AuditEvent.objects.filter(kind="commit", detail__phase="D1").count() == 3


def start_worker(env_extra: dict[str, str], queue: str) -> subprocess.Popen:
    env = {**os.environ, "DATABASE_URL": database_url_for_subprocess(),
           "TABULA_CLOSE_GRACE_SECONDS": "0", **env_extra}  # fmt: skip
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "gm", "worker", "--loglevel", "warning",
         "--concurrency", "1", "--without-mingle", "--without-gossip", "--queues", queue,
         "--hostname", f"kill-{uuid.uuid4().hex[:8]}@%h"],
        cwd=ROOT, env=env, start_new_session=True,
    )  # fmt: skip


def test_worker_killed_mid_close_then_the_close_completes_once(gm_user, celery_worker_process):
    if connection.vendor != "postgresql":
        pytest.skip("watches PostgreSQL's row locks (CI runs on PostgreSQL)")
    game, day = day_one(gm_user)
    set_deadline(day, timezone.now() - dt.timedelta(seconds=1))
    queue = f"kill-{uuid.uuid4().hex[:8]}"  # only the doomed worker listens here
    stalled = start_worker({"TABULA_TEST_STALL_CLOSE": "60"}, queue)
    try:
        deadlines_tick.apply_async(queue=queue)
        assert wait_for(lambda: _in_close(day.pk), 60), "the worker never started the close"
    finally:
        os.killpg(stalled.pid, signal.SIGKILL)
        stalled.wait()
    day.refresh_from_db()
    assert day.status == Phase.Status.OPEN  # the interrupted close rolled back whole
    deadlines_tick.delay()  # the next beat tick, on the running worker
    assert wait_for(lambda: Phase.objects.get(pk=day.pk).status == Phase.Status.COMMITTED)
    worker_idle()  # nothing left in the worker's queue to close it again
    assert commits(game) == 2


def _in_close(phase_id: int) -> bool:
    """Whether another connection holds the phase row locked in an open transaction."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_locks l JOIN pg_class c ON l.relation = c.oid "
            "WHERE c.relname = 'games_phase' AND l.mode = 'RowExclusiveLock' "
            "AND l.pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0] > 0


def test_submissions_straddling_the_deadline(gm_user, celery_worker_process, settings):
    """200 votes sent across the vote close: those before it count, those after it are
    refused with a clear message, none is lost (checked in the database)."""
    game, day = day_one(gm_user)
    players = list(game.players.all())
    deadline = timezone.now() + dt.timedelta(seconds=2)
    set_deadline(day, deadline)
    stopped = threading.Event()

    def beat() -> None:  # the beat's schedule, twice a second, through the real worker
        while not stopped.wait(0.5):
            deadlines_tick.delay()

    accepted, refused, errors = [], [], []
    lock = threading.Lock()
    connections_left = threading.BoundedSemaphore(60)  # PostgreSQL allows 100 clients

    def send(i: int) -> None:
        rng = random.Random(i)
        voter = players[i % len(players)]
        target = rng.choice([p for p in players if p != voter])
        time.sleep(rng.uniform(1.0, 3.0))
        try:
            with connections_left:
                vote_cast(phase=day, player=voter, target=target)
                connection.close()
            with lock:
                accepted.append(i)
        except ValidationError as exc:
            with lock:
                refused.append(exc.messages[0])
        except Exception as exc:
            with lock:
                errors.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(i,)) for i in range(200)]
    clock = threading.Thread(target=beat)
    for thread in [*threads, clock]:
        thread.start()
    for thread in threads:
        thread.join()
    stopped.set()
    clock.join()
    deadlines_tick.delay()
    assert errors == []
    assert len(accepted) + len(refused) == 200
    assert accepted
    assert refused
    assert all("è chiusa" in message for message in refused)
    assert wait_for(lambda: Phase.objects.get(pk=day.pk).status == Phase.Status.COMMITTED)
    stored = Submission.objects.filter(phase=day)
    assert stored.count() == len(accepted)  # none lost
    assert all(sub.at < deadline for sub in stored)
    day.refresh_from_db()
    assert len(day.inputs["votes"]) == len(accepted)  # every one of them was counted


def test_gm_moves_and_pauses_a_deadline_and_players_see_it(client, gm_user):
    game, day = day_one(gm_user)
    client.force_login(gm_user)
    url = reverse("games:gm_deadline", args=[game.pk])
    local = (timezone.now() + dt.timedelta(days=10)).astimezone(ZoneInfo("Europe/Rome"))
    local = local.replace(hour=21, minute=0, second=0, microsecond=0)
    client.post(url, {"phase": day.pk, "action": "move", "closes_at": f"{local:%Y-%m-%dT%H:%M}",
                      "reason": "Capodanno"})  # fmt: skip
    day.refresh_from_db()
    assert day.closes_at == local  # 21:00 in Rome
    client.post(url, {"phase": day.pk, "action": "pause", "reason": "forum giù"})
    assert Phase.objects.get(pk=day.pk).paused_at is not None
    player = client.__class__()
    token = player_link_issue(player=game.players.first())
    player.get(reverse("player_enter", args=[token]))
    html = player.get(reverse("player_home")).content.decode()
    assert "Il master ha sospeso la scadenza di D1: forum giù" in html
    client.post(url, {"phase": day.pk, "action": "resume"})
    assert Phase.objects.get(pk=day.pk).paused_at is None
    dashboard = client.get("/").content.decode()
    assert "Prossima scadenza" in dashboard


def test_schedule_update_keeps_the_order_of_the_day(client, gm_user):
    game, _ = day_one(gm_user)
    client.force_login(gm_user)
    url = reverse("games:gm_schedule", args=[game.pk])
    client.post(url, {"vote_close_time": "23:00", "day_close_time": "22:15",
                      "powers_close_time": "22:30"})  # fmt: skip
    game.refresh_from_db()
    assert str(game.vote_close_time) == "22:00:00"
    client.post(url, {"vote_close_time": "21:30", "day_close_time": "21:45",
                      "powers_close_time": "22:00", "auto": "1"})  # fmt: skip
    game.refresh_from_db()
    assert (str(game.vote_close_time), game.auto_commit_nights) == ("21:30:00", True)


def test_the_day_ends_once_at_its_close(gm_user):
    """WWW-R15 / INQ-R12: 22:15, the close of the day."""
    game, day = day_one(gm_user)
    assert day.day_ends_at > day.closes_at  # 22:15 after the 22:00 vote close
    Phase.objects.filter(pk=day.pk).update(day_ends_at=timezone.now() - dt.timedelta(seconds=1))
    assert deadlines_run() == {"day_closed": 1}
    assert deadlines_run() == {}
    assert AuditEvent.objects.filter(game=game, kind="day_closed").count() == 1


def state_view(state) -> tuple:
    """A GameState as plain values (its players compare by identity)."""
    seats = [(p.name, p.seat, p.role, p.dealt_role, p.faction, p.counts_as, p.alive,
              p.departed) for p in state.players]  # fmt: skip
    skip = {"players", "by_name", "groups", "marked"}
    rest = {f.name: getattr(state, f.name) for f in dataclasses.fields(state) if f.name not in skip}
    return seats, sorted(state.by_name), rest, [(p.name, why) for p, why in state.marked]


def test_the_clocks_closes_resolve_as_the_gm_commit_does(gm_user):
    """Due phases of several games closed by the clock are each resolved exactly as the
    GM's commit resolves its twin: same record, results, next phases and carried state."""
    twins, clocked = [], []
    for n in range(4):
        for side in (twins, clocked):
            game, day = day_one(gm_user, name=f"gemella {n}", seed=n)
            game.auto_commit_nights = True
            game.save()
            players = list(game.players.order_by("seat"))
            for voter in players[:8]:
                vote_cast(phase=day, player=voter, target=players[8 + (voter.seat + n) % 3])
            side.append((game, day))
    for (_twin, twin_day), (_game, day) in zip(twins, clocked, strict=True):
        times = Submission.objects.filter(phase=twin_day).order_by("pk").values_list("at")
        for sub, (at,) in zip(day.submissions.order_by("pk"), times, strict=True):
            Submission.objects.filter(pk=sub.pk).update(at=at)  # the twins' posts read alike
        set_deadline(day, timezone.now() - dt.timedelta(seconds=1))
    assert deadlines_run() == {"committed": 4}
    for (twin, twin_day), (game, day) in zip(twins, clocked, strict=True):
        day.refresh_from_db()
        # the count dates a vote cast on another day than the deadline's: the twins' alike
        set_deadline(twin_day, day.closes_at)
        twin_day.refresh_from_db()
        phase_commit(phase=twin_day, user=gm_user)
        twin_day.refresh_from_db()
        day.refresh_from_db()
        assert day.status == Phase.Status.COMMITTED
        assert day.closed_at is not None
        assert (day.inputs, day.outcome) == (twin_day.inputs, twin_day.outcome)
        rows = [list(g.results.values_list("phase", "to__seat", "kind", "order", "value"))
                for g in (twin, game)]  # fmt: skip
        assert rows[0] == rows[1]
        nights = [g.phases.get(label="N1") for g in (twin, game)]
        assert nights[0].closes_at == nights[1].closes_at
        kinds = sorted(AuditEvent.objects.filter(game=game, detail__phase="D1",
                                                 kind__in=["deadline", "commit"])
                       .values_list("kind", flat=True))  # fmt: skip
        assert kinds == ["commit", "deadline"]
