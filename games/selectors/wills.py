"""Wills on the site (WWW-R41..R48, WWW-D22, WWW-D23): when one may be written and when
it is frozen, what the Notaio's recipients read, what the GM and the spoiler hold.

A will is a draft while its author lives. Once he is dead he may correct it until he hands
it in or its deadline passes; from then on it is frozen, and it is what the Notaio holds
(WWW-D22: a will counts if handed in before the Notaio's phase resolves). Nothing is
editable after the end of the game. Delivered texts are read from the delivering phase's
stored engine input, so a recipient reads exactly what the engine delivered.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games.engine import (
    WORD_PATTERN,
    Cut,
    GameState,
    Ruleset,
    cut_will,
    will_deadline_at,
)
from games.models import Game, Phase, Player, Result, Will
from games.text.words import moment

# Shown by the server and, filled in the same way, by the page's live counter.
CUT_NOTE = gettext_noop(
    "Il taglio cade dopo la %(limit)sª parola, «%(word)s»: %(dropped)s parole oltre il limite "
    "non saranno riportate."
)


def cut_note(cut: Cut) -> str:
    """Where the cut falls, as the counter and the readers show it (WWW-R45)."""
    return _(CUT_NOTE) % {"limit": cut.words - cut.dropped, "word": cut.last_word,
                          "dropped": cut.dropped}  # fmt: skip


@dataclass
class WillDesk:
    """What the player's page shows about his will, and whether he may change it."""

    limit: int  # words delivered (WWW-R45)
    rules: dict[str, str]
    refused: str = ""  # why this player writes no will (loners, WWW-R44)
    alive: bool = True
    text: str = ""
    cut: Cut = field(default_factory=lambda: cut_will("", 0))
    deadline: dt.datetime | None = None
    handed_in_at: dt.datetime | None = None
    frozen: str = ""  # why the will can no longer change ("" while it can)
    pattern: str = WORD_PATTERN
    cut_template: str = ""

    @property
    def editable(self) -> bool:
        return not self.refused and not self.frozen

    @property
    def note(self) -> str:
        return cut_note(self.cut) if self.cut.is_cut else ""


def will_desk(
    game: Game,
    rules: Ruleset,
    state: GameState,
    player: Player,
    will: Will | None,
    now: dt.datetime | None = None,
) -> WillDesk | None:
    """The will as its author sees it; None where the setup has no wills (Inquisizione:
    no form that goes nowhere)."""
    limit = rules.will_word_limit(state)
    if limit is None:
        return None
    now = now or timezone.now()
    ruled = rules.will_rules
    desk = WillDesk(limit, ruled, cut_template=_(CUT_NOTE))
    me = state.by_name[player.name]
    desk.alive = me.alive
    if not rules.can_write_will(state, player.name):
        desk.refused = _(
            "I personaggi Solitari non scrivono testamento: da morti hanno già vinto o perso "
            "[%(rule)s]."
        ) % {"rule": ruled.get("refused", "")}
        return desk
    desk.text = will.text if will is not None else ""
    desk.cut = cut_will(desk.text, limit)
    desk.handed_in_at = will.handed_in_at if will is not None else None
    if me.dead:
        desk.deadline = will_deadline_at(game, rules, state, player.name)
    desk.frozen = _frozen(game, desk, ruled.get("deadline", ""), now)
    return desk


def _frozen(game: Game, desk: WillDesk, rule: str, now: dt.datetime) -> str:
    if game.status == Game.Status.FINISHED:
        return _("La partita è finita: il testamento non si può più modificare.")
    if desk.handed_in_at is not None and not desk.alive:
        return _(
            "Hai consegnato il testamento il %(when)s: non si può più modificare [%(rule)s]."
        ) % {"when": moment(desk.handed_in_at), "rule": rule}
    if desk.deadline is not None and now >= desk.deadline:
        return _(
            "Il termine per il testamento è scaduto il %(when)s: resta com'era in quel momento "
            "[%(rule)s]."
        ) % {"when": moment(desk.deadline), "rule": rule}
    return ""


@dataclass
class DeliveredWill:
    author: str
    cut: Cut

    @property
    def note(self) -> str:
        return cut_note(self.cut) if self.cut.is_cut else ""


@dataclass
class Delivery:
    """The wills one recipient was handed in one night (WWW-R42)."""

    phase: str
    limit: int
    wills: list[DeliveredWill]


def deliveries(
    game: Game, rules: Ruleset, limit: int, seats: dict[int, str], results: list[Result]
) -> list[Delivery]:
    """Each will delivery among ``results`` (the setup's ``will_delivery_kind``) with the
    texts delivered, read from the delivering phase's stored engine input (exactly what
    the engine delivered), cut after the ``limit``-th word (WWW-R45)."""
    wanted = [r for r in results if r.kind == rules.will_delivery_kind]
    if not wanted:
        return []
    labels = {r.phase for r in wanted}
    inputs = {p.label: p.inputs for p in Phase.objects.filter(game=game, label__in=labels)}
    found = []
    for result in wanted:
        texts = inputs.get(result.phase, {}).get("wills", {})
        authors = (result.value or {}).get("seats", [])
        found.append(Delivery(result.phase, limit, [
            DeliveredWill(seats[seat], cut_will(texts.get(str(seat), ""), limit))
            for seat in authors
        ]))  # fmt: skip
    return found


@dataclass
class GmWill:
    """A will as the GM reads it, at any time: whole, with where the cut falls."""

    author: Player
    text: str
    cut: Cut
    status: str
    handed_in_at: dt.datetime | None = None
    dropped_text: str = ""  # the words after the cut, shown to the GM only
    delivered_to: list[tuple[str, str]] = field(default_factory=list)  # (phase, recipient)

    @property
    def note(self) -> str:
        return cut_note(self.cut) if self.cut.is_cut else ""


def wills_for_gm(game: Game, rules: Ruleset, state: GameState) -> list[GmWill]:
    """Every will of the game, with its state and to whom it was delivered."""
    limit = rules.will_word_limit(state)
    if limit is None:
        return []
    players = {p.pk: p for p in game.players.all()}
    seats = {p.seat: p.name for p in players.values()}
    delivered: dict[str, list[tuple[str, str]]] = {}
    results = Result.objects.filter(game=game, kind=rules.will_delivery_kind).select_related("to")
    for result in results:
        for seat in (result.value or {}).get("seats", []):
            delivered.setdefault(seats[seat], []).append((result.phase, result.to.name))
    now = timezone.now()
    found = []
    for will in Will.objects.filter(player__game=game).select_related("player"):
        author = will.player
        cut = cut_will(will.text, limit)
        found.append(GmWill(
            author, will.text, cut, _status(game, rules, state, will, now), will.handed_in_at,
            will.text.strip()[len(cut.kept):].strip() if cut.is_cut else "",
            delivered.get(author.name, []),
        ))  # fmt: skip
    return sorted(found, key=lambda w: w.author.seat)


def _status(game: Game, rules: Ruleset, state: GameState, will: Will, now: dt.datetime) -> str:
    if state.by_name[will.player.name].alive:
        return _("bozza (l'autore è vivo)")
    if will.handed_in_at is not None:
        return _("consegnato il %(when)s") % {"when": moment(will.handed_in_at)}
    deadline = will_deadline_at(game, rules, state, will.player.name)
    if deadline is not None and now >= deadline:
        return _("chiuso alla scadenza, il %(when)s") % {"when": moment(deadline)}
    if deadline is not None:
        return _("da consegnare entro il %(when)s") % {"when": moment(deadline)}
    return _("non consegnato")


def spoiler_wills(game: Game, rules: Ruleset, state: GameState) -> list[dict[str, Any]]:
    """The wills for the spoiler (page and JSON)."""
    return [
        {"author": w.author.name, "text": w.text, "words": w.cut.words,
         "delivered_text": w.cut.kept, "cut": w.cut.is_cut, "dropped": w.cut.dropped,
         "handed_in_at": w.handed_in_at.isoformat() if w.handed_in_at else None,
         "status": w.status,
         "delivered_to": [{"phase": p, "to": to} for p, to in w.delivered_to]}
        for w in wills_for_gm(game, rules, state)
    ]  # fmt: skip
