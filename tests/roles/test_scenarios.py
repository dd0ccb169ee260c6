"""Every case under tests/scenarios/ through the engine, as `manage.py replay` runs it."""

from __future__ import annotations

import pytest

from roles.engine.errors import RuleViolation
from roles.replay import run_scenario
from tests.scenario_runner import check_report, scenario_cases

CASES = scenario_cases()


@pytest.mark.parametrize(("case_id", "case"), CASES, ids=[c[0] for c in CASES])
def test_scenario(case_id, case):
    expect = case.get("expect") or {}
    assert case.get("rules"), f"{case_id} cites no rule"
    if "error" in expect:
        with pytest.raises(RuleViolation) as info:
            run_scenario(case["scenario"])
        assert str(info.value) == expect["error"]
        return
    check_report(run_scenario(case["scenario"]), expect)
