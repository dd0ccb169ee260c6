"""The Wild West Wolf's night order, pinned (WWW-R93): for each two adjacent steps of
setup.yaml's night_order, a game whose outcome changes when the two are swapped
(roles/engine/night_cases.py says how the tests play them)."""

from __future__ import annotations

from roles.engine.night_cases import NightCase, NightCases, kill, ph, results

# The table every case is played on (the engine tests' too: tests/roles/engine/helpers.py).
PLAYERS = {
    "Sam": "sceriffo", "Mar": "maresciallo", "Pao": "pastore", "Mia": "maestrina",
    "Nora": "notaio", "Vito": "vicesceriffo", "Carla": "cowboy", "Gino": "cowboy",
    "Anna": "cowboy", "Bruno": "bandito", "Pietro": "pistolero", "Capo": "capo_indiano",
    "Sara": "sciamano", "Ivan": "indiano", "Cac": "cacciatore_di_taglie", "Pia": "pianista",
}  # fmt: skip
CASES = NightCases(
    players=PLAYERS,
    draws={"bounty_target": "Carla"},  # WWW-R79: the deal's draw
    pairs={
        ("pianista", "pastore"): NightCase(
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
        ("pastore", "notaio"): NightCase(
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
        ("notaio", "maresciallo"): NightCase(
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
        ("maresciallo", "maestrina"): NightCase(
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
        ("maestrina", "indiani"): NightCase(
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
        ("indiani", "guilt"): NightCase(
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
        ("guilt", "bounty"): NightCase(
            "WWW-D7, WWW-D21: the Rinnegato change reads the Cacciatore alive after the guilt "
            "step: killed (by the GM) there, he does not turn",
            [
                ph("N0"),
                ph("D1"),
                ph(
                    "N1", [{"actor": "Ivan", "target": "Carla"}], corrections=[kill("Cac", "guilt")]
                ),
            ],
            lambda out: results(out, "rinnegato") == [],
        ),
        ("bounty", "vip"): NightCase(
            "WWW-D17: the Capo learns of the VIPs only if alive at dawn, after the other steps",
            [
                ph("N0"),
                ph("D1"),
                ph(
                    "N1", [{"actor": "Ivan", "target": "Mar"}], corrections=[kill("Capo", "bounty")]
                ),
            ],
            lambda out: results(out, "vip") == [],
        ),
    },
)
