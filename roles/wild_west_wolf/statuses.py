"""The Wild West Wolf's statuses (GameState.statuses, each with the phase it acts in) and
its draw (GameState.draws), by kind: the night's steps, the day and the rules read them."""

from __future__ import annotations

from typing import Final

from roles.engine.statuses import StatusKind


class WildWestWolfStatus(StatusKind):
    """The Wild West Wolf statuses (GameState.statuses), each with the phase it acts in."""

    EXECUTED = "executed"  # the day's executed player, for the next night's Pastore (WWW-R35)
    REVENGE = "revenge"  # the night after the Capo's execution: two attacks (WWW-R69)
    GUILT = "guilt"  # the decisive voter on the Rinnegato dies the next night (WWW-R89, D7)
    FAKE_ROLE_CHOSEN = "fake_role"  # the Pianista's disguise, for the whole game (WWW-R90)


EXECUTED = WildWestWolfStatus.EXECUTED
REVENGE = WildWestWolfStatus.REVENGE
GUILT = WildWestWolfStatus.GUILT
FAKE_ROLE_CHOSEN = WildWestWolfStatus.FAKE_ROLE_CHOSEN
# the deal's draw (GameState.draws): the Cacciatore's bounty (WWW-R79)
BOUNTY: Final = "bounty_target"
