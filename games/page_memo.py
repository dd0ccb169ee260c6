"""What the GM's phase page works out from a phase's submissions, kept in the worker's
memory until one of them changes.

The board's tally, the preview and the post of a flooded day each pass over thousands of
vote events: a page load, a page of the submission list or a 20-second refresh that finds
nothing new does not pass over them again. An entry is found again only under the same
key: the board's version (games.board.board_version: the phase's submissions, their
latest id, the game's latest audit event and will change, the deadline, the corrections),
with what else the results read (the wills the Notaio holds by now, the next deadline,
the languages and time zones): any change makes a new key, and the work is done again.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass

from games.board import Board
from games.phases import Preview

PHASES_KEPT = 8  # phases per worker, each its latest results (a flooded day's: a few MB)


@dataclass
class Worked:
    """The phase's submission-derived results (the board without its page of the list)."""

    board: Board
    preview: Preview
    posts: dict[str, str] | None = None


_kept: OrderedDict[int, tuple[Hashable, Worked]] = OrderedDict()
_lock = threading.Lock()


def recall(phase_id: int, key: Hashable) -> Worked | None:
    """The results kept for ``phase_id`` under ``key`` (None: none, or older ones)."""
    with _lock:
        entry = _kept.get(phase_id)
        if entry is None or entry[0] != key:
            return None
        _kept.move_to_end(phase_id)
        return entry[1]


def keep(phase_id: int, key: Hashable, worked: Worked) -> None:
    """Keep ``worked`` for ``phase_id`` under ``key`` (in place of any older results)."""
    with _lock:
        _kept[phase_id] = (key, worked)
        _kept.move_to_end(phase_id)
        while len(_kept) > PHASES_KEPT:
            _kept.popitem(last=False)


def forget() -> None:
    """Drop every kept result (tests)."""
    with _lock:
        _kept.clear()
