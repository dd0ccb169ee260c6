"""The deal: RIB-R1 (who plays), RIB-R2 (the table), RIB-D1 (other counts refused)."""

from __future__ import annotations

from collections import Counter

import pytest

from roles.ribelle.table import (
    ROLE_TABLE,
    RibelleViolation,
    check_player_count,
    check_roles,
    deal,
    game_options,
)  # fmt: skip

NAMES = [f"P{i}" for i in range(1, 11)]


@pytest.mark.parametrize(
    ("count", "expected"),
    [
        (4, {"sceriffo": 1, "fuorilegge": 1, "rinnegato": 1, "ribelle": 1}),
        (6, {"sceriffo": 1, "vice": 1, "fuorilegge": 2, "rinnegato": 1, "ribelle": 1}),
        (8, {"sceriffo": 1, "vice": 2, "fuorilegge": 3, "rinnegato": 1, "ribelle": 1}),
        (9, {"sceriffo": 1, "vice": 2, "fuorilegge": 3, "rinnegato": 2, "ribelle": 1}),
        (10, {"sceriffo": 1, "vice": 2, "fuorilegge": 4, "rinnegato": 2, "ribelle": 1}),
    ],
)
def test_deal_follows_the_table(count, expected):
    """RIB-R1, RIB-R2: 4, 6, 8, 9, 10 players get exactly the table's roles."""
    roles = deal(NAMES[:count], seed=3)
    assert list(roles) == NAMES[:count]
    assert Counter(roles.values()) == Counter(expected)


def test_deal_is_seeded():
    """RIB-R2: the same seed deals the same roles; other seeds deal others."""
    assert deal(NAMES[:8], seed=11) == deal(NAMES[:8], seed=11)
    assert len({tuple(deal(NAMES[:8], seed=s).values()) for s in range(20)}) > 5


@pytest.mark.parametrize("count", [1, 2, 3, 5, 7, 11, 12])
def test_other_player_counts_are_refused(count):
    """RIB-D1: 5, 7 and every unlisted count are refused with a clear message."""
    with pytest.raises(RibelleViolation) as caught:
        deal([f"P{i}" for i in range(count)], seed=1)
    assert caught.value.rule == "RIB-D1"
    assert caught.value.msg == "rib.error.player_count"
    assert caught.value.params == {"count": count, "allowed": "4, 6, 8, 9, 10"}
    assert str(caught.value) == (
        f"setup: Il Ribelle! is played with 4, 6, 8, 9, 10 players, not {count} [RIB-D1]"
    )


def test_the_allowed_counts_can_be_narrowed_not_widened():
    """RIB-D1 rib.allowed_player_counts: a GM may drop a row of RIB-R1, not invent one."""
    with pytest.raises(RibelleViolation) as caught:
        check_player_count(4, {"rib.allowed_player_counts": [6, 8]})
    assert caught.value.rule == "RIB-R1"
    check_player_count(6, {"rib.allowed_player_counts": [6, 8]})
    with pytest.raises(RibelleViolation):
        game_options({"rib.allowed_player_counts": [5, 6]})


def test_a_given_deal_must_match_the_table():
    """RIB-R2: a recorded game with two Rebels or no Renegade is refused."""
    good = dict(zip(NAMES[:6], ["sceriffo", "vice", "fuorilegge", "fuorilegge", "rinnegato",
                                "ribelle"], strict=True))  # fmt: skip
    check_roles(good)
    with pytest.raises(RibelleViolation) as caught:
        check_roles({**good, "P5": "ribelle"})
    assert caught.value.rule == "RIB-R2"
    with pytest.raises(RibelleViolation) as caught:
        check_roles({**good, "P5": "cowboy"})
    assert caught.value.msg == "rib.error.unknown_role"


def test_table_rows_add_up():
    """RIB-R2's check column: every row adds up to its player count."""
    assert {n: sum(row.values()) for n, row in ROLE_TABLE.items()} == {n: n for n in ROLE_TABLE}
