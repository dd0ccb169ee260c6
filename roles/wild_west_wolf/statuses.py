"""The Wild West Wolf's statuses (GameState.statuses, each with the phase it acts in) and
its draw (GameState.draws), by kind: the night's steps, the day and the rules read them."""

from __future__ import annotations

from typing import Final

# The Wild West Wolf statuses (GameState.statuses), each with the phase it acts in.
EXECUTED: Final = "executed"  # the day's executed player, for the next night's Pastore (WWW-R35)
REVENGE: Final = "revenge"  # the night after the Capo's execution: two attacks (WWW-R69)
GUILT: Final = "guilt"  # the decisive voter on the Rinnegato dies the next night (WWW-R89, D7)
FAKE_ROLE_CHOSEN: Final = "fake_role"  # the Pianista's disguise, for the whole game (WWW-R90)
# the deal's draw (GameState.draws): the Cacciatore's bounty (WWW-R79)
BOUNTY: Final = "bounty_target"
