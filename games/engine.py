"""The bridge between the database and the pure rules engine.

The engine's state is never stored: it is rebuilt from the stored inputs (the deal, the
seed, the options, the draws, and every committed phase's exact engine input and the GM's
corrections, inputs like the others) by replaying them, which is deterministic and takes
microseconds a phase.
Players are stored by seat, so a substitution (a new forum name) changes nothing.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from zoneinfo import ZoneInfo

from django.utils import timezone
from django.utils.translation import get_language

from games.models import Game, Phase, Player, Submission, Will
from roles import replay_cli, simulate_cli
from roles.engine.abilities import Ability, optional_rule
from roles.engine.announce import Post, announce, cause_label, post, post_texts
from roles.engine.announce import role_name as card_title
from roles.engine.channels import Channel
from roles.engine.errors import RuleViolation
from roles.engine.markup import escape
from roles.engine.mechanics import latest_distinct
from roles.engine.messages import CATALOGUE, Message, Role, Word, decode, describe_result, render
from roles.engine.model import (
    CORRECTION_KINDS,
    Action,
    Correction,
    GameState,
    PhaseOutcome,
    Vote,
    phase_label,
)
from roles.engine.model import Player as EnginePlayer
from roles.engine.options import OptionField
from roles.engine.registry import ruleset_for
from roles.engine.ruleset import Ruleset
from roles.engine.setups import (
    RoleCard,
    Setup,
    SetupError,
    available_setups,
    deal_roles,
    label,
    load_setup,
    setup_dir,
)
from roles.engine.votes import LATEST, ForumBallot, TrueVotes, forum_tally, true_votes
from roles.engine.wills import WORD_PATTERN, Cut, cut_will, word_count

# What the rest of the Werewolf desk uses of the rules engine: this module is the only
# one of games/ that imports roles (.importlinter says so), and passes these on.
__all__ = [
    "CATALOGUE",
    "CORRECTION_KINDS",
    "LATEST",
    "WORD_PATTERN",
    "Ability",
    "Action",
    "Channel",
    "Cut",
    "EnginePlayer",
    "ForumBallot",
    "GameState",
    "Message",
    "OptionField",
    "PhaseOutcome",
    "Post",
    "Role",
    "RoleCard",
    "RuleViolation",
    "Ruleset",
    "Setup",
    "SetupError",
    "TrueVotes",
    "Vote",
    "Word",
    "announce",
    "available_setups",
    "cause_label",
    "cut_will",
    "deal_roles",
    "decode",
    "describe_result",
    "dropped",
    "escape",
    "forum_tally",
    "handed_in",
    "label",
    "latest_distinct",
    "load_setup",
    "optional_rule",
    "phase_label",
    "post",
    "post_texts",
    "render",
    "replay_cli",
    "role_name",
    "ruleset_for",
    "setup_dir",
    "simulate_cli",
    "true_votes",
    "will_deadline_at",
    "word_count",
]


def role_name(key: str, setup_key: str, lang: str | None = None) -> str:
    """A role key as its card's title in ``lang``, the reader's language by default."""
    return card_title(key, setup_key, lang or (get_language() or "it")[:2])


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


def dropped(exc: RuleViolation) -> dict[str, Any]:
    """A refused submission as stored with the phase (rendered by :func:`say_dropped`)."""
    return {
        "phase": exc.phase, "player": exc.player, "role": exc.role, "rule": exc.rule,
        "said": exc.said.as_dict() if exc.said is not None else exc.message,
    }  # fmt: skip


def will_deadline_at(game: Game, rules: Ruleset, state: GameState, name: str) -> dt.datetime | None:
    """The instant by which the dead ``name`` must hand in his will (WWW-R17, WWW-R46,
    WWW-D23). A night death has until the ruleset's hour (noon) of the day after his death
    was announced (the night's commit, in the game's time zone), so a night resolved early
    or late never gives a deadline already past; a day death, the ruleset's hour (22:30) on
    the date of the day he died in."""
    deadline = rules.will_deadline(state, name)
    if deadline is None:
        return None
    label, at = deadline
    zone = ZoneInfo(game.time_zone)
    died = phase_label(state.death_phase[name])
    if died.startswith("N"):
        night = game.phases.filter(label=died).first()
        announced = night.committed_at if night is not None and night.committed_at else None
        day = (announced or timezone.now()).astimezone(zone).date() + dt.timedelta(days=1)
    else:
        phase = game.phases.filter(label=label).first()
        if phase is None:
            return None
        day = phase.closes_at.astimezone(zone).date()
    return dt.datetime.combine(day, dt.time.fromisoformat(at), tzinfo=zone)


def handed_in(game: Game, rules: Ruleset, state: GameState, will: Will, now: dt.datetime) -> bool:
    """Whether the Notaio holds ``will`` now (WWW-R41, WWW-D22): its author is dead and
    handed it in, or its deadline passed (the text as it stood then, frozen since)."""
    name = will.player.name
    if not will.text.strip() or not rules.can_write_will(state, name):
        return False
    if state.by_name[name].alive:
        return False
    if will.handed_in_at is not None:
        return True
    deadline = will_deadline_at(game, rules, state, name)
    return deadline is not None and now >= deadline


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
    name: dict[int | None, str | None] = {seat: p.name for seat, p in built.by_seat.items()}
    name[None] = None  # a withdrawal (a day may hold thousands of votes: no call per vote)
    votes = [
        Vote(name[v["voter"]], name[v.get("target")], v["at"], bool(v.get("secret")),
             bool(v.get("abstain")))
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


SUBMISSION_ROW = ("kind", "slot", "player_id", "target_id", "during", "fake_role", "vision",
                  "abstain")  # fmt: skip
# A row's fields by position (a row may carry more after them: its time, its phase).
KIND, SLOT, PLAYER, TARGET, DURING, FAKE_ROLE, VISION, ABSTAIN = range(len(SUBMISSION_ROW))
AT = len(SUBMISSION_ROW)  # in ``phase_rows``: the time


def phase_rows(phase: Phase) -> list[tuple]:
    """Every standing submission of ``phase`` in time order, read once for the GM's board
    and the preview: ``SUBMISSION_ROW`` and the time (a phase holds at most a few hundred
    vote events: ``games.services.vote_cap``)."""
    rows = Submission.objects.filter(phase=phase).order_by("at", "pk")
    return list(rows.values_list(*SUBMISSION_ROW, "at"))


def vote_verdict(
    built: Rebuilt, label: str, row: tuple, order: int, by_pk: dict[int, Player]
) -> tuple | dict:
    """The rules' verdict on the vote event ``row`` (``SUBMISSION_ROW`` first), the phase's
    ``order``-th, on ``built``'s state: the phase's opening, whatever the vote's time (the
    GM's preview plays on it afterwards). ``(voter seat, target seat, secret, abstain)``
    when it counts, else why not (``games.words.dropped``)."""
    voter, target = by_pk[row[PLAYER]], by_pk.get(row[TARGET])
    secret, abstain = row[KIND] == Submission.Kind.SECRET_VOTE.value, row[ABSTAIN]
    vote = Vote(voter.name, target.name if target else None, order, secret, abstain)
    try:
        built.rules.check_vote(built.state, label, vote)
    except RuleViolation as exc:
        return dropped(exc)
    return (voter.seat, target.seat if target else None, secret, abstain)


def gather_inputs(
    built: Rebuilt,
    phase: Phase,
    *,
    rows: list | None = None,
    wills: list[Will] | None = None,
) -> Inputs:
    """The latest action of each player's slot and every vote event, in time order, as the
    engine takes them; anything the rules refuse at this point is left out, with why.
    ``rows`` (``SUBMISSION_ROW`` first, in time order: ``phase_rows`` or a batch's) and
    ``wills`` (the game's, with their players): read already."""
    rules, state = built.rules, built.state
    inputs = Inputs()
    by_pk = {p.pk: p for p in built.players}
    if rows is None:
        rows = phase_rows(phase)
    action = Submission.Kind.ACTION.value
    latest: dict[tuple[int, str], Any] = {}
    votes = []
    for row in rows:
        if row[KIND] == action:
            latest.pop((row[PLAYER], row[SLOT]), None)
            latest[(row[PLAYER], row[SLOT])] = row  # re-inserted: keeps the time order
        else:
            votes.append(row)
    for row in latest.values():
        actor, target = by_pk[row[PLAYER]], by_pk.get(row[TARGET])
        entry = Action(actor.name, target.name if target else None, row[DURING] or None,
                       row[FAKE_ROLE] or None, row[VISION])  # fmt: skip
        try:
            rules.require_in_game(state.by_name[entry.actor], phase.label)
            rules.check_action(state, phase.label, entry)
        except RuleViolation as exc:
            inputs.dropped.append(dropped(exc))
            continue
        inputs.actions.append({
            "actor": actor.seat, "target": target.seat if target else None,
            "during": row[DURING], "fake_role": row[FAKE_ROLE], "vision": row[VISION],
        })  # fmt: skip
    # each distinct (voter, target, kind, abstain) is judged once, however often it was sent
    judged: dict[tuple, tuple | dict] = {}
    for order, row in enumerate(votes):
        key = (row[PLAYER], row[TARGET], row[KIND], row[ABSTAIN])
        verdict = judged.get(key)
        if verdict is None:
            verdict = judged[key] = vote_verdict(built, phase.label, row, order, by_pk)
        if isinstance(verdict, dict):
            inputs.dropped.append(verdict)
            continue
        voter, chosen, secret, abstain = verdict
        inputs.votes.append({"voter": voter, "target": chosen, "at": order, "secret": secret,
                             "abstain": abstain})  # fmt: skip
    now = timezone.now()  # the Notaio holds the wills handed in by now (WWW-D22)
    if wills is None:
        wills = list(Will.objects.filter(player__game=built.game).select_related("player"))
    for will in wills:
        if handed_in(built.game, rules, state, will, now):
            inputs.wills[str(will.player.seat)] = will.text
    return inputs


def stored_value(rules: Ruleset, kind: str, value: Any, by_name: Mapping[str, Player]) -> Any:
    """Names inside a result's value are stored as seats, so a substitution renames them
    (the setup declares which of its result kinds name players)."""
    declared = rules.result_kinds.get(kind)
    if declared is None or not declared.names:
        return value
    if isinstance(value, list):
        return {"seats": [by_name[v].seat for v in value]}
    if isinstance(value, str) and value in by_name:
        return {"seat": by_name[value].seat}
    return value  # the Maestrina told a role (www.teacher_learns_role)


@dataclass
class Opening:
    """What the submissions ask the engine about: its rules and the state to judge on."""

    rules: Ruleset
    state: GameState


def opening_state(game: Game) -> Opening:
    """The state after the game's committed phases, rebuilt from the stored inputs."""
    return Opening(rules_for(game), rebuild(game).state)


def built_before(game: Game, phase: Phase, players: list[Player] | None = None) -> Rebuilt:
    """The state ``phase`` resolves from, for its commit: a rebuild of the committed
    phases before it."""
    before = Phase.objects.filter(
        game=game, status=Phase.Status.COMMITTED, index__lt=phase.index
    ).order_by("index")
    return rebuild(game, list(before))
