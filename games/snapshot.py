"""The engine's state at a phase's opening, rebuilt from the stored inputs.

Nothing of the engine's state is stored: every caller rebuilds it by replaying the deal
and the committed phases' inputs (games/engine.py), which is deterministic and takes a
few milliseconds for a whole game. No bytes from the database are ever turned back into
objects (a backup is a user's upload: a stored pickle was a way to run code on the site).

``snapshot_epoch`` on the phase row is a plain counter bumped by every commit, undo and
substitution (a vote takes the phase row's lock instead of reading it).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import F

from games.engine import Rebuilt, rebuild, rules_for
from games.models import Game, Phase, Player
from roles.engine.model import GameState
from roles.engine.ruleset import Ruleset


@dataclass
class Opening:
    """What the submissions ask the engine about: its rules and the state to judge on."""

    rules: Ruleset
    state: GameState


def opening_state(phase: Phase, game: Game, *, shared: bool = False) -> Opening:
    """The state after the game's committed phases, rebuilt from the stored inputs.
    ``shared`` is accepted for the callers that only read the state (it changes nothing)."""
    return Opening(rules_for(game), rebuild(game).state)


def built_from_snapshot(game: Game, phase: Phase | None, *, players: bool = True) -> Rebuilt:
    """A ``Rebuilt`` for the pages: the state after the committed phases."""
    return rebuild(game)


def built_before(game: Game, phase: Phase, players: list[Player] | None = None) -> Rebuilt:
    """The state ``phase`` resolves from, for its commit: a rebuild of the committed
    phases before it."""
    before = Phase.objects.filter(
        game=game, status=Phase.Status.COMMITTED, index__lt=phase.index
    ).order_by("index")
    return rebuild(game, list(before))


def snapshots_invalidate(game: Game) -> None:
    """After a commit, an undo or a substitution: every phase still to resolve moves to a
    new epoch, so a vote judged on the old state is not stored by the guarded insert."""
    Phase.objects.filter(game=game).exclude(status=Phase.Status.COMMITTED).update(
        snapshot_epoch=F("snapshot_epoch") + 1
    )
