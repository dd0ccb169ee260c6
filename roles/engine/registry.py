"""Rulesets by setup key."""

from __future__ import annotations

from functools import cache

from roles.engine.ruleset import Ruleset
from roles.engine.setups import SetupError


@cache
def ruleset_for(setup_key: str) -> Ruleset:
    """The ruleset that plays ``setup_key`` (one shared, stateless instance)."""
    from roles.inquisizione.rules import Inquisizione
    from roles.wild_west_wolf.rules import WildWestWolf

    rulesets = {cls.key: cls for cls in (WildWestWolf, Inquisizione)}
    if setup_key not in rulesets:
        raise SetupError(
            f"Unknown setup {setup_key!r}; known setups: {', '.join(sorted(rulesets))}"
        )
    return rulesets[setup_key]()
