"""Eresia vs Inquisizione abilities, as data (shared/rules/inquisizione.md §7.0).

Roles without an entry submit nothing: the Becchino (reads the Cemetery, INQ-R33), the
Contadini (INQ-R41), the Martire (passive, INQ-R61). The Boia's power is his secret
vote, cast with the day votes (INQ-R45).
"""

from __future__ import annotations

from typing import Final

from roles.engine.abilities import ANY, Ability

PROBE: Final = Ability(
    "probe", "probe", "INQ-R27", self_rule="INQ-R27",
    dead_rule="INQ-D9", dead_option="investigate_dead",
)  # fmt: skip
REDIRECT: Final = Ability(
    "redirect", "send the Seer's answer to", "INQ-R29", dead_rule="INQ-D10",
    optional_rule="INQ-R29",
)  # fmt: skip  # "may choose" (INQ-R29): unlimited, optional (§7.0)
TEST: Final = Ability(
    "test", "test", "INQ-R44", self_rule="INQ-R44",
    dead_rule="INQ-D9", dead_option="investigate_dead",
)  # fmt: skip
PROTECT: Final = Ability(
    "protect", "protect", "INQ-R35", first_night=1, first_night_rule="INQ-R35",
    dead_rule="INQ-D11", repeat_rule="INQ-R37", shared=True,
)  # fmt: skip
MAUL: Final = Ability(
    "maul", "maul", "INQ-R54", first_night=1, first_night_rule="INQ-R54",
    self_rule="INQ-D12", dead_rule="INQ-D12", shared=True,
)  # fmt: skip
DESIGNATE: Final = Ability(
    "designate",
    "designate",
    "INQ-R50",
    when=ANY,
    self_rule="INQ-R50",
    optional_target=True,
    optional_rule="INQ-R50",
)  # a dead player may be named: accepted, with no effect (INQ-D14)

ABILITIES: Final[dict[str, Ability]] = {
    "veggente": PROBE,
    "postino": REDIRECT,
    "inquisitore": TEST,
    "guardia_gemella": PROTECT,
    "lupo_mannaro": MAUL,
    "lupo_scorbutico": MAUL,
    "templare": DESIGNATE,
}
NO_ABILITY_RULE: Final = {
    "becchino": "INQ-R32",
    "contadino": "INQ-R41",
    "martire": "INQ-R61",
    "boia": "INQ-R45",
}
WOLVES: Final = ("lupo_mannaro", "lupo_scorbutico")
