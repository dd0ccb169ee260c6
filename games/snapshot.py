"""The engine's state at a phase's opening, kept on the phase row.

A vote, an action and a player's page only need the state after the committed phases:
rebuilding it replays the whole game, so it is kept, pickled, in the phase's ``snapshot``
column (PostgreSQL: a cache or Redis outage never stops a vote) and read back with the
row the submission locks anyway. It is stale after a commit, an undo or a substitution
(names), which call ``snapshots_invalidate``, and after any change of the rules' code:
``RULES_VERSION`` hashes the sources the state is built from, so a deploy invalidates
every snapshot by itself. The pickle is written and read only by this module, from rows
of our own database.

A snapshot is written back after the transaction that built it, guarded by the row's
``snapshot_epoch`` (bumped by every invalidation): a commit landing in between wins.
"""

from __future__ import annotations

import hashlib
import logging
import pickle
from dataclasses import dataclass
from pathlib import Path

from django.db import transaction
from django.db.models import F

from games.engine import Rebuilt, rebuild, rules_for
from games.models import Game, Phase, Player
from roles.engine.model import GameState
from roles.engine.ruleset import Ruleset

log = logging.getLogger(__name__)


def _rules_version() -> str:
    """A digest of every source the engine's state depends on (roles/ and the bridge)."""
    base = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    sources = sorted((base / "roles").rglob("*.py")) + sorted((base / "roles").rglob("*.yaml"))
    for path in [*sources, base / "games" / "engine.py"]:
        digest.update(str(path.relative_to(base)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


RULES_VERSION = _rules_version()


@dataclass
class Opening:
    """What the hot paths ask the engine about: its rules and the state to judge on."""

    rules: Ruleset
    state: GameState


def _stored(phase: Phase) -> GameState | None:
    if phase.snapshot is None or phase.snapshot_rules != RULES_VERSION:
        return None
    try:
        return pickle.loads(phase.snapshot)
    except Exception:  # a class renamed under the same sources cannot happen; be safe
        log.exception("unreadable snapshot of phase %s: rebuilt", phase.pk)
        return None


def _keep(phase: Phase, state: GameState) -> None:
    """Store the state on the row once the current transaction commits, unless the row
    was invalidated meanwhile (its epoch moved on)."""
    try:
        data = pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError):  # the next caller rebuilds
        log.exception("the state of phase %s cannot be kept", phase.pk)
        return
    epoch = phase.snapshot_epoch
    transaction.on_commit(  # robust: a failure to keep it never fails what was done
        lambda: Phase.objects.filter(pk=phase.pk, snapshot_epoch=epoch).update(
            snapshot=data, snapshot_rules=RULES_VERSION
        ),
        robust=True,
    )


def opening_state(phase: Phase, game: Game) -> Opening:
    """The state after the game's committed phases, from ``phase``'s snapshot (the row
    as just read: the submissions read it share-locked) or rebuilt and kept."""
    state = _stored(phase)
    if state is None:
        state = rebuild(game).state
        _keep(phase, state)
    return Opening(rules_for(game), state)


def built_from_snapshot(game: Game, phase: Phase | None, *, players: bool = True) -> Rebuilt:
    """A ``Rebuilt`` for the pages, from ``phase``'s snapshot when it has a valid one; a
    finished game (no phase) is rebuilt. ``players``: with the players' rows (their
    seats), for a page that shows results."""
    if phase is None:
        return rebuild(game)
    state = _stored(phase)
    if state is None:
        built = rebuild(game)
        _keep(phase, built.state)
        return built
    rows = list(Player.objects.filter(game=game)) if players else []
    return Rebuilt(game, rules_for(game), state, rows, {p.seat: p for p in rows})


def snapshots_invalidate(game: Game) -> None:
    """After a commit, an undo or a substitution: every phase still to resolve drops its
    snapshot (and a snapshot being built from the old state will not be stored)."""
    Phase.objects.filter(game=game).exclude(status=Phase.Status.COMMITTED).update(
        snapshot=None, snapshot_epoch=F("snapshot_epoch") + 1
    )
