"""bench/web.py's verdicts (issue 9): a stage the machine disturbed is said to be, and the
summary's "as first measured" rate follows the search the bench runs."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from web import sustained_first
from web_stage import Stage, steal_share


def stage(rate: float, p99: float = 0.02, **machine: object) -> Stage:
    """A stage of ``rate`` votes/s whose every vote took ``p99`` seconds."""
    return Stage(rate, 20.0, latencies=[p99] * 100, errors=[], backlog=0,
                 answered_in_time=100, load=1.0, **machine)  # fmt: skip


def test_steal_is_the_hypervisors_share_of_the_machines_time() -> None:
    # user, nice, system, idle, iowait, irq, softirq, steal, guest, guest_nice
    before = [100, 0, 20, 500, 5, 0, 5, 10, 0, 0]
    after = [160, 0, 40, 520, 5, 0, 5, 35, 0, 0]
    assert steal_share(before, after) == pytest.approx(25 / 125)
    assert steal_share(before, before) == 0.0


def test_a_stage_is_disturbed_by_steal_a_slow_flush_or_a_late_wake_up() -> None:
    assert stage(300, steal=0.05, disk=(0.02, 0, 400), late=0.01).disturbance(0.10, 0.1) == ""
    assert stage(300, steal=0.24).disturbance(0.10, 0.1) == "steal 24%"
    assert stage(300, disk=(0.932, 2, 400)).disturbance(0.10, 0.1) == "a disk flush of 932 ms"
    both = stage(300, steal=0.12, late=0.3).disturbance(0.10, 0.1)
    assert both == "steal 12%, a wake-up 300 ms late"


def test_the_first_measured_rate_stops_where_the_search_would_have() -> None:
    given = [stage(40), stage(80), stage(100)]
    # 200/s failed when first measured: the search would have stopped there, whatever
    # the later stages (run only because 200/s was measured again) did
    search = [stage(150), stage(200, p99=0.9), stage(250), stage(300, p99=0.9)]
    assert sustained_first(given + search, 3, 0.5) == 150
    assert sustained_first(given + search[:1], 3, 0.5) == 150
    # a given rate that fails does not stop the given ones
    assert sustained_first([stage(40, p99=0.9), stage(80), stage(100)], 3, 0.5) == 100
    assert sustained_first([stage(40, p99=0.9)], 1, 0.5) == 0.0
