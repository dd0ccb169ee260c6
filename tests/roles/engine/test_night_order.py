"""The night order is pinned (WWW-R93, INQ-R63): for every two adjacent steps of each
setup's ordering table, a scenario whose outcome changes when the two are swapped.

The test swaps each adjacent pair of the setup's YAML night_order (the order the engine
runs) and replays the pair's scenario through both orders: the real order must give the
documented outcome and the swapped one a different one. A step added to the table without
a scenario for its new neighbours fails here. Where only a GM's correction at a named step
can tell two steps apart, the scenario uses one (corrections act at the end of the step
they name, so they see the order too).
"""

from __future__ import annotations

from typing import Any

import pytest

from roles.engine.registry import ruleset_for
from tests.roles.engine.helpers import inq, play, www


def ph(label: str, actions=(), votes=(), wills=None, corrections=()) -> dict[str, Any]:
    return {"label": label, "actions": list(actions), "votes": list(votes), "wills": wills,
            "corrections": list(corrections)}  # fmt: skip


def kill(name: str, step: str) -> dict[str, str]:
    return {"kind": "kill", "player": name, "step": step}


def results(outcome, kind: str) -> list[tuple]:
    return [(r.to, r.about, r.value) for r in outcome.results if r.kind == kind]


# (first, second) -> (why, phases, what the real order gives, as a function of the last outcome)
WWW_CASES: dict[tuple[str, str], tuple[str, list, Any]] = {
    ("pianista", "pastore"): (
        "WWW-R90, WWW-D8: the Pianista killed (by the GM) in the Pastore's step has already "
        "chosen her fake role; the Sciamano is told it",
        [
            ph(
                "N0",
                [{"actor": "Pia", "fake_role": "cowboy"}],
                corrections=[kill("Pia", "pastore")],
            ),
            ph("D1"),
            ph("N1", [{"actor": "Sara", "target": "Pia", "vision": True}]),
        ],
        lambda out: results(out, "vision") == [("Sara", "Pia", "cowboy")],
    ),
    ("pastore", "notaio"): (
        "WWW-R93, R62: the Pistolero in the dead Pastore's phase shoots the Notaio before "
        "the Notaio's phase: no delivery",
        [
            ph("N0"),
            ph("D1", votes=[{"voter": "Sam", "target": "Pao"}], wills={"Pao": "addio"}),
            ph(
                "N1",
                [
                    {"actor": "Pietro", "target": "Nora", "during": "pastore"},
                    {"actor": "Nora", "target": "Gino"},
                ],
            ),
        ],
        lambda out: results(out, "wills") == [] and out.deaths[0].player == "Nora",
    ),
    ("notaio", "maresciallo"): (
        "WWW-R93, R61: the Pistolero in the dead Notaio's phase shoots the Maresciallo "
        "before his investigation",
        [
            ph("N0"),
            ph("D1", votes=[{"voter": "Sam", "target": "Nora"}]),
            ph(
                "N1",
                [
                    {"actor": "Pietro", "target": "Mar", "during": "notaio"},
                    {"actor": "Mar", "target": "Ivan"},
                ],
            ),
        ],
        lambda out: results(out, "investigation") == [],
    ),
    ("maresciallo", "maestrina"): (
        "WWW-R93, R36, R38: the Maestrina shot in the dead Maresciallo's phase accompanies "
        "nobody: no 'spotted' when the Indians kill Gino",
        [
            ph("N0"),
            ph("D1", votes=[{"voter": "Sam", "target": "Mar"}]),
            ph(
                "N1",
                [
                    {"actor": "Pietro", "target": "Mia", "during": "maresciallo"},
                    {"actor": "Mia", "target": "Gino"},
                    {"actor": "Ivan", "target": "Gino"},
                ],
            ),
        ],
        lambda out: results(out, "spotted") == [] and results(out, "spotted_by") == [],
    ),
    ("maestrina", "indiani"): (
        "WWW-R93, WWW-D9: the Sciamano shot in the dead Maestrina's phase has no vision",
        [
            ph("N0"),
            ph("D1", votes=[{"voter": "Sam", "target": "Mia"}]),
            ph(
                "N1",
                [
                    {"actor": "Pietro", "target": "Sara", "during": "maestrina"},
                    {"actor": "Sara", "target": "Gino", "vision": True},
                ],
            ),
        ],
        lambda out: results(out, "vision") == [],
    ),
    ("indiani", "guilt"): (
        "WWW-D7, WWW-D9: the guilt death comes after phase 5: the guilty Sciamano still "
        "has his vision",
        [
            ph("N0"),
            ph("D1"),
            ph("N1", [{"actor": "Ivan", "target": "Carla"}]),
            ph("D2", votes=[{"voter": "Sara", "target": "Cac"}]),
            ph("N2", [{"actor": "Sara", "target": "Gino", "vision": True}]),
        ],
        lambda out: (
            results(out, "vision") == [("Sara", "Gino", "cowboy")]
            and [(d.player, d.cause) for d in out.deaths] == [("Sara", "guilt")]
        ),
    ),
    ("guilt", "bounty"): (
        "WWW-D7, WWW-D21: the Rinnegato change reads the Cacciatore alive after the guilt "
        "step: killed (by the GM) there, he does not turn",
        [
            ph("N0"),
            ph("D1"),
            ph("N1", [{"actor": "Ivan", "target": "Carla"}], corrections=[kill("Cac", "guilt")]),
        ],
        lambda out: results(out, "rinnegato") == [],
    ),
    ("bounty", "vip"): (
        "WWW-D17: the Capo learns of the VIPs only if alive at dawn, after the other steps",
        [
            ph("N0"),
            ph("D1"),
            ph("N1", [{"actor": "Ivan", "target": "Mar"}], corrections=[kill("Capo", "bounty")]),
        ],
        lambda out: results(out, "vip") == [],
    ),
}

INQ_CASES: dict[tuple[str, str], tuple[str, list, Any]] = {
    ("templare", "postino"): (
        "INQ-R50, R52: the night's designation is set before the Templare can die: killed "
        "(by the GM) in the Postino's step, he takes the Heretic he named tonight",
        [ph("N0", [{"actor": "Tea", "target": "Paolo"}], corrections=[kill("Tea", "postino")])],
        lambda out: [d.player for d in out.deaths] == ["Tea", "Paolo"],
    ),
    ("postino", "veggente"): (
        "INQ-R63, R30: the Postino's redirect is set before the Seer's probe",
        [ph("N0", [{"actor": "Paolo", "target": "Carlo"}, {"actor": "Sara", "target": "Luca"}])],
        lambda out: results(out, "investigation") == [("Carlo", "Luca", "losco")],
    ),
    ("veggente", "inquisitore"): (
        "INQ-R63: the Inquisitore acts after the Seer: killed (by the GM) in her step, he "
        "tests nobody",
        [ph("N0", [{"actor": "Ivo", "target": "Luca"}], corrections=[kill("Ivo", "veggente")])],
        lambda out: results(out, "investigation") == [],
    ),
    ("inquisitore", "guardie_gemelle"): (
        "INQ-R63, R38: the Guards act after the Inquisitore: a Guard killed (by the GM) in "
        "his step leaves no protection, and the maul kills",
        [
            ph("N0"),
            ph("D1"),
            ph(
                "N1",
                [{"actor": "Gina", "target": "Rita"}, {"actor": "Luca", "target": "Rita"}],
                corrections=[kill("Gianni", "inquisitore")],
            ),
        ],
        lambda out: ("Rita", "pack") in [(d.player, d.cause) for d in out.deaths],
    ),
    ("guardie_gemelle", "lupi"): (
        "INQ-R63, R35: the protection is set before the maul",
        [
            ph("N0"),
            ph("D1"),
            ph("N1", [{"actor": "Gina", "target": "Rita"}, {"actor": "Luca", "target": "Rita"}]),
        ],
        lambda out: out.deaths == [],
    ),
}
# Steps that no reachable game can tell apart, with why (the test proves they commute on
# a scenario that exercises both).
INQ_COMMUTING = {
    ("lupi", "scorbutico"): (
        "INQ-R59, R60, INQ-D22: the visitor list reads only the visiting steps (1-4), and "
        "the Lupo Scorbutico gets it even if he dies tonight; the maul reads nothing of it",
        [
            ph("N0"),
            ph("D1"),
            ph(
                "N1",
                [{"actor": "Sara", "target": "Zeno"}, {"actor": "Luca", "target": "Rita"}],
                corrections=[kill("Zeno", "lupi")],
            ),
        ],
    ),
}
CV_TABLE = {"Ada": "lupo", "Bea": "lupo", "Cid": "veggente", "Dan": "guardia",
            "Eva": "villico", "Fil": "villico", "Gio": "villico", "Ivo": "villico"}  # fmt: skip
CV_CASES: dict[tuple[str, str], tuple[str, list, Any]] = {
    ("guardia", "lupi"): (
        "CV-R3: the protection is set before the wolves strike",
        [
            ph("N0"),
            ph("D1"),
            ph("N1", [{"actor": "Dan", "target": "Eva"}, {"actor": "Ada", "target": "Eva"}]),
        ],
        lambda out: out.deaths == [],
    ),
    ("lupi", "veggente"): (
        "CV-R5: the seer killed by the wolves does not see",
        [
            ph("N0"),
            ph("D1"),
            ph("N1", [{"actor": "Cid", "target": "Ada"}, {"actor": "Ada", "target": "Cid"}]),
        ],
        lambda out: results(out, "investigation") == [],
    ),
}


def classic():
    return ruleset_for("classic-village").new_game(CV_TABLE)[0]


SETUPS = {
    "wild-west-wolf": (www, WWW_CASES, {}),
    "inquisizione": (inq, INQ_CASES, INQ_COMMUTING),
    "classic-village": (classic, CV_CASES, {}),
}


def pairs(setup: str) -> list[tuple[str, int]]:
    order = ruleset_for(setup).night_order
    return [(setup, i) for i in range(len(order) - 1)]


def run(setup: str, phases: list, order: tuple[str, ...]):
    rules = type(ruleset_for(setup))(night_order=order)
    state = SETUPS[setup][0]()
    outcomes = [play(state, p["label"], p["actions"], p["votes"], p["wills"], p["corrections"],
                     rules=rules) for p in phases]  # fmt: skip
    return outcomes, [(o.phase, o.deaths, o.results, o.execution) for o in outcomes]


CASES = [pair for setup in SETUPS for pair in pairs(setup)]


@pytest.mark.parametrize(("setup", "index"), CASES, ids=[f"{s}-{i}" for s, i in CASES])
def test_swapping_two_adjacent_steps_changes_the_outcome(setup, index):
    """WWW-R93 / INQ-R63: each adjacent pair of the ordering table is told apart."""
    order = ruleset_for(setup).night_order
    pair = (order[index], order[index + 1])
    swapped = (*order[:index], pair[1], pair[0], *order[index + 2 :])
    _, cases, commuting = SETUPS[setup]
    if pair in commuting:
        _why, phases = commuting[pair]
        assert run(setup, phases, order)[1] == run(setup, phases, swapped)[1]
        return
    assert pair in cases, f"no scenario tells {pair[0]} and {pair[1]} apart"
    _why, phases, expected = cases[pair]
    real, real_report = run(setup, phases, order)
    assert expected(real[-1]), f"the real order's outcome ({pair}): {real[-1]}"
    _, swapped_report = run(setup, phases, swapped)
    assert real_report != swapped_report, f"swapping {pair} changes nothing"
