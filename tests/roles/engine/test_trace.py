"""Every outcome carries its reasons, with the rule numbers, for the GM's preview."""

from __future__ import annotations

from tests.roles.engine.helpers import inq, play, www


def test_deputy_sacrifice_is_explained():
    """WWW-R50: "Indians attacked Sam; Vito (vicesceriffo) died in his place"."""
    state = www()
    play(state, "N0")
    play(state, "D1")
    outcome = play(state, "N1", actions=[{"actor": "Capo", "target": "Sam"}])
    assert any(
        "attack Sam" in line
        and "Vito (vicesceriffo) dies in his place" in line
        and "[WWW-R50" in line
        for line in map(str, outcome.trace)  # the English rendering of each message
    ), outcome.trace


def test_boia_execution_and_templar_chain_are_explained():
    """INQ-R47 (weighted total in the reason), INQ-R50 (the chain)."""
    state = inq()
    play(state, "N0", actions=[{"actor": "Tea", "target": "Sara"}])
    outcome = play(state, "D1", votes=[{"voter": "Bea", "target": "Tea", "secret": True}])
    trace = [str(line) for line in outcome.trace]
    assert "Tea is executed with 1 votes [INQ-R7, INQ-R11]" in trace
    assert any("Sara, a Heretic, who dies at once [INQ-R50" in line for line in trace)


def test_replay_trace_option_adds_the_reasons():
    from roles.replay import run_scenario
    from tests.roles.engine.helpers import WWW_TABLE

    day = {"phase": "D1", "votes": [{"voter": "Sam", "target": "Carla"}]}
    report = run_scenario({
        "setup": "wild-west-wolf", "players": WWW_TABLE, "draws": {"bounty_target": "Carla"},
        "phases": [{"phase": "N0"}, day],
    }, trace=True)  # fmt: skip
    assert any("[WWW-R81, WWW-R82]" in line for line in report["phases"][-1]["trace"])
