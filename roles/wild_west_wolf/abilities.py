"""Wild West Wolf abilities, as data (shared/rules/wild-west-wolf.md §7.0).

Every role without an entry here has no ability to submit: the Sceriffo, the Cowboys,
the Vicesceriffo (passive), the Cacciatore di taglie and the Rinnegato (passive).
"""

from __future__ import annotations

from roles.engine.abilities import Ability

INVESTIGATE = Ability(
    "investigate", "investigate", "WWW-R34",
    self_rule="WWW-D13", self_option="marshal_self_target",
    dead_rule="WWW-D13", dead_option="investigate_dead",
)  # fmt: skip
ACCOMPANY = Ability(
    "accompany", "accompany", "WWW-R36", first_night=1, first_night_rule="WWW-R18",
    self_rule="WWW-R36", dead_rule="WWW-D15", repeat_rule="WWW-R37",
)  # fmt: skip
DELIVER = Ability(
    "deliver", "deliver the wills to", "WWW-R42", first_night=1, first_night_rule="WWW-R18",
    self_rule="WWW-R42", dead_rule="WWW-D22", never_twice_rule="WWW-R43",
)  # fmt: skip
RECRUIT = Ability(
    "recruit", "recruit", "WWW-R57", first_night=1, first_night_rule="WWW-R18",
    self_rule="WWW-R57", dead_rule="WWW-D11", once_rule="WWW-R57",
)  # fmt: skip
SHOOT = Ability(
    "shoot", "shoot", "WWW-R61", first_night=1, first_night_rule="WWW-R18",
    self_rule="WWW-R61", dead_rule="WWW-D12", once_rule="WWW-R61",
)  # fmt: skip
VISION = Ability(
    "vision",
    "ask the spirits about",
    "WWW-R74",
    first_night=1,
    first_night_rule="WWW-R18",
    self_rule="WWW-R74",
    once_rule="WWW-R74",
)  # the spirits answer about the dead too (WWW-R75)
PACK_KILL = Ability(
    "pack_kill", "attack", "WWW-R77", first_night=1, first_night_rule="WWW-R18",
    self_rule="WWW-D19", dead_rule="WWW-D19", shared=True,
)  # fmt: skip
FAKE_ROLE = Ability("fake_role", "choose a fake role", "WWW-R90", only_night=0, needs_target=False)

INDIANS = ("capo_indiano", "sciamano", "indiano")
LAW_PHASES = ("pastore", "notaio", "maresciallo", "maestrina")  # WWW-R63, WWW-R94

ABILITIES: dict[str, tuple[Ability, ...]] = {
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
NO_ABILITY_RULE = {
    "sceriffo": "WWW-R33",
    "cowboy": "WWW-R55",
    "vicesceriffo": "WWW-R49",
    "pastore": "WWW-R35",
    "cacciatore_di_taglie": "WWW-R80",
    "rinnegato": "WWW-R87",
}

VIP_ROLES = ("maresciallo", "pastore", "maestrina", "notaio")  # + sceriffo (WWW-D17)
BOUNTY_ROLES = ("maresciallo", "pastore", "maestrina", "vicesceriffo", "cowboy")  # WWW-R79
