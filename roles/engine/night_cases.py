"""A setup's night-order cases (WWW-R93, INQ-R63; issue 33 §5: a setup is one package).

The night order of a setup is pinned by short games, one for each two adjacent steps of
its ordering table, whose outcome changes when the two steps are swapped. Each setup
package ships its own in a ``night_cases`` module holding ``CASES``, a :class:`NightCases`;
the tests discover every setup (``available_setups()``) and play each case through the
real order and the swapped one, so a setup without cases, or a step added without a case
for its new neighbours, fails there. Where only a GM's correction at a named step can tell
two steps apart, a case uses one (corrections act at the end of the step they name).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from roles.engine.model import Action, PhaseOutcome, Vote
from roles.engine.setups import SetupError, setup_package
from roles.engine.statuses import Correction, CorrectionKind

CASES_MODULE = "night_cases"


@dataclass(frozen=True, slots=True)
class PhaseInput:
    """One phase of a case: its label and what the players and the GM put in."""

    label: str
    actions: tuple[Action, ...] = ()
    votes: tuple[Vote, ...] = ()
    wills: Mapping[str, str] | None = None
    corrections: tuple[Correction, ...] = ()


@dataclass(frozen=True, slots=True)
class NightCase:
    """Why the two steps are ordered so (the rules it cites), the phases that show it, and
    what the real order gives, read off the last phase's outcome. ``holds`` None: no
    reachable game tells the two steps apart, and the phases prove that they commute."""

    why: str
    phases: Sequence[PhaseInput]
    holds: Callable[[PhaseOutcome], bool] | None = None


@dataclass(frozen=True)
class NightCases:
    """A setup's cases, by the adjacent pair of steps (first, second) each one pins, all
    played on one table (name -> dealt role) with the deal's ``draws``."""

    players: Mapping[str, str]
    pairs: Mapping[tuple[str, str], NightCase]
    draws: Mapping[str, str] = field(default_factory=dict)


def ph(
    label: str,
    actions: Iterable[Mapping[str, Any]] = (),
    votes: Iterable[Mapping[str, Any]] = (),
    wills: Mapping[str, str] | None = None,
    corrections: Iterable[Correction] = (),
) -> PhaseInput:
    """A phase from mappings: each action's fields, each vote's (timed in list order)."""
    return PhaseInput(
        label,
        tuple(Action(**a) for a in actions),
        tuple(Vote(at=i, **v) for i, v in enumerate(votes)),
        wills,
        tuple(corrections),
    )


def kill(name: str, step: str) -> Correction:
    """The GM's correction: ``name`` dies at the end of ``step``."""
    return Correction(CorrectionKind.KILL, name, step, "GM")


def results(outcome: PhaseOutcome, kind: str) -> list[tuple[str, Any, Any]]:
    """The private results of ``kind`` in ``outcome``: (to whom, about whom, value)."""
    return [(r.to, r.about, r.value) for r in outcome.results if r.kind == kind]


def night_cases(key: str) -> NightCases:
    """Setup ``key``'s night-order cases, from its package's ``night_cases`` module; a
    setup without them is refused with a message naming the module it lacks."""
    package = setup_package(key)
    if package is None:
        raise SetupError(f"Setup {key!r} is data alone: it has no night order to pin")
    module_name = f"{package}.{CASES_MODULE}"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        raise SetupError(f"Setup {key!r} ships no night-order cases ({module_name})") from None
    cases = getattr(module, "CASES", None)
    if not isinstance(cases, NightCases):
        raise SetupError(f"{module_name}.CASES is not a NightCases")
    return cases
