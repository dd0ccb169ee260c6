"""How a Sheriff's elimination resolves: the Revolution (RIB-R11..R15, R17, R19, R21, R22)
or the traditional end (RIB-R16, R18, D2, D3, D4, D13); the Law's win (RIB-R4, R8, R17, D12)."""

from __future__ import annotations

from roles.ribelle.events import Event, Outcome
from roles.ribelle.state import Seat, TableState
from roles.ribelle.table import AREA_CARDS, DEPUTY, OUTLAW, REBEL, RENEGADE, SHERIFF


def is_revolution(state: TableState, rebel: Seat | None, during: Seat, by: Seat | None) -> bool:
    """RIB-R3, RIB-D2, RIB-D13: the Sheriff falls during the turn of a Rebel! still in play."""
    if rebel is None or not rebel.in_play or during is not rebel:
        return False
    return by is rebel or not state.options["rib.revolution_requires_rebel_source"]


def revolution(
    state: TableState, out: Outcome, rebel: Seat, sheriff: Seat, event: Event, during: Seat
) -> None:
    """RIB-R11..R15 (and R17, R19, R21, R22): the Rebel! becomes the Sheriff, in four steps."""
    was_ghost = rebel.ghost
    sheriff.role, sheriff.sheriff_by_revolution, sheriff.dethroned = REBEL, False, True  # RIB-D8
    rebel.role, rebel.sheriff_by_revolution, rebel.dethroned = SHERIFF, True, False
    rebel.face_up, rebel.ghost = True, False
    state.revolutions += 1
    state.turn, state.phase = rebel.name, 1
    lost = [s.name for s in state.seats if s.role == DEPUTY and not s.in_play]
    for name in lost:
        state.by_name[name].out_at_revolution = True
    deck = state.options["rib.event_deck"]
    steps = [
        {"step": 1, "msg": "rib.revolution.step1", "rule": "RIB-R12", "applies": True},
        {
            "step": 2,
            "msg": "rib.revolution.step2",
            "rule": "RIB-R13",
            "applies": deck != "none",
            "deck": deck,
        },
        {
            "step": 3,
            "msg": "rib.revolution.step3",
            "rule": "RIB-R14",
            "applies": True,
            "skips_pre_phase_checks": state.options["rib.new_turn_skips_pre_phase_checks"],
            "turns_event_card": False,  # RIB-D11: the card of step 2 is the new turn's
        },
        {"step": 4, "msg": "rib.revolution.step4", "rule": "RIB-R15", "applies": True},
    ]
    out.revolution = {
        "rebel": rebel.name,
        "sheriff": sheriff.name,
        "card": event.card,
        "after_card": event.card in AREA_CARDS,
        "ghost": was_ghost,
        "deputies_lost": lost,
        "rule": "RIB-R11",
        "steps": steps,
    }
    out.rule("rib.revolution", "RIB-R11", rebel=rebel.name, sheriff=sheriff.name)
    if event.card in AREA_CARDS:
        out.rule("rib.revolution_after_card", "RIB-R17", card=event.card)
    if was_ghost:
        out.rule("rib.ghost_returns_for_good", "RIB-R22", player=rebel.name)
    out.rule("rib.dethroned", "RIB-R19", player=sheriff.name)
    if lost:
        out.rule("rib.deputies_lost", "RIB-R21", players=lost)


def sheriff_falls(
    state: TableState,
    out: Outcome,
    sheriff: Seat,
    rebel: Seat | None,
    by: Seat | None,
    during: Seat,
    event: Event,
) -> None:
    """RIB-R16 (R18, D3, D4, D13): no Revolution, the game ends by the traditional rules."""
    living = state.living()
    if len(living) == 1 and living[0].role == RENEGADE:
        _end(state, "rinnegato", [living[0].name], "BANG-B5")
    else:
        _end(state, "fuorilegge", [s.name for s in state.seats if s.role == OUTLAW], "RIB-R16")
    if rebel is not None and during is rebel and not rebel.in_play:
        reason = "RIB-D13"
    elif rebel is not None and by is rebel and event.card == "duello":
        reason = "RIB-R18"
    elif by is not None and by.role == RENEGADE and rebel is not None and rebel.in_play:
        reason = "RIB-D4"
    elif rebel is not None and during is rebel:
        reason = "RIB-D2"  # the option asks for the Rebel! himself to eliminate the Sheriff
    else:
        reason = "RIB-R16"
    out.rule(
        "rib.game_over.sheriff",
        reason,
        sheriff=sheriff.name,
        side=state.side,
        winners=state.winners,
    )
    if rebel is not None:
        out.rule("rib.rebel_loses", "RIB-D3", player=rebel.name)


def law_wins(state: TableState, out: Outcome, event: Event) -> None:
    """RIB-R8 (no Revolution yet), RIB-R4 / R17 (after one), RIB-D12 (every Renegade)."""
    rule = "RIB-R4" if state.revolutions else "RIB-R8"
    if out.revolution is not None:
        rule = "RIB-R17"
    _end(state, "legge", state.law_winners(), rule)
    out.rule("rib.game_over.law", rule, winners=state.winners)
    rebel = state.rebel
    if rebel is not None and rebel.dethroned and not rebel.in_play:
        out.rule("rib.dethroned_loses", "RIB-D8", player=rebel.name)
    elif rebel is not None:
        out.rule("rib.rebel_defeated", "RIB-R8", player=rebel.name)


def _end(state: TableState, side: str, winners: list[str], rule: str) -> None:
    state.over, state.side, state.end_rule = True, side, rule
    state.winners = [s.name for s in state.seats if s.name in set(winners)]
