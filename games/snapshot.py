"""The engine's state at a phase's opening, kept on the phase row.

A vote, an action and a player's page only need the state after the committed phases:
rebuilding it replays the whole game, so it is kept, pickled, in the phase's ``snapshot``
column (PostgreSQL: a cache or Redis outage never stops a vote) and read back with the
row the submission locks anyway. It is stale after a commit, an undo or a substitution
(names), which call ``snapshots_invalidate``, and after any change of the rules' code:
``rules_version`` (the ruleset's own version, a digest of its code, and the bridge's)
is kept with it, so a deploy of other rules invalidates every snapshot by itself, and so
does a switch between the compiled engine and its pure source. The
pickle is written and read only by this module, from rows of our own database.

A snapshot is written back after the transaction that built it, guarded by the row's
``snapshot_epoch`` (bumped by every invalidation): a commit landing in between wins.
"""

from __future__ import annotations

import hashlib
import logging
import pickle
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from django.db import transaction
from django.db.models import BinaryField, Case, CharField, F, Value, When

from games.engine import Rebuilt, rebuild, rules_for
from games.models import Game, Phase, Player
from roles.engine.model import GameState
from roles.engine.ruleset import Ruleset
from roles.native import implementation

log = logging.getLogger(__name__)


# The bridge that turns stored inputs into the engine's state (games/engine.py) counts too.
_BRIDGE = hashlib.blake2b(
    (Path(__file__).resolve().parent / "engine.py").read_bytes(), digest_size=4
).hexdigest()


def rules_version(rules: Ruleset) -> str:
    """What a snapshot was built with: the ruleset's version (its setup's declared version
    and a digest of its code and the engine's), the bridge's digest and the engine's
    implementation (compiled or pure: their classes pickle differently, roles/native.py)."""
    return f"{rules.version}/{_BRIDGE}/{implementation()}"


@dataclass
class Opening:
    """What the hot paths ask the engine about: its rules and the state to judge on."""

    rules: Ruleset
    state: GameState


def _stored(phase: Phase, rules: Ruleset) -> GameState | None:
    if phase.snapshot is None or phase.snapshot_rules != rules_version(rules):
        return None
    try:
        return pickle.loads(phase.snapshot)
    except Exception:  # a class renamed under the same sources cannot happen; be safe
        log.exception("unreadable snapshot of phase %s: rebuilt", phase.pk)
        return None


def _keep(phase: Phase, rules: Ruleset, state: GameState) -> None:
    """Store the state on the row once the current transaction commits, unless the row
    was invalidated meanwhile (its epoch moved on)."""
    try:
        data = pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError):  # the next caller rebuilds
        log.exception("the state of phase %s cannot be kept", phase.pk)
        return
    _remember(data)
    epoch, version = phase.snapshot_epoch, rules_version(rules)
    transaction.on_commit(  # robust: a failure to keep it never fails what was done
        lambda: Phase.objects.filter(pk=phase.pk, snapshot_epoch=epoch).update(
            snapshot=data, snapshot_rules=version
        ),
        robust=True,
    )


# Unpickled snapshots shared by the readers of this process, by their pickled bytes: the
# same bytes are the same state, so an entry can never be stale (a commit, an undo or a
# rules change writes other bytes, or none). Its states must never be changed.
_SHARED: OrderedDict[bytes, GameState] = OrderedDict()
SHARED_SIZE = 256  # the phases open at once on a busy evening, several times over


def shared_state(phase: Phase, rules: Ruleset) -> GameState | None:
    """``_stored`` for a caller that only reads the state: unpickled once per process
    (None without a snapshot of these rules)."""
    data = phase.snapshot
    if data is None or phase.snapshot_rules != rules_version(rules):
        return None
    data = bytes(data)
    state = _SHARED.get(data)
    if state is not None:
        _SHARED.move_to_end(data)
        return state
    state = _stored(phase, rules)
    if state is not None:
        _SHARED[data] = state
        if len(_SHARED) > SHARED_SIZE:
            _SHARED.popitem(last=False)
    return state


# The same states by the SHA-256 of their pickled bytes, for the vote: its statement reads
# the digest instead of the snapshot (the bytes, their unescaping and hashing cost each
# vote more than the store), and the bytes only when this process has not unpickled them.
_BY_DIGEST: OrderedDict[bytes, GameState] = OrderedDict()


def digest_state(phase: Phase, digest: bytes | None, rules: Ruleset) -> GameState | None:
    """``shared_state`` for a row read with the SHA-256 of its snapshot (``digest``) in
    place of the snapshot: the bytes are read only the first time, and used only if they
    are the ones the digest was read for (None, and the caller's locked path, when the
    row changed in between, has no snapshot or has one of other rules)."""
    if digest is None or phase.snapshot_rules != rules_version(rules):
        return None
    state = _BY_DIGEST.get(digest)
    if state is not None:
        _BY_DIGEST.move_to_end(digest)
        return state
    data = Phase.objects.filter(pk=phase.pk).values_list("snapshot", flat=True).first()
    if data is None or hashlib.sha256(bytes(data)).digest() != digest:
        return None
    return _remember(bytes(data))


def _remember(data: bytes) -> GameState | None:
    """The state pickled as ``data``, unpickled and kept by its digest (the vote after a
    snapshot is kept finds it: its bytes name it, whatever phase they end up on)."""
    try:
        state = pickle.loads(data)
    except Exception:  # as _stored: the caller's locked path rebuilds
        log.exception("an unreadable snapshot: rebuilt")
        return None
    _BY_DIGEST[hashlib.sha256(data).digest()] = state
    if len(_BY_DIGEST) > SHARED_SIZE:
        _BY_DIGEST.popitem(last=False)
    return state


def opening_state(phase: Phase, game: Game, *, shared: bool = False) -> Opening:
    """The state after the game's committed phases, from ``phase``'s snapshot (the row
    as just read: the submissions read it share-locked) or rebuilt and kept. ``shared``:
    the process's copy of that snapshot, for a caller that never changes it (a vote: its
    check and its answer only read the state), with no unpickling after the first."""
    rules = rules_for(game)
    state = shared_state(phase, rules) if shared else _stored(phase, rules)
    if state is None:
        state = rebuild(game).state
        _keep(phase, rules, state)
    return Opening(rules, state)


def built_from_snapshot(game: Game, phase: Phase | None, *, players: bool = True) -> Rebuilt:
    """A ``Rebuilt`` for the pages, from ``phase``'s snapshot when it has a valid one; a
    finished game (no phase) is rebuilt. ``players``: with the players' rows (their
    seats), for a page that shows results."""
    if phase is None:
        return rebuild(game)
    rules = rules_for(game)
    state = _stored(phase, rules)
    if state is None:
        built = rebuild(game)
        _keep(phase, rules, built.state)
        return built
    rows = list(Player.objects.filter(game=game)) if players else []
    return Rebuilt(game, rules, state, rows, {p.seat: p for p in rows})


def snapshots_invalidate(game: Game) -> None:
    """After a commit, an undo or a substitution: every phase still to resolve drops its
    snapshot (and a snapshot being built from the old state will not be stored)."""
    Phase.objects.filter(game=game).exclude(status=Phase.Status.COMMITTED).update(
        snapshot=None, snapshot_epoch=F("snapshot_epoch") + 1
    )


def built_before(game: Game, phase: Phase, players: list[Player] | None = None) -> Rebuilt:
    """The state ``phase`` resolves from, for its commit: its snapshot when valid (the row
    as the commit read it), else a rebuild of the committed phases before it. ``players``:
    the game's rows, when read already."""
    rules = rules_for(game)
    state = _stored(phase, rules)
    if state is None:
        before = Phase.objects.filter(
            game=game, status=Phase.Status.COMMITTED, index__lt=phase.index
        ).order_by("index")
        return rebuild(game, list(before))
    rows = players if players is not None else list(Player.objects.filter(game=game))
    return Rebuilt(game, rules, state, rows, {p.seat: p for p in rows})


def snapshots_carry(game: Game, rules: Ruleset, state: GameState) -> None:
    """After a commit: every phase still to resolve starts from ``state`` (the state after
    the phase just committed), kept in the same transaction, so the next close and the
    next vote need no rebuild; a snapshot being built from the old state is not stored."""
    snapshots_carry_many([(game, rules, state)])


def snapshots_carry_many(after: list[tuple[Game, Ruleset, GameState]]) -> None:
    """``snapshots_carry`` for several games' commits, in one update."""
    data: dict[int, tuple[bytes | None, str]] = {}
    for game, rules, state in after:
        try:
            data[game.pk] = (
                pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL),
                rules_version(rules),
            )
        except (pickle.PicklingError, TypeError, AttributeError):
            log.exception("the state after a commit of game %s cannot be kept", game.pk)
            data[game.pk] = None, ""
    if not data:
        return
    snapshot = Case(*(When(game_id=pk, then=Value(blob, output_field=BinaryField()))
                      for pk, (blob, _) in data.items()), output_field=BinaryField())  # fmt: skip
    version = Case(*(When(game_id=pk, then=Value(v)) for pk, (_, v) in data.items()),
                   output_field=CharField())  # fmt: skip
    Phase.objects.filter(game_id__in=data).exclude(status=Phase.Status.COMMITTED).update(
        snapshot=snapshot, snapshot_rules=version, snapshot_epoch=F("snapshot_epoch") + 1
    )
