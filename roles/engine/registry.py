"""Rulesets by setup key: each setup package's ``rules`` module holds one Ruleset subclass
whose ``key`` is the setup's; nothing here names a setup."""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Sequence
from functools import cache

from roles.engine.ruleset import Ruleset
from roles.engine.setups import SetupError, available_setups, setup_package


def ruleset_class(setup_key: str) -> type[Ruleset]:
    """The Ruleset subclass of ``setup_key``, found in its package's ``rules`` module."""
    package = setup_package(setup_key)
    if package is None:
        known = ", ".join(available_setups())
        raise SetupError(f"Unknown setup {setup_key!r}; known setups: {known}")
    module = importlib.import_module(f"{package}.rules")
    for _, cls in inspect.getmembers(module, inspect.isclass):
        if issubclass(cls, Ruleset) and getattr(cls, "key", None) == setup_key:
            return cls
    raise SetupError(f"Setup {setup_key!r}: {package}.rules has no Ruleset with key {setup_key!r}")


@cache
def ruleset_for(setup_key: str) -> Ruleset:
    """The ruleset that plays ``setup_key`` (one shared, stateless instance)."""
    return ruleset_class(setup_key)()


def ruleset_with_order(setup_key: str, night_order: Sequence[str]) -> Ruleset:
    """A fresh ruleset of ``setup_key`` whose night runs in ``night_order`` (for tests)."""
    return ruleset_class(setup_key)(night_order=night_order)
