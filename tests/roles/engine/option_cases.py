"""Which test checks each game option with a value other than its default.

A test that switches an option and asserts the outcome says so with :func:`option_test`;
a scenario case (tests/scenarios/*.yaml) with ``options:`` and an ``expect`` counts too.
tests/roles/engine/test_option_coverage.py fails for an option of a shipped Werewolf setup that
neither covers (docs/adding-a-setup.md: "Every option gets its test").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

# option -> the non-default values some Python test asserts an outcome for
TESTED: dict[str, list[Any]] = {}


def option_test(option: str, value: Any) -> Callable[[F], F]:
    """Mark a test as checking ``option`` set to ``value`` (not its default)."""

    def mark(test: F) -> F:
        TESTED.setdefault(option, []).append(value)
        return test

    return mark
