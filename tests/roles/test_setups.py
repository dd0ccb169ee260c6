"""Setups load from YAML and match the rulesets' player counts."""

from __future__ import annotations

import random

import pytest

from roles.engine.setups import SetupError, available_setups, deal_roles, load_setup


def test_both_setups_are_available():
    assert {"wild-west-wolf", "inquisizione"} <= set(available_setups())


def test_wild_west_wolf_has_16_players_and_one_plain_indiano():
    """WWW-R2 (16 players), WWW-R19 (1 plain Indiano), WWW-R20 (Rinnegato not dealt)."""
    setup = load_setup("wild-west-wolf")
    assert setup.players == 16
    assert setup.roles["indiano"] == 1
    assert setup.roles["cowboy"] == 3
    assert "rinnegato" not in setup.roles


def test_inquisizione_has_19_players():
    """INQ-R1: 19 players."""
    setup = load_setup("inquisizione")
    assert setup.players == 19
    assert setup.roles["contadino"] == 6
    assert setup.roles["lupo_mannaro"] == 3


def test_unknown_setup_is_a_clear_error():
    with pytest.raises(SetupError, match="Unknown setup 'nope'; known setups: "):
        load_setup("nope")


def test_deal_is_seeded_and_uses_every_card():
    setup = load_setup("wild-west-wolf")
    names = [f"P{i}" for i in range(16)]
    first = deal_roles(setup, names, random.Random(7))
    assert first == deal_roles(setup, names, random.Random(7))
    assert sorted(first.values()) == sorted(setup.role_list())
    with pytest.raises(SetupError, match="needs exactly 16 players, got 15"):
        deal_roles(setup, names[:15], random.Random(7))
