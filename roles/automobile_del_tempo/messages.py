# ruff: noqa: E501  (one sentence per line reads better than split strings)
"""Every sentence the Time Car referee can say, by message id, in Italian (the default) and
English. Answers about an action leave out who acts (the page or the error line names
him first); the posts name everyone. Places in the parameters are written as
``train.Place`` strings and rendered here in words."""

from __future__ import annotations

import re
from typing import Any

TEXT: dict[str, dict[str, str]] = {
    "it": {
        "adt.base_game": "mossa del gioco base, che non tocca l'Automobile del Tempo: decide il GM",
        "adt.hidden": "è nascosto e non ha posizione fino alla rivelazione",
        "adt.target_hidden": "non può colpire {target}: è nascosto e non ha posizione fino alla rivelazione",
        "adt.start.time_car": "non può iniziare la partita nell'Automobile del Tempo",
        "adt.start.horse_attack": "non può entrare nell'Automobile del Tempo durante l'Attacco a Cavallo",
        "adt.move.enter": "entra nell'Automobile del Tempo da {origin}",
        "adt.move.enter_over_roof": "entra nell'Automobile del Tempo camminando sul tetto da {origin} ({steps} passi)",
        "adt.move.leave": "esce dall'Automobile del Tempo verso {to}",
        "adt.move.leave_over_roof": "esce dall'Automobile del Tempo e prosegue sul tetto fino a {to} ({steps} passi)",
        "adt.move.not_adjacent": "non può muoversi tra {origin} e {to}: l'Automobile del Tempo è adiacente solo al tetto e all'interno della Locomotiva",
        "adt.move.too_far": "non può muoversi tra {origin} e {to}: sono {steps} passi sul tetto, al massimo {most}",
        "adt.move.already_there": "è già nell'Automobile del Tempo",
        "adt.ride.no_horses": "non può Cavalcare: si gioca senza Cavalli e Diligenza",
        "adt.ride.enter": "entra a cavallo nell'Automobile del Tempo da {origin}",
        "adt.ride.leave": "esce a cavallo dall'Automobile del Tempo verso {to}",
        "adt.change_floor.useless": "Cambiare Piano non ha effetto nell'Automobile del Tempo",
        "adt.fire.same_car": "non può sparare a {target}: sono entrambi nell'Automobile del Tempo",
        "adt.fire.locomotive_interior": "può sparare a {target} tra l'Automobile del Tempo e l'interno della Locomotiva",
        "adt.fire.interior_not_adjacent": "non può sparare a {target}: dall'interno solo la Locomotiva è adiacente all'Automobile del Tempo",
        "adt.fire.roof_in_sight": "può sparare a {target}: tetto e Automobile del Tempo sono in Linea Visiva",
        "adt.fire.no_line_of_sight": "non può sparare a {target}: {blocker} è in mezzo sulla Linea Visiva",
        "adt.fire.stagecoach_roof": "può sparare a {target} tra il tetto della Diligenza e l'Automobile del Tempo",
        "adt.fire.stagecoach_interior": "non può sparare a {target}: della Diligenza solo il tetto vede l'Automobile del Tempo",
        "adt.fire.django_into_time_car": "spara a {target} sul tetto della Locomotiva: il colpo di Django lo spinge nell'Automobile del Tempo",
        "adt.fire.django_out_of_reach": "non può sparare a {target} sul tetto della Locomotiva da {origin}",
        "adt.punch.not_together": "non può dare un Pugno a {target}: non sono nello stesso posto",
        "adt.punch.into_time_car": "dà un Pugno a {target} e lo spinge nell'Automobile del Tempo",
        "adt.punch.not_from_locomotive": "non può spingere {target} nell'Automobile del Tempo: solo dal tetto o dall'interno della Locomotiva",
        "adt.punch.out_to_interior": "dà un Pugno a {target} e lo spinge nell'interno della Locomotiva",
        "adt.punch.never_to_roof": "non può spingere {target} dall'Automobile del Tempo sul tetto della Locomotiva",
        "adt.punch.only_locomotive_interior": "non può spingere {target} verso {to}: dall'Automobile del Tempo solo verso l'interno della Locomotiva",
        "adt.rob.time_car_loot": "prende {loot} dall'Automobile del Tempo",
        "adt.rob.no_such_loot": "non trova {loot} nell'Automobile del Tempo",
        "adt.marshal.never": "non può mai entrare nell'Automobile del Tempo",
        "adt.place.time_car": "nell'Automobile del Tempo si entra e se ne esce solo con le azioni delle regole (Movimento, Cavalcare, Pugno, Django, Frenata)",
        "adt.event.braking": "la Frenata lo spinge dal tetto della Locomotiva nell'Automobile del Tempo",
        "adt.hide.missing": "è solo nell'Automobile del Tempo a fine round: deve scegliere dove nascondersi",
        "adt.hide.not_alone": "non può nascondersi: nell'Automobile del Tempo non c'è un Bandito da solo",
        "adt.hide.last_round": "non può nascondersi nell'ultimo round",
        "adt.hide.no_stagecoach": "non può nascondersi sotto la Diligenza: si gioca senza Cavalli e Diligenza",
        "adt.hide.where": "si nasconde sotto {under}",
        "adt.hide.none": "nessuno si nasconde",
        "adt.hide.not_him": "non può nascondersi: il Bandito solo nell'Automobile del Tempo è {bandit}",
        "adt.hide.no_such_spot": "non può nascondersi sotto {under}: non è nel treno",
        "adt.reveal": "riappare nell'interno di {under}",
        "post.hid": "Fine del round {round}: {bandit} era solo nell'Automobile del Tempo ed è sparito. Si è nascosto sotto il treno: nessuno sa dove.",
        "post.reveal": "Inizia la fase di Furto del round {round}: {bandit} riappare in {at}.",
        "post.end_bonus": "Fine della partita: {bandit} è solo nell'Automobile del Tempo e ottiene $500 e il bottino che contiene ({loot}): ${value} in tutto.",
        "post.end_crowded": "Fine della partita: nell'Automobile del Tempo ci sono {bandits}: nessuno ottiene i $500 né il bottino.",
        "post.end_empty": "Fine della partita: l'Automobile del Tempo è vuota, nessuno ottiene i $500.",
        "post.title_reveal": "Automobile del Tempo: la rivelazione",
        "post.title_hid": "Automobile del Tempo: un Bandito sparisce",
        "post.title_end": "Automobile del Tempo: fine della partita",
        "adt.table.not_now": "non è il momento: la fase del round non lo permette",
        "adt.table.over": "la partita è finita",
        "nothing": "niente",
    },
    "en": {
        "adt.base_game": "a base-game move that does not touch the Time Car: the GM's call",
        "adt.hidden": "is hidden and has no position until revealed",
        "adt.target_hidden": "cannot reach {target}: he is hidden and has no position until revealed",
        "adt.start.time_car": "cannot start the game in the Time Car",
        "adt.start.horse_attack": "cannot be placed in the Time Car during the Horse Attack",
        "adt.move.enter": "enters the Time Car from {origin}",
        "adt.move.enter_over_roof": "walks along the roof from {origin} into the Time Car ({steps} steps)",
        "adt.move.leave": "leaves the Time Car for {to}",
        "adt.move.leave_over_roof": "leaves the Time Car and walks along the roof to {to} ({steps} steps)",
        "adt.move.not_adjacent": "cannot move between {origin} and {to}: the Time Car is adjacent only to the Locomotive's roof and interior",
        "adt.move.too_far": "cannot move between {origin} and {to}: {steps} steps along the roof, at most {most}",
        "adt.move.already_there": "is already in the Time Car",
        "adt.ride.no_horses": "cannot Ride: the game is played without Horses & Stagecoach",
        "adt.ride.enter": "rides into the Time Car from {origin}",
        "adt.ride.leave": "rides out of the Time Car to {to}",
        "adt.change_floor.useless": "Change Floor has no effect in the Time Car",
        "adt.fire.same_car": "cannot fire at {target}: both are in the Time Car",
        "adt.fire.locomotive_interior": "may fire at {target} between the Time Car and the Locomotive's interior",
        "adt.fire.interior_not_adjacent": "cannot fire at {target}: of the interiors only the Locomotive's is adjacent to the Time Car",
        "adt.fire.roof_in_sight": "may fire at {target}: the roof and the Time Car are in Line of Sight",
        "adt.fire.no_line_of_sight": "cannot fire at {target}: {blocker} stands in the Line of Sight",
        "adt.fire.stagecoach_roof": "may fire at {target} between the Stagecoach's roof and the Time Car",
        "adt.fire.stagecoach_interior": "cannot fire at {target}: only the Stagecoach's roof can fire with the Time Car",
        "adt.fire.django_into_time_car": "fires at {target} on the Locomotive's roof: Django's shot pushes him into the Time Car",
        "adt.fire.django_out_of_reach": "cannot fire at {target} on the Locomotive's roof from {origin}",
        "adt.punch.not_together": "cannot punch {target}: they are not in the same place",
        "adt.punch.into_time_car": "punches {target} into the Time Car",
        "adt.punch.not_from_locomotive": "cannot punch {target} into the Time Car: only from the Locomotive's roof or interior",
        "adt.punch.out_to_interior": "punches {target} out into the Locomotive's interior",
        "adt.punch.never_to_roof": "cannot punch {target} from the Time Car onto the Locomotive's roof",
        "adt.punch.only_locomotive_interior": "cannot punch {target} to {to}: out of the Time Car only into the Locomotive's interior",
        "adt.rob.time_car_loot": "takes {loot} from the Time Car",
        "adt.rob.no_such_loot": "finds no {loot} in the Time Car",
        "adt.marshal.never": "can never enter the Time Car",
        "adt.place.time_car": "the Time Car is entered and left only by the rules' actions (Move, Ride, Punch, Django, Braking)",
        "adt.event.braking": "Braking pushes him from the Locomotive's roof into the Time Car",
        "adt.hide.missing": "is alone in the Time Car at the end of the round: he must choose where to hide",
        "adt.hide.not_alone": "cannot hide: no Bandit is alone in the Time Car",
        "adt.hide.last_round": "cannot hide on the last round",
        "adt.hide.no_stagecoach": "cannot hide under the Stagecoach: the game is played without Horses & Stagecoach",
        "adt.hide.where": "hides under {under}",
        "adt.hide.none": "nobody hides",
        "adt.hide.not_him": "cannot hide: the Bandit alone in the Time Car is {bandit}",
        "adt.hide.no_such_spot": "cannot hide under {under}: it is not on this train",
        "adt.reveal": "reappears in the interior of {under}",
        "post.hid": "End of round {round}: {bandit} was alone in the Time Car and vanished. He hides under the train: nobody knows where.",
        "post.reveal": "The Stealin' phase of round {round} begins: {bandit} reappears in {at}.",
        "post.end_bonus": "End of the game: {bandit} is alone in the Time Car and gets $500 and the loot inside ({loot}): ${value} in all.",
        "post.end_crowded": "End of the game: {bandits} are in the Time Car: nobody gets the $500 or the loot.",
        "post.end_empty": "End of the game: the Time Car is empty, nobody gets the $500.",
        "post.title_reveal": "Time Car: the reveal",
        "post.title_hid": "Time Car: a Bandit vanishes",
        "post.title_end": "Time Car: end of the game",
        "adt.table.not_now": "not now: the round's phase does not allow it",
        "adt.table.over": "the game is over",
        "nothing": "nothing",
    },
}

UNITS = {
    "it": {"time_car": "l'Automobile del Tempo", "locomotive": "la Locomotiva",
           "stagecoach": "la Diligenza", "car": "il Vagone {n}"},
    "en": {"time_car": "the Time Car", "locomotive": "the Locomotive",
           "stagecoach": "the Stagecoach", "car": "car {n}"},
}  # fmt: skip
FLOORS = {
    "it": {"roof": "il tetto di {unit}", "interior": "l'interno di {unit}"},
    "en": {"roof": "the roof of {unit}", "interior": "the interior of {unit}"},
}
LOOT = {
    "it": {"jewel": "un gioiello ($500)", "strongbox": "una cassaforte ($1000)",
           "purse": "una borsa (${v})"},
    "en": {"jewel": "a jewel ($500)", "strongbox": "a strongbox ($1000)", "purse": "a purse (${v})"},
}  # fmt: skip
PLACE_PARAMS = {"origin", "to", "at"}
UNIT_PARAMS = {"under"}
LOOT_PARAMS = {"loot"}
NAME_LIST_PARAMS = {"bandits"}


def unit_name(unit: str, lang: str = "it") -> str:
    names = UNITS.get(lang, UNITS["it"])
    if unit.startswith("car"):
        return names["car"].format(n=unit[3:])
    return names.get(unit, unit)


def place_name(place: str, lang: str = "it") -> str:
    """``car2:roof`` in words."""
    unit, _, floor = place.partition(":")
    if not floor:
        return unit_name(unit, lang)
    return _contract(FLOORS.get(lang, FLOORS["it"])[floor].format(unit=unit_name(unit, lang)))


_ARTICLED = re.compile(r"\b(di|da|in|a) (il |la |l')")
_STEMS = {"di": "de", "da": "da", "in": "ne", "a": "a"}
_ENDINGS = {"il ": "l ", "la ": "lla ", "l'": "ll'"}


def _contract(text: str) -> str:
    """Italian articled prepositions: "di il" -> "del", "da l'" -> "dall'", "in la" -> "nella"."""
    return _ARTICLED.sub(lambda m: _STEMS[m[1]] + _ENDINGS[m[2]], text)


def loot_name(token: str, lang: str = "it") -> str:
    names = LOOT.get(lang, LOOT["it"])
    kind, _, value = token.partition(":")
    return names.get(kind, token).format(v=value)


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
        return ", ".join(words) if words else TEXT[lang]["nothing"]
    if key in NAME_LIST_PARAMS:
        return ", ".join(value)
    return value


def render(message: str, params: dict[str, Any], lang: str = "it") -> str:
    """The sentence for ``message`` in ``lang`` (Italian when the language is unknown)."""
    table = TEXT.get(lang, TEXT["it"])
    text = table[message].format(**{k: _param(k, v, lang) for k, v in params.items()})
    return _contract(text) if lang == "it" else text
