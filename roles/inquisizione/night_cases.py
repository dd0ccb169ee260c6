"""The Inquisizione's night order, pinned (INQ-R63): for each two adjacent steps of
setup.yaml's night_order, a game whose outcome changes when the two are swapped, or, for
two steps no game can tell apart, one that proves they commute
(roles/engine/night_cases.py says how the tests play them)."""

from __future__ import annotations

from roles.engine.night_cases import NightCase, NightCases, kill, ph, results

# The table every case is played on (the engine tests' too: tests/roles/engine/helpers.py).
PLAYERS = {
    "Sara": "veggente", "Paolo": "postino", "Becco": "becchino", "Gina": "guardia_gemella",
    "Gianni": "guardia_gemella", "Carlo": "contadino", "Rita": "contadino",
    "Anna": "contadino", "Bruno": "contadino", "Marco": "contadino", "Ugo": "contadino",
    "Ivo": "inquisitore", "Bea": "boia", "Tea": "templare", "Luca": "lupo_mannaro",
    "Lia": "lupo_mannaro", "Leo": "lupo_mannaro", "Zeno": "lupo_scorbutico",
    "Mara": "martire",
}  # fmt: skip
CASES = NightCases(
    players=PLAYERS,
    pairs={
        ("templare", "postino"): NightCase(
            "INQ-R50, R52: the night's designation is set before the Templare can die: killed "
            "(by the GM) in the Postino's step, he takes the Heretic he named tonight",
            [ph("N0", [{"actor": "Tea", "target": "Paolo"}], corrections=[kill("Tea", "postino")])],
            lambda out: [d.player for d in out.deaths] == ["Tea", "Paolo"],
        ),
        ("postino", "veggente"): NightCase(
            "INQ-R63, R30: the Postino's redirect is set before the Seer's probe",
            [
                ph(
                    "N0",
                    [{"actor": "Paolo", "target": "Carlo"}, {"actor": "Sara", "target": "Luca"}],
                )
            ],
            lambda out: results(out, "investigation") == [("Carlo", "Luca", "losco")],
        ),
        ("veggente", "inquisitore"): NightCase(
            "INQ-R63: the Inquisitore acts after the Seer: killed (by the GM) in her step, he "
            "tests nobody",
            [ph("N0", [{"actor": "Ivo", "target": "Luca"}], corrections=[kill("Ivo", "veggente")])],
            lambda out: results(out, "investigation") == [],
        ),
        ("inquisitore", "guardie_gemelle"): NightCase(
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
        ("guardie_gemelle", "lupi"): NightCase(
            "INQ-R63, R35: the protection is set before the maul",
            [
                ph("N0"),
                ph("D1"),
                ph(
                    "N1", [{"actor": "Gina", "target": "Rita"}, {"actor": "Luca", "target": "Rita"}]
                ),
            ],
            lambda out: out.deaths == [],
        ),
        # Steps no reachable game can tell apart (the case proves they commute).
        ("lupi", "scorbutico"): NightCase(
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
    },
)
