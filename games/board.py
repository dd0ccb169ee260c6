"""The GM's phase board: who has acted, what was sent, the live vote count, the wills.

However many submissions a phase holds (a flood of vote changes), the board reads them
aggregated in SQL and as light rows, and lists them a page at a time."""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass, field
from functools import cached_property

from django.core.paginator import Page, Paginator
from django.db import connection
from django.db.models import Count, Max, Q
from django.db.models.expressions import RawSQL

from games.engine import Rebuilt, rebuild
from games.models import AuditEvent, Game, Phase, Player, Submission, Will
from roles.engine.abilities import Ability
from roles.engine.model import Vote
from roles.engine.votes import forum_tally

SUBMISSIONS_PER_PAGE = 50
STRUCK_SHOWN = 10  # struck ballots listed per target; older changes are counted


@dataclass
class Ballot:
    voter: Player
    at: object
    struck: bool = False  # changed or withdrawn since


@dataclass
class TallyLine:
    target: Player
    ballots: list[Ballot]

    @property
    def count(self) -> int:
        return sum(1 for b in self.ballots if not b.struck)

    @cached_property
    def shown(self) -> list[Ballot]:
        """The ballots the board lists: every standing one and the latest struck ones."""
        struck = [b for b in self.ballots if b.struck]
        older = {id(b) for b in struck[:-STRUCK_SHOWN]}
        return [b for b in self.ballots if id(b) not in older]

    @cached_property
    def hidden(self) -> int:
        """Older changed votes the board counts without listing them."""
        return len(self.ballots) - len(self.shown)

    @property
    def decisive(self) -> Ballot | None:
        """The vote that brought the target to its total: on a tie, the target whose
        decisive vote came first is executed (WWW-R10, INQ-R7)."""
        standing = [b for b in self.ballots if not b.struck]
        return standing[-1] if standing else None


@dataclass(slots=True)
class VoteEvent:
    """A public vote event as the tally reads it (a light row, not a model)."""

    kind: str
    player_id: int
    target_id: int | None
    at: dt.datetime
    player: Player
    target: Player | None
    abstain: bool = False


@dataclass
class Board:
    game: Game
    phase: Phase
    waiting: list[Player] = field(default_factory=list)  # still owe a vote or a choice
    may_act: list[Player] = field(default_factory=list)  # only optional powers left unused
    done: list[Player] = field(default_factory=list)
    events: list[VoteEvent] = field(default_factory=list)  # vote events, in time order
    counts: dict[str, int] = field(default_factory=dict)  # submissions: total and by kind
    page: Page | None = None  # the submissions listed, newest first
    tally: list[TallyLine] = field(default_factory=list)
    not_voting: list[Player] = field(default_factory=list)
    wills: list[Will] = field(default_factory=list)
    living: list[Player] = field(default_factory=list)

    @property
    def submissions(self) -> list[VoteEvent]:
        """The vote events (public and secret), as the counts and the posts read them."""
        return self.events


def submission_counts(phase: Phase) -> dict[str, int]:
    """How many standing submissions ``phase`` holds, by kind, with every row ever sent
    (``history``: corrected and removed ones too) and the latest id (one query)."""
    standing = Q(superseded_at__isnull=True)
    kinds = {kind: Count("pk", filter=standing & Q(kind=kind)) for kind in Submission.Kind.values}
    return Submission.every.filter(phase=phase).aggregate(
        total=Count("pk", filter=standing), history=Count("pk"), last=Max("pk"), **kinds
    )


def board_version(phase: Phase) -> str:
    """A fingerprint of everything the board shows: the 20-second refresh sends the board
    again only when it changed (three small queries)."""
    counts = submission_counts(phase)
    # every other change (a will, a substitution, an override...) leaves an audit event
    audited = AuditEvent.objects.filter(game_id=phase.game_id).aggregate(last=Max("pk"))
    wills = Will.objects.filter(player__game_id=phase.game_id).aggregate(last=Max("updated_at"))
    parts = (phase.pk, phase.status, phase.closes_at, phase.paused_at, len(phase.overrides),
             counts["total"], counts["last"], audited["last"], wills["last"])  # fmt: skip
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]


def vote_rows(phase: Phase) -> list[tuple[str, int, int | None, dt.datetime, bool]]:
    """(kind, voter id, target id, time, abstain) of the phase's vote events, public and
    secret, in time order. On PostgreSQL the time comes as seconds since the epoch:
    thousands of rows are read without parsing a timestamp each."""
    votes = (Submission.objects.filter(phase=phase).exclude(kind=Submission.Kind.ACTION)
             .order_by("at", "pk"))  # fmt: skip
    if connection.vendor != "postgresql":
        return list(votes.values_list("kind", "player_id", "target_id", "at", "abstain"))
    epoch = RawSQL(f"EXTRACT(EPOCH FROM {Submission._meta.db_table}.at)::float8", ())
    rows = votes.annotate(epoch=epoch).values_list(
        "kind", "player_id", "target_id", "epoch", "abstain"
    )
    return [(kind, voter, target, dt.datetime.fromtimestamp(at, dt.UTC), abstain)
            for kind, voter, target, at, abstain in rows]  # fmt: skip


def submissions_page(phase: Phase, number: object, total: int) -> Page:
    """One page of the phase's submissions, newest first, corrected and removed ones
    included (the GM's history; the count is already known)."""
    rows = (Submission.every.filter(phase=phase)
            .select_related("player", "target", "entered_by").order_by("-at", "-pk"))  # fmt: skip
    paginator = Paginator(rows, SUBMISSIONS_PER_PAGE)
    paginator.count = total  # aggregated with the others: no second COUNT
    return paginator.get_page(number)


def phase_board(game: Game, phase: Phase, built: Rebuilt | None = None, page: object = 1) -> Board:
    """The board of ``phase``, read from ``built`` (the state after the committed phases);
    ``page``: the page of the submission list."""
    built = built or rebuild(game)
    rules, state = built.rules, built.state
    board = Board(game, phase)
    by_pk = {p.pk: p for p in built.players}
    board.counts = submission_counts(phase)
    board.page = submissions_page(phase, page, board.counts["history"])
    senders = list(Submission.objects.filter(phase=phase).order_by()
                   .values_list("player_id", "kind", "slot").distinct())  # fmt: skip
    acted = {player for player, _, _ in senders}
    group_slots = {slot for _, kind, slot in senders if kind == Submission.Kind.ACTION}
    board.events = [VoteEvent(kind, voter, target, at, by_pk[voter], by_pk.get(target), abstain)
                    for kind, voter, target, at, abstain in vote_rows(phase)]  # fmt: skip
    by_name = {p.name: p for p in built.players}
    board.living = [by_name[p.name] for p in state.players if p.alive]
    for player in board.living:
        engine_player = state.by_name[player.name]
        if phase.label.startswith("D"):
            expected, covered = True, False
        else:
            usable = [a for a in rules.abilities_of(engine_player)
                      if rules.can_use(state, phase.label, engine_player, a)]  # fmt: skip
            expected = bool(usable)
            # A group's choice (the pack's kill, the Guards') covers all its members.
            covered = any(a.shared and a.key in group_slots for a in usable)
            if expected and all(is_optional(a) for a in usable) and player.pk not in acted:
                board.may_act.append(player)  # a power he may keep is not owed (issue 12 §4)
                continue
        if expected:
            (board.done if player.pk in acted or covered else board.waiting).append(player)
    if phase.label.startswith("D"):
        board.tally, voted = timed_tally(board.events)
        board.not_voting = [p for p in board.living if p.pk not in voted]
    board.wills = list(Will.objects.filter(player__game=game).select_related("player"))
    return board


def is_optional(ability: Ability) -> bool:
    """A power the player may leave unused: once per game (WWW-R57, WWW-R61, WWW-R74: "may
    try", kept for later) or with an optional target (INQ-R50)."""
    return bool(ability.once_rule) or ability.optional_target


def timed_tally(submissions: list[Submission | VoteEvent]) -> tuple[list[TallyLine], set[int]]:
    """The engine's forum-style tally (roles.engine.votes.forum_tally) of the public votes,
    with the site's players: each target with its voters and their times, changed or
    withdrawn votes struck; and the ids of who has a standing vote."""
    votes = [s for s in submissions if s.kind == Submission.Kind.VOTE]
    players = {p.name: p for s in votes for p in (s.player, s.target) if p is not None}
    lines, standing = forum_tally(
        Vote(s.player.name, s.target.name if s.target else None, s.at) for s in votes
    )
    tally = [
        TallyLine(players[target], [Ballot(players[b.voter], b.at, b.struck) for b in ballots])
        for target, ballots in lines
    ]
    return tally, {players[name].pk for name in standing}
