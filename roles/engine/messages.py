"""Everything the engine says to a person: a message id and its parameters.

The engine never imports Django, so it never translates. It says
``Message("vote.self", {})``; the id maps to an English template, declared once with
the no-op marker :func:`_` (so ``makemessages`` / ``xgettext -k_`` find it), and that
template is the gettext msgid the site translates through ``locale/*/django.po``. The
replay prints the English rendering (``str(message)``), which never changes when a
translation does.

A parameter is a plain value (a name, a number, a list of names already joined, a
``repr`` already taken), a
:class:`Role` (a role key: the key in English, the card's name on the site), a
:class:`Word` (a verb or label translated in its context), or another message.

Generic messages are declared here; a setup declares its own in its package's
``messages.py`` (ids prefixed by the setup: ``www.``, ``inq.``) with :func:`declare`.
docs/adding-a-setup.md says how.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

LOCALE = Path(__file__).resolve().parent / "locale"

# id -> English template (%-style, named parameters): the gettext msgid
CATALOGUE: Final[dict[str, str]] = {}
# (context, word) pairs a setup uses as Word parameters, for the catalogue test
WORDS: Final[set[tuple[str, str]]] = set()

VERB: Final = "verb"  # "investigate", as in "can investigate only at night"
VERB_TO: Final = "verb with object"  # "investigate", as in "cannot investigate Cid twice"
FACTION: Final = "faction"  # a side by its English name, "Law", as in "Law win: ..."


def gettext_noop(template: str) -> str:
    """Mark an English template for the catalogues (a no-op, like Django's)."""
    return template


_ = gettext_noop  # the marker xgettext looks for (assigned: compiled, a ``def _`` is not exported)


@cache
def engine_catalogue(lang: str) -> gettext.NullTranslations:
    """The engine's own catalogue read without Django (the replay's Italian posts): English
    is the templates themselves; any other language reads Italian, the default."""
    if lang == "en":
        return gettext.NullTranslations()
    return gettext.translation("django", LOCALE, languages=["it"])


def declare(templates: Mapping[str, str]) -> None:
    """Add a module's messages to the catalogue; an id declared twice with two texts is
    a programming error."""
    for key, template in templates.items():
        known = CATALOGUE.setdefault(key, template)
        if known != template:
            raise ValueError(f"message {key!r} declared twice with different texts")


def words(context: str, *texts: str) -> None:
    """Declare the words a setup passes as :class:`Word` parameters."""
    WORDS.update((context, text) for text in texts)


class Role:
    """A role key as a parameter: the site names the card, English keeps the key. A value
    (treat it as immutable): written out rather than a frozen dataclass, as
    :class:`Message` is, since the engine makes one for many lines of a trace."""

    __slots__ = ("key",)

    def __init__(self, key: str) -> None:
        self.key = key

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Role:
            return NotImplemented
        assert isinstance(other, Role)
        return self.key == other.key

    def __hash__(self) -> int:
        return hash((self.key,))

    def __repr__(self) -> str:
        return f"Role(key={self.key!r})"

    def __str__(self) -> str:
        return self.key


class Word:
    """A word translated in its context (``pgettext(context, text)`` on the site); a value,
    written out as :class:`Role` is."""

    __slots__ = ("context", "text")

    def __init__(self, text: str, context: str = VERB) -> None:
        self.text = text
        self.context = context

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Word:
            return NotImplemented
        assert isinstance(other, Word)
        return self.text == other.text and self.context == other.context

    def __hash__(self) -> int:
        return hash((self.text, self.context))

    def __repr__(self) -> str:
        return f"Word(text={self.text!r}, context={self.context!r})"

    def __str__(self) -> str:
        return self.text


class Message:
    """A message id, its parameters and the rule tags shown after it. Written out rather
    than a frozen dataclass: the engine makes one for every line of every trace, and a
    frozen dataclass's init sets each field through ``object.__setattr__``. Treat it as
    immutable (it compares and hashes by value)."""

    __slots__ = ("id", "params", "rules")

    def __init__(self, id: str, params: Mapping[str, Any] | None = None, rules: str = "") -> None:
        self.id = id
        self.params: Mapping[str, Any] = {} if params is None else params
        self.rules = rules  # the rule tags shown after the sentence: "WWW-R42, WWW-D22"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Message:
            return NotImplemented
        assert isinstance(other, Message)
        return self.id == other.id and self.params == other.params and self.rules == other.rules

    def __hash__(self) -> int:
        return hash((self.id, self.params, self.rules))

    def __repr__(self) -> str:
        return f"Message(id={self.id!r}, params={self.params!r}, rules={self.rules!r})"

    def __str__(self) -> str:
        return render(self)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: how a message is stored with a phase."""
        data: dict[str, Any] = {
            "id": self.id,
            "params": {k: _encode(v) for k, v in self.params.items()},
        }
        if self.rules:
            data["rules"] = self.rules
        return data


@dataclass(frozen=True, slots=True)
class ResultKind:
    """A kind of private result as a setup declares it: the sentence a player reads,
    from the result's ``about`` and ``value`` (names already current), and whether its
    value names players (the site stores those names as seats, so a substitution
    renames them)."""

    say: Callable[[str | None, Any], Message]
    names: bool = False


def msg(key: str, rules: str = "", /, **params: Any) -> Message:
    """``msg("vote.self", "WWW-D4", voter="Ada")``."""
    return Message(key, params, rules)


def verb(text: str) -> Word:
    return Word(text, VERB)


def verb_to(text: str) -> Word:
    return Word(text, VERB_TO)


def _encode(value: Any) -> Any:
    if isinstance(value, Message):
        return value.as_dict()
    if isinstance(value, Role):
        return {"role": value.key}
    if isinstance(value, Word):
        return {"word": value.text, "context": value.context}
    return value


def decode(data: Any) -> Any:
    """The inverse of :meth:`Message.as_dict` (a stored plain string stays a string)."""
    if isinstance(data, Mapping):
        if "id" in data:
            params = {k: decode(v) for k, v in (data.get("params") or {}).items()}
            return Message(str(data["id"]), params, str(data.get("rules") or ""))
        if "role" in data:
            return Role(str(data["role"]))
        if "word" in data:
            return Word(str(data["word"]), str(data.get("context") or VERB))
    return data


def render(
    message: Message,
    translate: Callable[[str], str] = str,
    word: Callable[[Word], str] = str,
    role: Callable[[Role], str] = str,
) -> str:
    """The message in words: English by default; the site passes its gettext, its
    contextual gettext for words and the card's name for roles."""
    params = {}
    for key, value in message.params.items():
        if isinstance(value, Message):
            value = render(value, translate, word, role)
        elif isinstance(value, Word):
            value = word(value)
        elif isinstance(value, Role):
            value = role(value)
        params[key] = value
    text = translate(CATALOGUE[message.id]) % params
    return f"{text} [{message.rules}]" if message.rules else text


def listed(value: Any) -> Any:
    """A list of names as one parameter."""
    return ", ".join(value) if isinstance(value, list) else value


# -- the generic engine's messages ---------------------------------------------------------

declare({
    # refusals (RuleViolation)
    "action.night_only": _("can %(verb)s only at night"),
    "action.day_only": _("can %(verb)s only by day"),
    "action.only_night": _("can %(verb)s only on N%(night)s"),
    "action.not_n0": _("cannot %(verb)s on N0"),
    "action.once_used": _("has already used his once-per-game power (%(verb)s)"),
    "action.repeat": _("cannot %(verb)s %(target)s two nights in a row"),
    "action.never_twice": _("cannot %(verb)s %(target)s a second time"),
    "action.slot_used": _("has already used this ability in this phase"),
    "action.no_target": _("must name a player to %(verb)s"),
    "action.self": _("cannot %(verb)s himself"),
    "action.target_departed": _("cannot %(verb)s %(target)s, who has left the game"),
    "action.target_dead": _("cannot %(verb)s %(target)s, who is dead"),
    "action.no_ability": _("has no ability to use"),
    "action.extra_field": _("submitted a field his role does not have"),
    "action.not_n0_act": _("cannot act on N0"),
    "vote.at_night": _("cannot vote at night"),
    "vote.no_secret": _("has no secret vote"),
    "vote.target_out": _("cannot vote for %(target)s, who is not in the game"),
    "vote.self": _("cannot vote for himself"),
    "vote.no_change": _("cannot change his vote"),
    "player.departed": _("has left the game"),
    "player.dead": _("is dead and cannot act"),
    "player.unknown": _("unknown player %(name)s"),
    "phase.out_of_order": _("phase %(label)s given where %(expected)s comes next"),
    "game.over": _("the game is already over"),
    "correction.unknown": _("unknown correction %(kind)s"),
    "correction.no_step": _("%(label)s has no step %(step)s (steps: %(steps)s)"),
    "deal.count": _("%(setup)s needs exactly %(players)s players, got %(got)s"),
    "deal.not_dealt": _("role %(role)s is not dealt in %(setup)s"),
    "deal.role_count": _("%(setup)s deals %(wanted)s × %(role)s, the scenario has %(got)s"),
    "deal.unknown_draw": _("unknown draw %(draw)s"),
    "option.unknown": _("unknown option %(option)s for %(setup)s"),
    "option.retired": _("option %(option)s is retired in %(setup)s: it changes nothing, remove it"),
    "option.twice": _("option %(option)s is given twice (under its old and its new name)"),
    "option.kind": _("option %(option)s must be a %(kind)s, got %(value)s"),
    "option.value": _("option %(option)s %(problem)s, got %(value)s"),
    # the explanation trace
    "trace.gm_kill": _("GM correction: %(player)s dies (%(reason)s)"),
    "trace.gm_spare": _("GM correction: %(player)s survives (%(reason)s)"),
    "trace.no_execution": _("no vote counts: no execution"),
    "trace.executed": _("%(player)s is executed with %(votes)s votes"),
    "trace.win": _("%(factions)s win: %(winners)s"),
})  # fmt: skip

declare({
    "result.role": _("Your role: %(role)s."),
    "result.knows": _("You know: %(names)s."),
    "result.other": _("%(kind)s: %(value)s"),
    "step.vote": _("the vote"),
    "step.other": _("%(step)s"),
})  # fmt: skip

# The result kinds every setup has (new_game's ``role``; the start's ``knows``).
RESULTS: Final[dict[str, ResultKind]] = {
    "role": ResultKind(lambda about, value: msg("result.role", role=Role(value))),
    "knows": ResultKind(lambda about, value: msg("result.knows", names=listed(value)), names=True),
}


def describe_result(
    kinds: Mapping[str, ResultKind], kind: str, about: str | None, value: Any
) -> Message:
    """A result as a message; a kind nobody declared reads as its key and value."""
    declared = kinds.get(kind)
    if declared is None:
        return msg("result.other", kind=kind, value=listed(value))
    return declared.say(about, value)
