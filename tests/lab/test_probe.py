"""Issue 30 major 6: the options a player model does not simulate (roles/balance/probe.py).
The kept findings are the probe's own (a rules or model change that makes them stale
fails here), and the option the GM was misled by, "rivela il ruolo alla morte", changes
not one counter of a study."""

from __future__ import annotations

import pytest

from roles.balance.probe import INERT, _kept, probe_setup, unsimulated
from roles.balance.study import Study, Variant, run_study
from roles.engine.setups import load_setup


@pytest.mark.parametrize("setup", ["inquisizione", "wild-west-wolf"])
def test_the_kept_findings_are_what_the_probe_finds(setup):
    assert _kept()[setup]["version"] == load_setup(setup).version  # else probed at each start
    kept = _kept()[setup]["models"]
    assert probe_setup(setup) == kept
    assert unsimulated(setup) == kept


REVEAL = [
    ("wild-west-wolf", "www.reveal_role_on_death"),
    ("inquisizione", "inq.reveal_role_on_death"),
]


@pytest.mark.parametrize(("setup", "option"), REVEAL)
def test_reveal_role_on_death_is_not_simulated(setup, option):
    for model in ("random", "informed"):
        assert unsimulated(setup)[model][option] == INERT
        plain = run_study(Study(Variant(setup), 1000, model, 7))
        revealed = run_study(Study(Variant(setup, {option: True}), 1000, model, 7))
        assert plain.as_dict() == revealed.as_dict()


def test_a_simulated_option_is_not_listed():
    """The Bounty Hunter's immunity to the Pistolero changes who dies (WWW-D12): the
    models play it. Vote changes refused make the random model's moves illegal."""
    for model in ("random", "informed"):
        assert "www.hunter_immune_to_pistolero" not in unsimulated("wild-west-wolf")[model]
    assert unsimulated("wild-west-wolf")["random"]["www.allow_vote_change"] == "fails"
