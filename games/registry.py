"""Where a game that is not a Werewolf game lives: the referee desks (the desks app)
register here, as Django starts, the setup each plays, the module of its pages
(``gm_page(request, game)``, ``player_page(request, player)``, optionally
``spoiler(request, game)``) and the game's title. The Werewolf desk asks here whether a
game is a desk's and hands it over; it never imports a desk."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from types import ModuleType

from django.utils.functional import Promise

from games.models import Game

# setup key -> the module with its pages (a dotted path: imported when first used)
_DESKS: dict[str, str] = {}
_NAMES: dict[str, str | Promise] = {}  # setup key -> the game's title (a lazy translation)
# setup key -> a function that replays a desk game's log (raising when it does not)
_REPLAYS: dict[str, Callable[[Game], object]] = {}
# setup key -> the rows of a game holding a choice still sealed: {model label: {pk, ...}}
_SEALED: dict[str, Callable[[Game], Mapping[str, set[int]]]] = {}
# an audit event's kind and details -> a sentence (None: shown as the generic details)
AuditSentence = Callable[[str, Mapping[str, object]], str | None]
# setup key -> what makes a game's describer (bound to its seats' names)
_AUDIT: dict[str, Callable[[Game], AuditSentence]] = {}


def register_desk(setup_key: str, pages: str, name: str | Promise) -> None:
    """A desk's ``games/<name>_desk.py`` says, as it is imported, which setup it plays,
    where its pages are and the game's title."""
    _DESKS[setup_key] = pages
    _NAMES[setup_key] = name


def desk_name(setup_key: str) -> str:
    """A desk's title ("BANG! con Il Ribelle!") in the reader's language, the key itself
    for anything else."""
    desk_setups()
    return str(_NAMES.get(setup_key, setup_key))


def desk_setups() -> Mapping[str, str]:
    """Every desk: setup key -> the module of its pages (the desks app registers each
    desk when Django starts: desks/apps.py)."""
    return _DESKS


def desk_module(game: Game) -> ModuleType | None:
    """The pages of a desk game, or None for a Werewolf game."""
    path = desk_setups().get(game.setup)
    return import_module(path) if path else None


def register_sealed(setup_key: str, rows: Callable[[Game], Mapping[str, set[int]]]) -> None:
    """A desk whose players make sealed choices (the Time Car's hiding) says which rows
    hold one not yet revealed: a backup leaves them out (issue 27 §2)."""
    _SEALED[setup_key] = rows


def sealed_rows(game: Game) -> Mapping[str, set[int]]:
    """The rows of ``game`` that hold a sealed choice not yet revealed, by model label."""
    desk_setups()
    rows = _SEALED.get(game.setup)
    return rows(game) if rows else {}


def register_replay(setup_key: str, replay: Callable[[Game], object]) -> None:
    """A desk says how its game's log is replayed: an imported backup is checked with it,
    so a corrupt log is refused at the door, not met by every page (issue 27 §3)."""
    _REPLAYS[setup_key] = replay


def desk_replay(game: Game) -> None:
    """Replay a desk game's whole log (nothing for a Werewolf game); raises as it fails."""
    desk_setups()
    replay = _REPLAYS.get(game.setup)
    if replay is not None:
        replay(game)


def register_audit(setup_key: str, describer: Callable[[Game], AuditSentence]) -> None:
    """A desk says how its audit events read as sentences on the Registro page (its
    log's seats and keys in words), instead of the raw details (issue 30)."""
    _AUDIT[setup_key] = describer


def desk_audit(game: Game) -> AuditSentence | None:
    """The sentence maker of a desk game's audit events (None for a Werewolf game)."""
    desk_setups()
    describer = _AUDIT.get(game.setup)
    return describer(game) if describer else None
