"""The referee: one function per logged event (turn, reveal, eliminated, returns). Each
checks the event against the rules (a refusal is a RibelleViolation naming the rule), applies
it to the TableState and returns what the GM must know: rulings, any Revolution (with its
four-step checklist), any Deputy penalty, and whether the game is over.

Base-game rules the referee assumes are numbered BANG-B1..B9 in docs/replay-ribelle.md."""

from __future__ import annotations

from typing import Any

from roles.ribelle.endings import is_revolution, law_wins, revolution, sheriff_falls
from roles.ribelle.events import Event, Outcome
from roles.ribelle.state import Seat, TableState
from roles.ribelle.table import DEPUTY, OUTLAW, REBEL, RETURN_DECK, RibelleViolation


def _refuse(
    state: TableState, where: str, seat: Seat | None, msg: str, text: str, rule: str, **params: Any
) -> RibelleViolation:
    player = seat.name if seat else ""
    return RibelleViolation(
        msg,
        {"player": player, **params},
        text,
        rule,
        phase=where,
        player=player,
        role=seat.role if seat else "",
    )


def _seat(state: TableState, name: str | None, where: str) -> Seat:
    seat = state.by_name.get(str(name))
    if seat is None:
        raise RibelleViolation(
            "rib.error.unknown_player",
            {"player": name},
            f"{name!r} is not at the table",
            "RIB-R2",
            phase=where,
        )
    return seat


def _in_play(state: TableState, seat: Seat, where: str) -> None:
    if not seat.in_play:
        raise _refuse(
            state, where, seat, "rib.error.out_of_play", "is out of play and cannot act", "BANG-B2"
        )


def apply(state: TableState, event: Event, where: str = "") -> Outcome:
    """Apply one logged event; ``where`` names it in a refusal ("event 3 (reveal)")."""
    if state.over:
        raise RibelleViolation(
            "rib.error.game_over", {}, "the game is over", state.end_rule or "RIB-R16", phase=where
        )
    handler = {"turn": _turn, "reveal": _reveal, "eliminated": _eliminated, "returns": _returns}
    return handler[event.kind](state, event, where)


def _turn(state: TableState, event: Event, where: str) -> Outcome:
    """BANG-B1: a turn runs phases 1, 2, 3; a new turn starts at phase 1 (or where the GM
    picks up the log). A ghost is in play for his own turn only: when another player's turn
    begins he is out again, whether or not his own turn was logged (BANG-B8, RIB-D15)."""
    seat = _seat(state, event.players[0], where)
    _in_play(state, seat, where)
    if event.phase not in (1, 2, 3):
        raise _refuse(
            state,
            where,
            seat,
            "rib.error.bad_phase",
            f"logs phase {event.phase}: a turn has phases 1, 2, 3",
            "BANG-B1",
            phase=event.phase,
        )
    out = Outcome()
    same_turn = state.turn == seat.name and event.phase > state.phase
    if state.turn == seat.name and not same_turn and event.phase != 1:
        raise _refuse(
            state,
            where,
            seat,
            "rib.error.phase_back",
            f"is already in phase {state.phase}: phases go 1, 2, 3",
            "BANG-B1",
            phase=event.phase,
        )
    if not same_turn:
        for ghost in state.seats:
            if ghost.ghost and ghost.in_play and ghost is not seat:
                ghost.in_play = ghost.ghost = False
                out.rule("rib.ghost_leaves", "BANG-B8", player=ghost.name)
    state.turn, state.phase = seat.name, event.phase
    return out


def _reveal(state: TableState, event: Event, where: str) -> Outcome:
    """RIB-R9: only the Rebel!, only at the end of phase 1 of his own turn; optional and
    permanent (RIB-D10). From then on the Sheriff's Deputy penalty is suspended (RIB-R10)."""
    seat = _seat(state, event.players[0], where)
    _in_play(state, seat, where)
    if seat.role != REBEL:
        raise _refuse(
            state,
            where,
            seat,
            "rib.error.not_rebel",
            "is not the Rebel!: only the Rebel! may reveal his role",
            "RIB-R9",
        )
    if seat.face_up:
        raise _refuse(
            state, where, seat, "rib.error.already_face_up", "is already face-up", "RIB-D10"
        )
    if state.turn != seat.name or state.phase != 1:
        raise _refuse(
            state,
            where,
            seat,
            "rib.error.reveal_time",
            "may reveal only at the end of phase 1 of his own turn",
            "RIB-R9",
            turn=state.turn,
            turn_phase=state.phase,
        )
    seat.face_up = True
    out = Outcome()
    out.rule("rib.reveal", "RIB-R9", player=seat.name)
    sheriff = state.sheriff
    out.rule("rib.penalty_suspended", "RIB-R10", sheriff=sheriff.name if sheriff else None)
    return out


def _returns(state: TableState, event: Event, where: str) -> Outcome:
    """RIB-R19..R22, RIB-D8: back through Ghost Town (for his own turn) or Dead Man (the
    first player eliminated, on his turn, with 2 life points and 2 cards), face-up; each card
    only with its event deck in play (BANG-B8, RIB-D15, RIB-D16)."""
    seat = _seat(state, event.players[0], where)
    if seat.in_play:
        raise _refuse(
            state,
            where,
            seat,
            "rib.error.in_play",
            "is in play: only an eliminated player comes back",
            "BANG-B8",
        )
    via = str(event.via)
    deck = RETURN_DECK[via]
    if state.options["rib.event_deck"] != deck:
        raise _refuse(
            state,
            where,
            seat,
            "rib.error.card_not_in_deck",
            f"cannot come back through {via}: it is a {deck} card and that deck is not in play",
            "BANG-B8",
            via=via,
            deck=deck,
        )
    if via == "dead_man" and seat.name != state.first_eliminated:
        raise _refuse(
            state,
            where,
            seat,
            "rib.error.not_first_eliminated",
            f"cannot come back through dead_man: only the first player eliminated does "
            f"({state.first_eliminated})",
            "BANG-B8",
            first=state.first_eliminated,
        )
    seat.in_play, seat.face_up = True, True
    seat.ghost = via == "ghost_town"
    out = Outcome()
    if seat.role == REBEL and seat.dethroned:
        out.rule("rib.returns_as_rebel", "RIB-R19", player=seat.name, via=event.via)
    if seat.role == REBEL:
        out.rule("rib.returns_face_up", "RIB-R20", player=seat.name, via=event.via)
        if seat.ghost:
            out.rule("rib.ghost_revolution_possible", "RIB-R22", player=seat.name)
    elif seat.role == DEPUTY and seat.out_at_revolution:
        seat.out_at_revolution = False
        out.rule("rib.deputy_back_after_revolution", "RIB-R21", player=seat.name, via=event.via)
    else:
        out.rule("rib.returns", "BANG-B8", player=seat.name, via=event.via, role=seat.role)
    return out


def _eliminated(state: TableState, event: Event, where: str) -> Outcome:
    """Every player one card eliminated, resolved completely before a Revolution (RIB-R17)."""
    victims = [_seat(state, name, where) for name in event.players]
    by = _seat(state, event.by, where) if event.by is not None else None
    during = _turn_of(state, event, where)
    for victim in victims:
        _in_play(state, victim, where)
        if victim.ghost:
            raise _refuse(
                state,
                where,
                victim,
                "rib.error.ghost",
                "is a ghost and cannot be eliminated",
                "BANG-B8",
            )
    if len({v.name for v in victims}) != len(victims):
        raise _refuse(
            state,
            where,
            victims[0],
            "rib.error.twice",
            "is eliminated twice by one card",
            "BANG-B2",
        )
    if by is not None:
        _in_play(state, by, where)
        if by.ghost and by is not during:
            raise _refuse(
                state,
                where,
                by,
                "rib.error.out_of_play",
                "is out of play and cannot act: a ghost plays only his own turn",
                "BANG-B8",
            )
    sheriff, rebel = state.sheriff, state.rebel
    suspended = state.rebel_face_up_in_play()
    out = Outcome(during=during.name)
    if state.first_eliminated is None:
        state.first_eliminated = victims[0].name  # the one Dead Man brings back (BANG-B8)
    deputies = []
    for victim in victims:
        victim.in_play, victim.face_up = False, True
        out.rule(
            "rib.eliminated",
            "BANG-B7",
            player=victim.name,
            role=victim.role,
            by=by.name if by else None,
            card=event.card,
        )
        if by is not None and by is not victim:
            if victim.role == OUTLAW:
                out.rule("rib.reward_outlaw", "BANG-B9", player=by.name)
            elif victim.role == REBEL:
                out.rule("rib.no_reward_rebel", "RIB-D6", player=by.name)
        if victim.role == DEPUTY and by is not None and by is sheriff:
            deputies.append(victim.name)
        elif victim.role == DEPUTY and by is not None and by is rebel and sheriff in victims:
            out.rule(
                "rib.no_penalty_not_yet_sheriff", "RIB-R17", player=by.name, deputy=victim.name
            )
    if deputies and sheriff is not None:
        out.penalty = _penalty(state, sheriff, deputies, suspended)
        out.rule(out.penalty["msg"], out.penalty["rule"], sheriff=sheriff.name, deputies=deputies)
    if sheriff is not None and sheriff in victims:
        if is_revolution(state, rebel, during, by):
            revolution(state, out, rebel, sheriff, event, during)
        else:
            sheriff_falls(state, out, sheriff, rebel, by, during, event)
            return out
    if not state.over and not state.outlaws_and_renegades_left():
        law_wins(state, out, event)
    return out


def _turn_of(state: TableState, event: Event, where: str) -> Seat:
    """RIB-D2: the turn decides; `during` must agree with the log (or start it)."""
    if event.during is not None:
        during = _seat(state, event.during, where)
        if state.turn is None:
            state.turn, state.phase = during.name, 2
        elif state.turn != during.name:
            raise _refuse(
                state,
                where,
                during,
                "rib.error.not_his_turn",
                f"the log says it is {state.turn}'s turn, not {during.name}'s",
                "RIB-D2",
                turn=state.turn,
            )
    if state.turn is None:
        raise RibelleViolation(
            "rib.error.no_turn", {}, "no turn has been logged yet", "BANG-B1", phase=where
        )
    during = state.by_name[state.turn]
    if not during.in_play:
        raise _refuse(
            state,
            where,
            during,
            "rib.error.turn_over",
            "is out of play: his turn is over",
            "BANG-B2",
        )
    return during


def _penalty(
    state: TableState, sheriff: Seat, deputies: list[str], suspended: bool
) -> dict[str, Any]:
    """RIB-R10, RIB-R12, RIB-D5: the Sheriff who eliminates a Deputy discards every card,
    unless a Rebel! in play is face-up."""
    if suspended:
        rule = "RIB-D5" if state.revolutions else "RIB-R10"
        msg = "rib.penalty.suspended"
    else:
        rule = "RIB-R12" if sheriff.sheriff_by_revolution else "RIB-R10"
        msg = "rib.penalty.discard"
    return {
        "sheriff": sheriff.name,
        "deputies": deputies,
        "discards": not suspended,
        "rule": rule,
        "msg": msg,
    }
