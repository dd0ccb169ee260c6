"""The bridge between the database and the pure rules engine.

The engine's state is never stored: it is rebuilt from the stored inputs (the deal, the
seed, the options, the draws, and every committed phase's exact engine input and the GM's
corrections, inputs like the others) by replaying them, which is deterministic and takes
microseconds a phase.
Players are stored by seat, so a substitution (a new forum name) changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone

from games.models import Game, Phase, Player, Submission, Will
from games.wills import handed_in
from games.words import dropped
from roles.engine.errors import RuleViolation
from roles.engine.model import Action, Correction, GameState, PhaseOutcome, Vote
from roles.engine.registry import ruleset_for
from roles.engine.ruleset import Ruleset


def rules_for(game: Game) -> Ruleset:
    return ruleset_for(game.setup)


def start_state(game: Game, players: list | None = None) -> tuple[GameState, PhaseOutcome]:
    """The engine's state at the deal, with the start-of-game outcome (knowledge, draws)."""
    seated = players if players is not None else list(game.players.all())
    dealt = {p.name: p.role for p in sorted(seated, key=lambda p: p.seat)}
    names = {p.seat: p.name for p in seated}
    draws = {  # draws are stored by seat, so a substitution renames them
        key: names[value["seat"]] if isinstance(value, dict) else value
        for key, value in game.draws.items()
    }
    return rules_for(game).new_game(dealt, seed=game.seed, options=game.options, draws=draws)


@dataclass
class Rebuilt:
    game: Game
    rules: Ruleset
    state: GameState
    players: list[Player]
    by_seat: dict[int, Player] = field(default_factory=dict)

    def name(self, seat: int | None) -> str | None:
        return self.by_seat[seat].name if seat is not None else None


def rebuild(game: Game, phases: list[Phase] | None = None) -> Rebuilt:
    """The engine's state after every committed phase (or after ``phases``)."""
    players = list(game.players.all())
    state, _ = start_state(game, players)
    built = Rebuilt(game, rules_for(game), state, players, {p.seat: p for p in players})
    if phases is None:
        phases = list(game.phases.filter(status=Phase.Status.COMMITTED).order_by("index"))
    for phase in phases:
        replay(built, phase.label, phase.inputs, phase.overrides)
    return built


def replay(built: Rebuilt, label: str, inputs: dict, overrides: list) -> PhaseOutcome:
    """Resolve one phase from stored inputs (seats), with the GM's corrections (stored as
    ``{"kind", "seat", "step", "reason"}``) as inputs of the resolution."""
    actions = [
        Action(built.name(a["actor"]), built.name(a.get("target")), a.get("during") or None,
               a.get("fake_role") or None, bool(a.get("vision")))
        for a in inputs.get("actions", [])
    ]  # fmt: skip
    votes = [
        Vote(built.name(v["voter"]), built.name(v.get("target")), v["at"],
             bool(v.get("secret")), bool(v.get("abstain")))
        for v in inputs.get("votes", [])
    ]  # fmt: skip
    wills = {built.name(int(seat)): text for seat, text in inputs.get("wills", {}).items()}
    corrections = [
        Correction(o["kind"], built.name(o["seat"]), o.get("step") or None, o.get("reason", ""))
        for o in overrides
    ]
    return built.rules.play(built.state, label, actions=actions, votes=votes, wills=wills,
                            corrections=corrections)  # fmt: skip


@dataclass
class Inputs:
    """A phase's engine input, gathered from the submissions, with what was left out."""

    actions: list[dict[str, Any]] = field(default_factory=list)
    votes: list[dict[str, Any]] = field(default_factory=list)
    wills: dict[str, str] = field(default_factory=dict)
    dropped: list[dict] = field(default_factory=list)  # why a submission does not count

    def as_json(self) -> dict[str, Any]:
        return {"actions": self.actions, "votes": self.votes, "wills": self.wills}


SUBMISSION_ROW = ("kind", "slot", "player__seat", "target__seat", "during", "fake_role",
                  "vision", "abstain")  # fmt: skip


def gather_inputs(
    built: Rebuilt, phase: Phase, *, rows: list | None = None, wills: list[Will] | None = None
) -> Inputs:
    """The latest action of each player's slot and every vote event, in time order, as the
    engine takes them; anything the rules refuse at this point is left out, with why.
    ``rows`` (``SUBMISSION_ROW`` in time order) and ``wills`` (the game's, with their
    players): read already, for a batch of closes."""
    rules, state = built.rules, built.state
    inputs = Inputs()
    names = {p.seat: p.name for p in built.players}
    # Light rows, not models: a phase may hold thousands of vote changes.
    submissions = rows if rows is not None else list(
        Submission.objects.filter(phase=phase).order_by("at", "pk")
        .values_list(*SUBMISSION_ROW, named=True)
    )  # fmt: skip
    latest: dict[tuple[int, str], Any] = {}
    for sub in submissions:
        if sub.kind == Submission.Kind.ACTION:
            latest.pop((sub.player__seat, sub.slot), None)
            latest[(sub.player__seat, sub.slot)] = sub  # re-inserted: keeps the time order
    for sub in latest.values():
        action = Action(names[sub.player__seat], names.get(sub.target__seat),
                        sub.during or None, sub.fake_role or None, sub.vision)  # fmt: skip
        try:
            rules.require_in_game(state.by_name[action.actor], phase.label)
            rules.check_action(state, phase.label, action)
        except RuleViolation as exc:
            inputs.dropped.append(dropped(exc))
            continue
        inputs.actions.append({
            "actor": sub.player__seat, "target": sub.target__seat,
            "during": sub.during, "fake_role": sub.fake_role, "vision": sub.vision,
        })  # fmt: skip
    # A vote is judged on the state at the phase's opening, whatever its time: each
    # distinct (voter, target, secret, abstain) once, however many times it was sent.
    judged: dict[tuple, dict[str, Any] | None] = {}
    for order, sub in enumerate(s for s in submissions if s.kind != Submission.Kind.ACTION):
        vote = Vote(names[sub.player__seat], names.get(sub.target__seat), order,
                    sub.kind == Submission.Kind.SECRET_VOTE, sub.abstain)  # fmt: skip
        key = (vote.voter, vote.target, vote.secret, vote.abstain)
        if key not in judged:
            try:
                rules.check_vote(state, phase.label, vote)
                judged[key] = None
            except RuleViolation as exc:
                judged[key] = dropped(exc)
        if judged[key] is not None:
            inputs.dropped.append(judged[key])
            continue
        inputs.votes.append({
            "voter": sub.player__seat, "target": sub.target__seat,
            "at": order, "secret": vote.secret, "abstain": sub.abstain,
        })  # fmt: skip
    now = timezone.now()  # the Notaio holds the wills handed in by now (WWW-D22)
    if wills is None:
        wills = list(Will.objects.filter(player__game=built.game).select_related("player"))
    for will in wills:
        if handed_in(built.game, rules, state, will, now):
            inputs.wills[str(will.player.seat)] = will.text
    return inputs
