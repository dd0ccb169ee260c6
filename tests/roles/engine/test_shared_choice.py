"""One rule for a shared ability's standing choice (WWW-D19, INQ-D11, INQ-D12): the
latest entries naming different targets count, as many as the night allows. The
resolution (the pack's victims) and the pages (a group's choice) read the same function."""

from __future__ import annotations

from roles.engine.mechanics import latest_distinct


def _first(entry: tuple[str, str]) -> str:
    return entry[0]


def test_latest_entry_counts_when_one_use_inq_d11() -> None:
    entries = [("Cid", "Ada"), ("Bo", "Eli"), ("Cid", "Ada")]
    assert latest_distinct(entries, 1, _first) == [("Cid", "Ada")]


def test_two_uses_take_the_latest_two_different_targets_www_d19() -> None:
    entries = [("Ada", "x"), ("Bo", "y"), ("Cid", "z"), ("Bo", "w")]
    # the latest two naming different players: Bo (w) then Cid (z), in time order
    assert latest_distinct(entries, 2, _first) == [("Cid", "z"), ("Bo", "w")]


def test_a_repeated_target_does_not_use_up_a_kill_www_d19() -> None:
    entries = [("Ada", "1"), ("Bo", "2"), ("Bo", "3")]
    assert latest_distinct(entries, 2, _first) == [("Ada", "1"), ("Bo", "3")]


def test_no_use_takes_nothing() -> None:
    assert latest_distinct([("Ada", "1")], 0, _first) == []
    assert latest_distinct([], 2, _first) == []
