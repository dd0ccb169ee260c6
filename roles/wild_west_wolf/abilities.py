"""Wild West Wolf abilities, as data (shared/rules/wild-west-wolf.md §7.0).

Every role without an entry here has no ability to submit: the Sceriffo, the Cowboys,
the Vicesceriffo (passive), the Cacciatore di taglie and the Rinnegato (passive).
"""

from __future__ import annotations

from typing import Final

from roles.engine.abilities import Ability

INVESTIGATE: Final = Ability(
    "investigate", "investigate", "WWW-R34",
    self_rule="WWW-D13", self_option="marshal_self_target",
    dead_rule="WWW-D13", dead_option="investigate_dead",
)  # fmt: skip
ACCOMPANY: Final = Ability(
    "accompany", "accompany", "WWW-R36", first_night=1, first_night_rule="WWW-R18",
    self_rule="WWW-R36", dead_rule="WWW-D15", repeat_rule="WWW-R37",
)  # fmt: skip
DELIVER: Final = Ability(
    "deliver", "deliver the wills to", "WWW-R42", first_night=1, first_night_rule="WWW-R18",
    self_rule="WWW-R42", dead_rule="WWW-D22", never_twice_rule="WWW-R43",
)  # fmt: skip
RECRUIT: Final = Ability(
    "recruit", "recruit", "WWW-R57", first_night=1, first_night_rule="WWW-R18",
    self_rule="WWW-R57", dead_rule="WWW-D11", once_rule="WWW-R57",
)  # fmt: skip
SHOOT: Final = Ability(
    "shoot", "shoot", "WWW-R61", first_night=1, first_night_rule="WWW-R18",
    self_rule="WWW-R61", dead_rule="WWW-D12", once_rule="WWW-R61",
)  # fmt: skip
VISION: Final = Ability(
    "vision",
    "ask the spirits about",
    "WWW-R74",
    first_night=1,
    first_night_rule="WWW-R18",
    self_rule="WWW-R74",
    once_rule="WWW-R74",
)  # the spirits answer about the dead too (WWW-R75)
PACK_KILL: Final = Ability(
    "pack_kill", "attack", "WWW-R77", first_night=1, first_night_rule="WWW-R18",
    self_rule="WWW-D19", dead_rule="WWW-D19", shared=True,
)  # fmt: skip
FAKE_ROLE: Final = Ability(
    "fake_role", "choose a fake role", "WWW-R90", only_night=0, needs_target=False
)

INDIANS: Final = ("capo_indiano", "sciamano", "indiano")
LAW_PHASES: Final = ("pastore", "notaio", "maresciallo", "maestrina")  # WWW-R63, WWW-R94

ABILITIES: Final[dict[str, tuple[Ability, ...]]] = {
    "maresciallo": (INVESTIGATE,),
    "maestrina": (ACCOMPANY,),
    "notaio": (DELIVER,),
    "bandito": (RECRUIT,),
    "pistolero": (SHOOT,),
    "capo_indiano": (PACK_KILL,),
    "sciamano": (VISION, PACK_KILL),
    "indiano": (PACK_KILL,),
    "pianista": (FAKE_ROLE,),
}

# Why a role has nothing to submit, for the refusal message.
NO_ABILITY_RULE: Final = {
    "sceriffo": "WWW-R33",
    "cowboy": "WWW-R55",
    "vicesceriffo": "WWW-R49",
    "pastore": "WWW-R35",
    "cacciatore_di_taglie": "WWW-R80",
    "rinnegato": "WWW-R87",
}

VIP_ROLES: Final = ("maresciallo", "pastore", "maestrina", "notaio")  # + sceriffo (WWW-D17)
BOUNTY_ROLES: Final = ("maresciallo", "pastore", "maestrina", "vicesceriffo", "cowboy")  # WWW-R79
