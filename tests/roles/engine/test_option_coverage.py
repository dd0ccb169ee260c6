"""Every option of both Werewolf setups is tested with a value other than its default, and
the test checks the outcome (issue 29 §4; docs/adding-a-setup.md, "Every option gets its
test"): a scenario case (tests/scenarios/*.yaml) that sets it and expects something, or a
Python test marked with tests.roles.engine.option_cases.option_test."""

from __future__ import annotations

from typing import Any

import pytest

import tests.roles.engine.test_options_inq
import tests.roles.engine.test_options_www  # noqa: F401 - their marks fill TESTED
from roles.engine.setups import load_setup
from tests.roles.engine.option_cases import TESTED
from tests.scenario_runner import scenario_cases


def non_default_values(setup_key: str) -> dict[str, list[Any]]:
    """option -> the values other than its default some test checks an outcome for."""
    setup = load_setup(setup_key)
    found: dict[str, list[Any]] = {}
    for _, case in scenario_cases():
        scenario = case["scenario"]
        if scenario["setup"] != setup_key or not case.get("expect"):
            continue
        for name, value in (scenario.get("options") or {}).items():
            name = setup.renamed_options.get(name, name)
            if name in setup.options and value != setup.options[name]:
                found.setdefault(name, []).append(value)
    for name, values in TESTED.items():
        if name in setup.options:
            found.setdefault(name, []).extend(v for v in values if v != setup.options[name])
    return found


@pytest.mark.parametrize("setup_key", ["wild-west-wolf", "inquisizione"])
def test_every_option_has_a_test_with_another_value(setup_key):
    setup = load_setup(setup_key)
    tested = non_default_values(setup_key)
    untested = [name for name in setup.options if not tested.get(name)]
    assert untested == [], f"options with no test of a non-default value: {untested}"


@pytest.mark.parametrize("setup_key", ["wild-west-wolf", "inquisizione"])
def test_every_choice_is_tested(setup_key):
    """A choice option: each value besides the default has its test."""
    setup = load_setup(setup_key)
    tested = non_default_values(setup_key)
    for name, choices in setup.option_choices.items():
        missing = [c for c in choices if c != setup.options[name] and c not in tested.get(name, ())]
        assert missing == [], f"{name}: no test for {missing}"
