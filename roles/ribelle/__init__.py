"""Il Ribelle! for BANG!: the GM's referee (pure Python, no Django).

``table`` deals (RIB-R1, R2, D1); ``referee.apply`` rules on each logged event (turn,
reveal, eliminated, returns) over a ``state.TableState``; ``replay.run_ribelle`` runs a
recorded game (docs/replay-ribelle.md)."""

from roles.ribelle.events import Event, Outcome
from roles.ribelle.referee import apply
from roles.ribelle.state import Ruling, TableState
from roles.ribelle.table import RibelleViolation, check_player_count, deal

__all__ = [
    "Event",
    "Outcome",
    "RibelleViolation",
    "Ruling",
    "TableState",
    "apply",
    "check_player_count",
    "deal",
]
