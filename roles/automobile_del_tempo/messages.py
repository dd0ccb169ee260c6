# ruff: noqa: E501  (one sentence per line reads better than split strings)
"""Every sentence the Time Car referee can say, by message id: the English template here,
the Italian (the default) in the package's gettext catalogue, locale/it/. Answers about an action leave out who acts (the page or the error line names
him first); the posts name everyone. Places in the parameters are written as
``train.Place`` strings and rendered here in words."""

from __future__ import annotations

import gettext
import re
from functools import cache
from pathlib import Path
from typing import Any

LOCALE = Path(__file__).resolve().parent / "locale"


def _(template: str) -> str:
    """Mark an English template for the catalogue (a no-op, like ``gettext_noop``)."""
    return template


@cache
def catalogue(lang: str) -> gettext.NullTranslations:
    """The package's catalogue for ``lang`` (gettext's own reader: the referee stays free of
    Django, and the site reads the same file); English is the templates themselves, and an
    unknown language reads Italian, the default."""
    if lang == "en":
        return gettext.NullTranslations()
    return gettext.translation("django", LOCALE, languages=["it"])


def say(template: str, lang: str) -> str:
    return catalogue(lang).gettext(template)


# id -> the English template (the gettext msgid, ``str.format`` placeholders); the Italian is
# this package's catalogue, locale/it/LC_MESSAGES/django.po
TEXT: dict[str, str] = {
    "adt.base_game": _(
        "a base-game move that does not touch the Time Car: the site does not judge it, the GM does"
    ),
    "adt.hidden": _("is hidden and has no position until revealed"),
    "adt.target_hidden": _(
        "cannot reach {target}: he is hidden and has no position until revealed"
    ),
    "adt.start.time_car": _("cannot start the game in the Time Car"),
    "adt.start.horse_attack": _("cannot be placed in the Time Car during the Horse Attack"),
    "adt.move.enter": _("enters the Time Car from {origin}"),
    "adt.move.enter_over_roof": _(
        "walks along the roof from {origin} into the Time Car ({steps} steps)"
    ),
    "adt.move.leave": _("leaves the Time Car for {to}"),
    "adt.move.leave_over_roof": _(
        "leaves the Time Car and walks along the roof to {to} ({steps} steps)"
    ),
    "adt.move.not_adjacent": _(
        "cannot move between {origin} and {to}: the Time Car is adjacent only to the Locomotive's roof and interior"
    ),
    "adt.move.too_far": _(
        "cannot move between {origin} and {to}: {steps} steps along the roof, at most {most}"
    ),
    "adt.move.already_there": _("is already in the Time Car"),
    "adt.ride.no_horses": _("cannot Ride: the game is played without Horses & Stagecoach"),
    "adt.ride.enter": _("rides into the Time Car from {origin}"),
    "adt.ride.leave": _("rides out of the Time Car to {to}"),
    "adt.change_floor.useless": _("Change Floor has no effect in the Time Car"),
    "adt.fire.same_car": _("cannot fire at {target}: both are in the Time Car"),
    "adt.fire.locomotive_interior": _(
        "may fire at {target} between the Time Car and the Locomotive's interior"
    ),
    "adt.fire.interior_not_adjacent": _(
        "cannot fire at {target}: of the interiors only the Locomotive's is adjacent to the Time Car"
    ),
    "adt.fire.roof_in_sight": _(
        "may fire at {target}: the roof and the Time Car are in Line of Sight"
    ),
    "adt.fire.no_line_of_sight": _(
        "cannot fire at {target}: {blocker} stands in the Line of Sight"
    ),
    "adt.fire.stagecoach_roof": _(
        "may fire at {target} between the Stagecoach's roof and the Time Car"
    ),
    "adt.fire.stagecoach_interior": _(
        "cannot fire at {target}: only the Stagecoach's roof can fire with the Time Car"
    ),
    "adt.fire.django_into_time_car": _(
        "fires at {target} on the Locomotive's roof: Django's shot pushes him into the Time Car"
    ),
    "adt.fire.django_out_of_reach": _(
        "cannot fire at {target} on the Locomotive's roof from {origin}"
    ),
    "adt.punch.not_together": _("cannot punch {target}: they are not in the same place"),
    "adt.punch.into_time_car": _("punches {target} into the Time Car"),
    "adt.punch.not_from_locomotive": _(
        "cannot punch {target} into the Time Car: only from the Locomotive's roof or interior"
    ),
    "adt.punch.out_to_interior": _("punches {target} out into the Locomotive's interior"),
    "adt.punch.never_to_roof": _(
        "cannot punch {target} from the Time Car onto the Locomotive's roof"
    ),
    "adt.punch.only_locomotive_interior": _(
        "cannot punch {target} to {to}: out of the Time Car only into the Locomotive's interior"
    ),
    "adt.rob.time_car_loot": _("takes {loot} from the Time Car"),
    "adt.rob.no_such_loot": _("cannot take {loot}: there is none in the Time Car"),
    "adt.marshal.never": _("can never enter the Time Car"),
    "adt.place.time_car": _(
        "the Time Car is entered and left only by the rules' actions (Move, Ride, Punch, Django, Braking)"
    ),
    "adt.event.braking": _("Braking pushes him from the Locomotive's roof into the Time Car"),
    "adt.hide.missing": _(
        "is alone in the Time Car at the end of the round: he must choose where to hide"
    ),
    "adt.hide.not_alone": _("cannot hide: no Bandit is alone in the Time Car"),
    "adt.hide.last_round": _("cannot hide on the last round"),
    "adt.hide.no_stagecoach": _(
        "cannot hide under the Stagecoach: the game is played without Horses & Stagecoach"
    ),
    "adt.hide.where": _("hides under {under}"),
    "adt.hide.none": _("nobody hides"),
    "adt.hide.not_him": _("cannot hide: the Bandit alone in the Time Car is {bandit}"),
    "adt.hide.no_such_spot": _("cannot hide under {under}: it is not on this train"),
    "adt.reveal": _("reappears in the interior of {under}"),
    "post.hid": _(
        "End of round {round}: {bandit} was alone in the Time Car and vanished. He hides under the train: nobody knows where."
    ),
    "post.reveal": _("The Stealin' phase of round {round} begins: {bandit} reappears in {at}."),
    "post.end_bonus": _(
        "End of the game: {bandit} is alone in the Time Car and gets $500 and the loot inside ({loot}): ${value} in all."
    ),
    "post.end_crowded": _(
        "End of the game: {bandits} are in the Time Car: nobody gets the $500 or the loot."
    ),
    "post.end_empty": _("End of the game: the Time Car is empty, nobody gets the $500."),
    "post.title_reveal": _("Time Car: the reveal"),
    "post.title_hid": _("Time Car: a Bandit vanishes"),
    "post.title_end": _("Time Car: end of the game"),
    "adt.table.not_now": _("not now: the round's phase does not allow it"),
    "adt.table.over": _("the game is over"),
    "nothing": _("nothing"),
    # a form not well filled (ActionError, PlaceError, SetupError): the GM's input, not a rule
    "adt.error.no_bandit": _("the action names no Bandit: choose who acts"),
    "adt.error.unknown_bandit": _("{name} is not a Bandit of this game"),
    "adt.error.no_place": _("the action names no place: choose where (To)"),
    "adt.error.not_a_place": _("{text} is not a place of this train"),
    "adt.error.not_on_train": _(
        "{text} is not on this train (the Locomotive and cars 1 to {cars})"
    ),
    "adt.error.no_stagecoach": _("there is no Stagecoach without Horses & Stagecoach"),
    "adt.error.not_hiding_spot": _("the Time Car is not a hiding spot"),
    "adt.error.no_loot": _("the action names no loot: choose which"),
    "adt.error.not_loot": _(
        "{text} is not a loot token (a purse of $250 to $500, a jewel, a strongbox)"
    ),
    "adt.error.marshal_interior": _("the Marshal stands inside the Locomotive or a car"),
    "adt.error.unknown_action": _("unknown action: {text}"),
    "adt.error.fire_self": _("cannot fire at himself"),
    "adt.error.punch_self": _("cannot punch himself"),
    "adt.error.cars": _("the train has {least} to {most} cars"),
    "adt.error.bandit_count": _("Colt Express is played by 2 to 6 Bandits"),
    "adt.error.rounds": _("the number of rounds must be a positive number"),
    "adt.error.unknown_option": _("unknown option {text}"),
    "adt.error.option_bool": _("the option {text} is either on or off"),
    "adt.error.unknown_character": _("{name}: {text} is not a character of the game"),
    "adt.error.character_taken": _("{name}: {text} is already played by another Bandit"),
    "adt.error.stagecoach_beside": _("the Stagecoach runs beside a car or the Locomotive"),
}

UNITS = {"time_car": _("the Time Car"), "locomotive": _("the Locomotive"),
         "stagecoach": _("the Stagecoach"), "car": _("car {n}")}  # fmt: skip
FLOORS = {"roof": _("the roof of {unit}"), "interior": _("the interior of {unit}")}
LOOT = {"jewel": _("a jewel ($500)"), "strongbox": _("a strongbox ($1000)"),
        "purse": _("a purse (${v})")}  # fmt: skip
PLACE_PARAMS = {"origin", "to", "at"}
UNIT_PARAMS = {"under"}
LOOT_PARAMS = {"loot"}
NAME_LIST_PARAMS = {"bandits"}


def unit_name(unit: str, lang: str = "it") -> str:
    if unit.startswith("car"):
        return say(UNITS["car"], lang).format(n=unit[3:])
    return say(UNITS[unit], lang) if unit in UNITS else unit


def place_name(place: str, lang: str = "it") -> str:
    """``car2:roof`` in words."""
    unit, _, floor = place.partition(":")
    if not floor:
        return unit_name(unit, lang)
    return _contract(say(FLOORS[floor], lang).format(unit=unit_name(unit, lang)))


_ARTICLED = re.compile(r"\b(di|da|in|a) (il |la |l')")
_STEMS = {"di": "de", "da": "da", "in": "ne", "a": "a"}
_ENDINGS = {"il ": "l ", "la ": "lla ", "l'": "ll'"}


def _contract(text: str) -> str:
    """Italian articled prepositions: "di il" -> "del", "da l'" -> "dall'", "in la" -> "nella"."""
    return _ARTICLED.sub(lambda m: _STEMS[m[1]] + _ENDINGS[m[2]], text)


def loot_name(token: str, lang: str = "it") -> str:
    kind, _sep, value = token.partition(":")
    return say(LOOT[kind], lang).format(v=value) if kind in LOOT else token


def _param(key: str, value: Any, lang: str) -> Any:
    if value is None:
        return value
    if key in PLACE_PARAMS:
        return place_name(str(value), lang)
    if key in UNIT_PARAMS:
        return unit_name(str(value), lang)
    if key in LOOT_PARAMS:
        tokens = value if isinstance(value, list) else [value]
        words = [loot_name(t, lang) for t in tokens]
        return ", ".join(words) if words else say(TEXT["nothing"], lang)
    if key in NAME_LIST_PARAMS:
        return ", ".join(value)
    return value


class WordedError(ValueError):
    """A refusal of an input that is not well formed (not a rule's: a form left empty, an
    unknown name), by message id like the referee's answers: ``str()`` is the English (the
    replay's error line), :meth:`text` the sentence in the reader's language."""

    def __init__(self, message: str, **params: Any) -> None:
        super().__init__(render(message, params, "en"))
        self.message = message
        self.params = params

    def text(self, lang: str = "it") -> str:
        return render(self.message, self.params, lang)


def render(message: str, params: dict[str, Any], lang: str = "it") -> str:
    """The sentence for ``message`` in ``lang`` (Italian when the language is unknown)."""
    text = say(TEXT[message], lang).format(**{k: _param(k, v, lang) for k, v in params.items()})
    return _contract(text) if lang != "en" else text
