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

from django.db import connection
from django.db.models.expressions import RawSQL
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
AT = len(SUBMISSION_ROW)  # in ``phase_rows``: the time, in seconds since the epoch
_UNJUDGED = object()


def phase_rows(phase: Phase) -> list[tuple]:
    """Every standing submission of ``phase`` in time order, read once for the GM's board
    and the preview: ``SUBMISSION_ROW`` and the time in seconds since the epoch. Plain
    tuples: a phase may hold thousands of vote changes, read without a model or a parsed
    timestamp each (PostgreSQL sends the number)."""
    rows = Submission.objects.filter(phase=phase).order_by("at", "pk")
    if connection.vendor != "postgresql":
        return [(*row[:AT], row[AT].timestamp()) for row in rows.values_list(*SUBMISSION_ROW, "at")]
    epoch = RawSQL(f"EXTRACT(EPOCH FROM {Submission._meta.db_table}.at)::float8", ())
    return list(rows.annotate(epoch=epoch).values_list(*SUBMISSION_ROW, "epoch"))


def gather_inputs(
    built: Rebuilt, phase: Phase, *, rows: list | None = None, wills: list[Will] | None = None
) -> Inputs:
    """The latest action of each player's slot and every vote event, in time order, as the
    engine takes them; anything the rules refuse at this point is left out, with why.
    ``rows`` (``SUBMISSION_ROW`` first, in time order: ``phase_rows`` or a batch's) and
    ``wills`` (the game's, with their players): read already."""
    rules, state = built.rules, built.state
    inputs = Inputs()
    by_pk = {p.pk: p for p in built.players}
    if rows is None:
        rows = (
            Submission.objects.filter(phase=phase).order_by("at", "pk").values_list(*SUBMISSION_ROW)
        )
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
    # A vote is judged on the state at the phase's opening, whatever its time: each
    # distinct (voter, target, kind, abstain) once, however many times it was sent.
    secret_kind = Submission.Kind.SECRET_VOTE.value
    judged: dict[tuple, Any] = {}
    cast, refused = inputs.votes.append, inputs.dropped.append
    for order, row in enumerate(votes):
        key = (row[PLAYER], row[TARGET], row[KIND], row[ABSTAIN])
        verdict = judged.get(key, _UNJUDGED)
        if verdict is _UNJUDGED:
            voter, target = by_pk[row[PLAYER]], by_pk.get(row[TARGET])
            secret = row[KIND] == secret_kind
            vote = Vote(voter.name, target.name if target else None, order, secret,
                        row[ABSTAIN])  # fmt: skip
            try:
                rules.check_vote(state, phase.label, vote)
                verdict = (voter.seat, target.seat if target else None, secret)
            except RuleViolation as exc:
                verdict = dropped(exc)
            judged[key] = verdict
        if type(verdict) is dict:
            refused(verdict)
            continue
        voter_seat, target_seat, secret = verdict
        cast({"voter": voter_seat, "target": target_seat, "at": order, "secret": secret,
              "abstain": row[ABSTAIN]})  # fmt: skip
    now = timezone.now()  # the Notaio holds the wills handed in by now (WWW-D22)
    if wills is None:
        wills = list(Will.objects.filter(player__game=built.game).select_related("player"))
    for will in wills:
        if handed_in(built.game, rules, state, will, now):
            inputs.wills[str(will.player.seat)] = will.text
    return inputs


@dataclass(slots=True)
class _Ballot:
    """One voter's public or secret ballot, as ``deciding_votes`` follows it."""

    events: int = 0
    target: int | None = None
    start: int | None = None  # the event that pointed it at its target (None: withdrawn)
    before: int | None = None  # the event before that one
    withdrawn: int | None = None  # the last withdrawal
    back: int | None = None  # the event after the last withdrawal
    last: int | None = None


def deciding_votes(votes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The vote events (``Inputs.votes``, in casting order) that decide what the engine
    makes of them all, in the same order: it resolves the phase from these exactly as from
    the whole list, however many times each voter changed his vote (the GM's preview of a
    flooded day). Kept, for each voter's public and secret ballot: his first two events (a
    change refused where changes are off: WWW-D4, INQ-D5); the event that pointed his
    standing ballot at its target and the one before it (it reads that the target
    changed), or, withdrawn, his last event; his last withdrawal and the event after it
    (the engine's books list a ballot from there: the order of its totals); and the first
    event of each distinct vote (a vote the rules refuse whatever its time, as INQ-D7's
    secret withdrawal). Each event keeps its ``at`` (its place in the whole list), so the
    times compare as before.

    Every other event repeats a kept one before the ballot's last change, or the standing
    target after it: the standing ballots (roles.engine.votes ``current_ballots``), their
    times, their order and every count are the same without them."""
    keep: set[int] = set()
    seen: set[tuple] = set()
    books: dict[tuple, _Ballot] = {}
    for i, vote in enumerate(votes):
        voter, target, secret, abstain = (
            vote["voter"],
            vote["target"],
            vote["secret"],
            vote["abstain"],
        )
        if (voter, target, secret, abstain) not in seen:
            seen.add((voter, target, secret, abstain))
            keep.add(i)
        book = books.get((voter, secret))
        if book is None:
            book = books[voter, secret] = _Ballot()
        if book.events < 2:
            keep.add(i)
        book.events += 1
        if target is None and not abstain:  # withdrawn
            book.start, book.withdrawn, book.back = None, i, None
        else:
            if book.withdrawn is not None and book.back is None:
                book.back = i
            if book.start is None or book.target != target:  # pointed at another target
                book.target, book.start, book.before = target, i, book.last
        book.last = i
    for book in books.values():
        decisive = (book.start, book.before) if book.start is not None else (book.last,)
        keep.update(i for i in (*decisive, book.withdrawn, book.back) if i is not None)
    return [votes[i] for i in sorted(keep)]
