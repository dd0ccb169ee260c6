"""Setups are data: each setup package (``roles/<package>/``) ships its ``setup.yaml``.

A setup package is a directory of Python modules with a ``setup.yaml`` (roles, counts, the
night order the engine runs, deadlines, options) and a ``rules.py`` holding its Ruleset;
``roles/*/`` is searched, and a package kept elsewhere (a setup used only by the tests)
is added with :func:`register_package`. YAML files under ``roles/setups/`` are still read
as setups of data alone.

Loading validates the file (role counts add up to the player count, every role card
is complete, deadlines are HH:MM, option values have their default's type) and fails
with a message that names the setup and the problem. The options every setup needs get
their defaults here, in :data:`COMMON_OPTIONS`.
"""

from __future__ import annotations

import importlib
import random
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import Any

import yaml

from roles.engine.messages import Message, msg
from roles.engine.options import OptionError, OptionField, option_fields

ROLES_DIR = Path(__file__).resolve().parent.parent
SETUPS_DIR = ROLES_DIR / "setups"  # setups of data alone (no package of their own)
SETUP_FILE = "setup.yaml"
# Options the generic engine and the site read, with the default a setup gets when its
# YAML does not set them (under its own prefix: "www.reveal_all_at_end").
COMMON_OPTIONS: dict[str, Any] = {
    "reveal_role_on_death": False,
    "announce_cause_of_death": False,
    "dead_members_share_win": True,
    "allow_self_vote": False,
    "allow_vote_change": True,
    "reveal_all_at_end": True,
}
# The causes of death every setup has; a setup adds its own under ``causes:`` (the one
# place where a cause gets its words, for the posts and for the GM's pages alike).
GENERIC_CAUSES: dict[str, dict[str, str]] = {
    "executed": {"it": "giustiziato", "en": "executed"},
    "pack": {"it": "ucciso nella notte", "en": "killed in the night"},
    "gm": {"it": "correzione del master", "en": "the game master's correction"},
}
_registered: dict[str, tuple[Path, str]] = {}  # key -> (setup.yaml, package), from elsewhere
_TIME = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")
_CARD_FIELDS = ("count", "seen_as", "counts_as", "faction")


class SetupError(ValueError):
    """A setup file is missing or inconsistent, or options do not fit it. ``said`` is the
    message id and parameters when the site shows it to a person (an option refused), None
    for a setup file's own error (English for the developer)."""

    def __init__(self, message: str | Message) -> None:
        self.said = message if isinstance(message, Message) else None
        super().__init__(str(message))


@dataclass(frozen=True, slots=True)
class RoleCard:
    key: str
    count: int
    seen_as: str
    counts_as: str
    faction: str
    told_as: str  # the role the holder is told he has (the Vicesceriffo is told cowboy)
    name: str = ""  # the card's title, in Italian
    text: str = ""  # the card's rule text, in Italian, as the original gives it
    name_en: str = ""  # the English title (the specification's), Italian when missing
    text_en: str = ""  # the card's text in English, Italian when missing

    def title(self, lang: str = "it") -> str:
        """The card's title in ``lang`` (the Italian one when it has no other)."""
        return self.name_en if lang == "en" and self.name_en else self.name

    def rule(self, lang: str = "it") -> str:
        """The card's text in ``lang`` (the Italian original when it has no other)."""
        return self.text_en if lang == "en" and self.text_en else self.text


@dataclass(frozen=True)
class Setup:
    key: str
    name: str
    players: int
    factions: tuple[str, ...]
    cards: dict[str, RoleCard]
    night_order: tuple[str, ...]
    deadlines: dict[str, str] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    option_choices: dict[str, tuple[str, ...]] = field(default_factory=dict)
    info: dict[str, Any] = field(default_factory=dict)
    version: int = 1  # bumped by hand when a rules change is meant to change outcomes
    faction_names: dict[str, str] = field(default_factory=dict)  # as the posts name them
    faction_names_en: dict[str, str] = field(default_factory=dict)  # as English posts do
    causes: dict[str, dict[str, str]] = field(default_factory=dict)  # cause -> lang -> label
    texts: dict[str, dict[str, str]] = field(default_factory=dict)  # the setup's own lines
    labels: dict[str, dict[str, str]] = field(default_factory=dict)  # ability key -> label
    demo: dict[str, Any] = field(default_factory=dict)  # manage.py load_demo's game
    option_fields: dict[str, OptionField] = field(default_factory=dict)  # typed and worded
    retired_options: frozenset[str] = frozenset()  # once offered, read by nothing: refused
    renamed_options: dict[str, str] = field(default_factory=dict)  # old key -> its new key

    @cached_property
    def roles(self) -> dict[str, int]:
        """Role key -> how many are dealt (roles dealt 0 times are left out)."""
        return {key: card.count for key, card in self.cards.items() if card.count}

    @cached_property
    def dealt_cards(self) -> tuple[str, ...]:
        """Every role card of the setup, in the file's order, one per player."""
        return tuple(role for role, count in self.roles.items() for _ in range(count))

    def role_list(self) -> list[str]:
        """Every role card of the setup, in the file's order, one per player."""
        return list(self.dealt_cards)

    def faction(self, key: str, lang: str = "it") -> str:
        """A faction by its name in ``lang`` (the Italian one when it has no other)."""
        english = self.faction_names_en.get(key) if lang == "en" else None
        return english or self.faction_names.get(key, key)

    def with_options(self, overrides: Mapping[str, Any] | None) -> dict[str, Any]:
        """The setup's options with ``overrides`` applied, each checked against its default.
        A renamed key is read as its new name (a game file or backup written before the
        rename); a retired or unknown key is refused naming it (``option.retired``,
        ``option.unknown``): a setting that would change nothing is never silently kept."""
        merged = dict(self.options)
        given: set[str] = set()
        for key, value in (overrides or {}).items():
            name = self.renamed_options.get(key, key)
            if name in self.retired_options:
                raise SetupError(msg("option.retired", option=key, setup=self.key))
            if name not in self.options:
                raise SetupError(msg("option.unknown", option=key, setup=self.key))
            if name in given:
                raise SetupError(msg("option.twice", option=key, setup=self.key))
            given.add(name)
            default = self.options[name]
            if isinstance(default, bool) != isinstance(value, bool) or (
                not isinstance(default, bool) and type(default) is not type(value)
            ):
                raise SetupError(msg("option.kind", option=key, kind=type(default).__name__,
                                     value=repr(value)))  # fmt: skip
            typed = self.option_fields.get(name)
            problem = typed.check(value) if typed else None
            if problem:
                raise SetupError(msg("option.value", option=key, problem=problem,
                                     value=repr(value)))  # fmt: skip
            merged[name] = value
        return merged


def _declared_key(path: Path) -> str:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not data.get("key"):
        raise SetupError(f"Setup file {path} declares no key")
    return str(data["key"])


@cache
def _shipped() -> dict[str, tuple[Path, str | None]]:
    """Setup key -> (its YAML, its package) for every setup under roles/."""
    found: dict[str, tuple[Path, str | None]] = {}
    for path in sorted(ROLES_DIR.glob(f"*/{SETUP_FILE}")):
        found[_declared_key(path)] = (path, f"roles.{path.parent.name}")
    for path in sorted(SETUPS_DIR.glob("*.yaml")):
        found.setdefault(path.stem, (path, None))
    return found


def register_package(module: str) -> str:
    """Add the setup package ``module`` kept outside roles/ (a setup the tests use); return
    its setup key."""
    package = importlib.import_module(module)
    path = Path(package.__file__ or "").parent / SETUP_FILE
    if not path.is_file():
        raise SetupError(f"Setup package {module!r} has no {SETUP_FILE}")
    key = _declared_key(path)
    _registered[key] = (path, module)
    return key


def _sources() -> dict[str, tuple[Path, str | None]]:
    return {**_shipped(), **_registered}


def available_setups() -> list[str]:
    """The keys of every setup Tabula knows, sorted."""
    return sorted(_sources())


def setup_dir(key: str) -> Path:
    """The directory of setup ``key``'s YAML (its package, for a setup package)."""
    return _sources()[key][0].parent


def setup_package(key: str) -> str | None:
    """The Python package of setup ``key`` (None for a setup of data alone)."""
    source = _sources().get(key)
    return source[1] if source else None


def _card(setup_key: str, role: str, data: Any, text: Any) -> RoleCard:
    if not isinstance(data, dict) or any(name not in data for name in _CARD_FIELDS):
        raise SetupError(f"Setup {setup_key!r}: role {role!r} needs {', '.join(_CARD_FIELDS)}")
    if not isinstance(text, dict) or not text.get("name") or not text.get("text"):
        raise SetupError(f"Setup {setup_key!r}: role {role!r} has no card (name and text)")
    intern = sys.intern  # the engine compares these with its literals: the same objects
    return RoleCard(
        key=intern(role),
        count=int(data["count"]),
        seen_as=intern(str(data["seen_as"])),
        counts_as=intern(str(data["counts_as"])),
        faction=intern(str(data["faction"])),
        told_as=intern(str(data.get("told_as", role))),
        name=str(text["name"]),
        text=" ".join(str(text["text"]).split()),
        name_en=str(text.get("name_en") or ""),
        text_en=" ".join(str(text.get("text_en") or "").split()),
    )


@cache
def load_setup(key: str) -> Setup:
    """Load and validate the setup called ``key``."""
    source = _sources().get(key)
    if source is None:
        raise SetupError(f"Unknown setup {key!r}; known setups: {', '.join(available_setups())}")
    path = source[0]
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    for name in ("key", "name", "players", "roles", "cards"):
        if name not in data:
            raise SetupError(f"Setup {key!r} ({path.name}): missing {name!r}")
    named = [name for name in data.get("options") or {} if "." in name]
    prefix = str(data.get("option_prefix") or (named[0].split(".")[0] + "." if named else ""))
    texts = data.get("cards") or {}
    cards = {}
    for role, spec in data["roles"].items():
        card = _card(key, str(role), spec, texts.get(role))
        cards[card.key] = card
    options = {
        _interned(name): _interned(value)
        for name, value in {
            **{prefix + k: v for k, v in COMMON_OPTIONS.items()},
            **dict(data.get("options") or {}),
        }.items()
    }
    option_choices = {k: tuple(v) for k, v in (data.get("option_choices") or {}).items()}
    try:
        typed = option_fields(options, option_choices, data.get("option_fields") or {}, prefix)
    except OptionError as error:
        raise SetupError(f"Setup {key!r}: {error}") from None
    setup = Setup(
        key=data["key"],
        name=data["name"],
        players=int(data["players"]),
        factions=tuple(sys.intern(str(f)) for f in data.get("factions") or ()),
        cards=cards,
        night_order=tuple(data.get("night_order") or ()),
        deadlines=dict(data.get("deadlines") or {}),
        options=options,
        option_choices=option_choices,
        option_fields=typed,
        retired_options=frozenset(data.get("retired_options") or ()),
        renamed_options={str(k): str(v) for k, v in (data.get("renamed_options") or {}).items()},
        info=dict(data.get("info") or {}),
        version=int(data.get("version", 1)),
        faction_names={str(k): str(v) for k, v in (data.get("faction_names") or {}).items()},
        faction_names_en={str(k): str(v) for k, v in (data.get("faction_names_en") or {}).items()},
        causes={**GENERIC_CAUSES, **_labels(key, "causes", data.get("causes"))},
        texts=_labels(key, "texts", data.get("texts")),
        labels=_labels(key, "labels", data.get("labels")),
        demo=dict(data.get("demo") or {}),
    )
    if setup.key != key:
        raise SetupError(f"Setup file {path.name} declares key {setup.key!r}, expected {key!r}")
    total = sum(card.count for card in cards.values())
    if total != setup.players:
        raise SetupError(f"Setup {key!r}: role counts add up to {total}, not {setup.players}")
    for card in cards.values():
        if card.faction not in (*setup.factions, "solitario", "villaggio"):
            raise SetupError(f"Setup {key!r}: role {card.key!r} has unknown faction")
        if card.told_as not in cards:
            raise SetupError(f"Setup {key!r}: role {card.key!r} is told an unknown role")
    for old, new in setup.renamed_options.items():
        if new not in setup.options or old in setup.options:
            raise SetupError(f"Setup {key!r}: renamed option {old} must name a current one")
    for name, choices in setup.option_choices.items():
        if setup.options.get(name) not in choices:
            raise SetupError(f"Setup {key!r}: option {name} defaults outside its choices")
    for name, value in setup.deadlines.items():
        if not _TIME.match(str(value)):
            raise SetupError(f"Setup {key!r}: deadline {name} = {value!r} is not HH:MM")
    return setup


def _interned(value: Any) -> Any:
    """A string the engine compares with its literals, interned (the same object: compared
    and looked up by identity); anything else as it is."""
    return sys.intern(value) if type(value) is str else value


def _labels(key: str, what: str, data: Any) -> dict[str, dict[str, str]]:
    """``{name: {it: ..., en: ...}}``, Italian required."""
    labels = {}
    for name, texts in (data or {}).items():
        if not isinstance(texts, dict) or not texts.get("it"):
            raise SetupError(f"Setup {key!r}: {what}.{name} needs an Italian text ('it')")
        labels[str(name)] = {str(lang): str(text) for lang, text in texts.items()}
    return labels


def label(labels: dict[str, str], lang: str) -> str:
    """A text in ``lang``, Italian when the setup has no translation."""
    return labels.get(lang) or labels["it"]


def deal_roles(setup: Setup, names: Sequence[str], rng: random.Random) -> dict[str, str]:
    """Deal the setup's role cards at random to ``names`` (seating order kept)."""
    if len(names) != setup.players:
        raise SetupError(
            f"Setup {setup.key!r} needs exactly {setup.players} players, got {len(names)}"
        )
    cards = setup.role_list()
    rng.shuffle(cards)
    return dict(zip(names, cards, strict=True))
