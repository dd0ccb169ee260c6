"""Issue 10, defect 3 under a burst: only running submissions are registered, not those
waiting in the server's queue, and in a burst every worker can be between two requests
for an instant; a close must not take that instant for the end of the queue."""

from __future__ import annotations

import datetime as dt
import time
import types

from games import inflight


class FakeClock:
    """``time`` for games.inflight: sleeping moves it on, nothing waits."""

    def __init__(self, now: float) -> None:
        self.now = now

    def time(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def run_wait(monkeypatch, deadline: dt.datetime, answers: list[bool]) -> tuple[int, float]:
    calls = []

    def settled(_deadline):
        calls.append(1)
        return answers[len(calls) - 1] if len(calls) <= len(answers) else True

    clock = FakeClock(deadline.timestamp() + 0.1)
    start = clock.now
    monkeypatch.setattr(inflight, "settled", settled)
    monkeypatch.setattr(inflight, "time", types.SimpleNamespace(time=clock.time,
                                                                sleep=clock.sleep))  # fmt: skip
    inflight.wait_settled(deadline)
    return len(calls), clock.now - start


def test_defect3_a_busy_deadline_waits_for_a_quiet_registry(monkeypatch):
    deadline = dt.datetime.now(dt.UTC)
    inflight.unregister(inflight.register(deadline.timestamp() - 0.2))  # a vote came in
    assert inflight.busy_near(deadline)
    # idle for an instant (every worker between two requests), busy again, then quiet
    calls, waited = run_wait(monkeypatch, deadline, [True, False, True])
    assert waited >= inflight.QUIET_SECONDS
    assert calls > 3


def test_a_deadline_without_submissions_closes_at_once(monkeypatch):
    deadline = dt.datetime.now(dt.UTC) + dt.timedelta(hours=1)  # nothing stamped near it
    assert not inflight.busy_near(deadline)
    calls, waited = run_wait(monkeypatch, deadline, [True])
    assert (calls, waited) == (1, 0.0)


def test_registrations_trim_the_started_set_of_entries_older_than_kept(monkeypatch):
    """A share of registrations (here every one) drops STARTED entries older than
    KEEP_SECONDS, which no close counts; the recent ones stay."""
    client = inflight._client()
    old, recent = f"old-{time.time()}", f"recent-{time.time()}"
    client.zadd(inflight.STARTED, {old: time.time() - inflight.KEEP_SECONDS - 5,
                                   recent: time.time() - 1})  # fmt: skip
    monkeypatch.setattr(inflight, "TRIM_SHARE", 0.0)
    inflight.unregister(inflight.register(time.time()))
    assert client.zscore(inflight.STARTED, old) is not None
    monkeypatch.setattr(inflight, "TRIM_SHARE", 1.0)
    inflight.unregister(inflight.register(time.time()))
    assert client.zscore(inflight.STARTED, old) is None
    assert client.zscore(inflight.STARTED, recent) is not None
