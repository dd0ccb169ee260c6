"""The classic village's night order, pinned (CV-R3, CV-R5): for each two adjacent steps,
a game whose outcome changes when the two are swapped (roles/engine/night_cases.py)."""

from __future__ import annotations

from roles.engine.night_cases import NightCase, NightCases, ph, results

# The table every case is played on.
PLAYERS = {"Ada": "lupo", "Bea": "lupo", "Cid": "veggente", "Dan": "guardia",
           "Eva": "villico", "Fil": "villico", "Gio": "villico", "Ivo": "villico"}  # fmt: skip
CASES = NightCases(
    players=PLAYERS,
    pairs={
        ("guardia", "lupi"): NightCase(
            "CV-R3: the protection is set before the wolves strike",
            [
                ph("N0"),
                ph("D1"),
                ph("N1", [{"actor": "Dan", "target": "Eva"}, {"actor": "Ada", "target": "Eva"}]),
            ],
            lambda out: out.deaths == [],
        ),
        ("lupi", "veggente"): NightCase(
            "CV-R5: the seer killed by the wolves does not see",
            [
                ph("N0"),
                ph("D1"),
                ph("N1", [{"actor": "Cid", "target": "Ada"}, {"actor": "Ada", "target": "Cid"}]),
            ],
            lambda out: results(out, "investigation") == [],
        ),
    },
)
