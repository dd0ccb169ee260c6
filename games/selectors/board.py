"""The GM's phase board: who has acted, what was sent, the live vote count, the wills.

The board is worked out on each request from every standing row of the phase (read once,
as light rows, and shared with the preview); the input is bounded by the rules of the
house (games.services.vote_cap: a player changes his vote at most so many times a phase). The
submission list is shown a page at a time."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from itertools import compress
from operator import not_
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import Count, Max, Q, Subquery

from games.engine import (
    ABSTAIN,
    AT,
    KIND,
    PLAYER,
    SLOT,
    TARGET,
    ForumBallot,
    Rebuilt,
    TrueVotes,
    Vote,
    forum_tally,
    optional_rule,
    phase_rows,
    rebuild,
    true_votes,
)
from games.models import AuditEvent, Game, Phase, Player, Submission, Will

SUBMISSIONS_PER_PAGE = 50
STRUCK_SHOWN = 10  # struck ballots listed per target; older changes are counted


@dataclass(slots=True)
class Ballot:
    voter: Player
    at: dt.datetime
    struck: bool = False  # changed or withdrawn since


def _same(at: Any) -> Any:
    return at


@dataclass
class TallyLine:
    """A target's line of the engine's forum tally (``votes``: its ballots, voter names and
    times as read), with the site's players; a ballot is made for what is shown only."""

    target: Player
    votes: list[ForumBallot]
    players: dict[str, Player] = field(repr=False)
    time: Callable[[Any], dt.datetime] = field(default=_same, repr=False)
    _made: dict[int, Ballot] = field(default_factory=dict, repr=False)  # by place

    def ballot(self, i: int) -> Ballot:
        """The ``i``-th vote of the line as shown (made once)."""
        made = self._made.get(i)
        if made is None:
            vote = self.votes[i]
            made = self._made[i] = Ballot(self.players[vote.voter], self.time(vote.at),
                                          self.struck[i])  # fmt: skip
        return made

    @cached_property
    def ballots(self) -> list[Ballot]:
        """Every vote pointed at the target, in order, the changed or withdrawn ones struck."""
        return [self.ballot(i) for i in range(len(self.votes))]

    @cached_property
    def struck(self) -> list[bool]:
        """Whether each of ``votes`` is struck (read once: a flooded line has hundreds)."""
        return [v.struck for v in self.votes]

    @cached_property
    def count(self) -> int:
        return self.struck.count(False)

    @cached_property
    def _cut(self) -> int:
        """Where the latest ``STRUCK_SHOWN`` struck votes begin (0: every vote is listed)."""
        struck, seen = self.struck, 0
        for i in range(len(struck) - 1, -1, -1):
            if struck[i]:
                seen += 1
                if seen == STRUCK_SHOWN:
                    return i
        return 0

    @cached_property
    def _shown(self) -> list[int]:
        """The places of the votes the board lists."""
        cut, struck = self._cut, self.struck
        return [*compress(range(cut), map(not_, struck[:cut])), *range(cut, len(struck))]

    @cached_property
    def shown(self) -> list[Ballot]:
        """The ballots the board lists: every standing one and the latest struck ones."""
        return [self.ballot(i) for i in self._shown]

    @cached_property
    def hidden(self) -> int:
        """Older changed votes the board counts without listing them."""
        return len(self.votes) - len(self._shown)

    @cached_property
    def decisive(self) -> Ballot | None:
        """The vote that brought the target to its total: on a tie, the target whose
        decisive vote came first is executed (WWW-R10, INQ-R7)."""
        if not self.count:
            return None
        return self.ballot(len(self.votes) - 1 - self.struck[::-1].index(False))


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
    counts: dict[str, int] = field(default_factory=dict)  # submissions: total and by kind
    page: Page | None = None  # the submissions listed, newest first
    tally: list[TallyLine] = field(default_factory=list)
    not_voting: list[Player] = field(default_factory=list)
    wills: list[Will] = field(default_factory=list)
    living: list[Player] = field(default_factory=list)
    tie: Any = None  # the day's tie explanation (counts.TieNote), once the page computed it
    rows: list[tuple] = field(default_factory=list, repr=False)  # games.engine.phase_rows
    players: dict[int, Player] = field(default_factory=dict, repr=False)  # by id

    @cached_property
    def events(self) -> list[VoteEvent]:
        """The vote events (public and secret) in time order, as models' light stand-ins."""
        action, by_pk = Submission.Kind.ACTION.value, self.players
        return [VoteEvent(r[KIND], r[PLAYER], r[TARGET], r[AT], by_pk[r[PLAYER]],
                          by_pk.get(r[TARGET]), r[ABSTAIN])
                for r in self.rows if r[KIND] != action]  # fmt: skip

    @cached_property
    def votes(self) -> list[Vote]:
        """The vote events (public and secret) in time order as the engine counts them."""
        action, secret = Submission.Kind.ACTION.value, Submission.Kind.SECRET_VOTE.value
        name = {pk: p.name for pk, p in self.players.items()}
        return [Vote(name[r[PLAYER]], name.get(r[TARGET]), r[AT], r[KIND] == secret, r[ABSTAIN])
                for r in self.rows if r[KIND] != action]  # fmt: skip

    @cached_property
    def true_votes(self) -> TrueVotes:
        """The engine's true count of the day's vote events (public and secret)."""
        return true_votes(self.votes)

    @property
    def submissions(self) -> list[VoteEvent]:
        """The vote events (public and secret), as the counts and the posts read them."""
        return self.events


def submission_counts(phase: Phase) -> dict[str, Any]:
    """How many standing submissions ``phase`` holds, by kind, with every row ever sent
    (``history``: corrected and removed ones too) and the latest id; and what else the
    board's version reads: the game's latest audit event and will change (one query)."""
    standing = Q(submissions__superseded_at__isnull=True)
    by_kind = {f"kind_{kind}": Count("submissions", filter=standing & Q(submissions__kind=kind))
               for kind in Submission.Kind.values}  # fmt: skip
    # the game's by its id, not the phase row's column: each is read once, not once a row
    audited = AuditEvent.objects.filter(game=phase.game_id).order_by("-pk").values("pk")
    wills = (Will.objects.filter(player__game=phase.game_id).order_by("-updated_at")
             .values("updated_at"))  # fmt: skip
    values = (
        Phase.objects.filter(pk=phase.pk)
        .values("pk")
        .annotate(
            total=Count("submissions", filter=standing),
            history=Count("submissions"),
            last=Max("submissions__id"),
            **by_kind,
            audited=Subquery(audited[:1]),
            wills=Subquery(wills[:1]),
        )
        .get()
    )
    counts = {name: values[name] for name in ("total", "history", "last", "audited", "wills")}
    counts.update((kind, values[f"kind_{kind}"]) for kind in Submission.Kind.values)
    return counts


def board_version(phase: Phase, counts: dict[str, Any] | None = None) -> str:
    """A fingerprint of everything the board shows: the 20-second refresh sends the board
    again only when it changed (``counts``: the phase's ``submission_counts``, when read
    already; every other change, a will, a substitution, an override..., leaves an audit
    event)."""
    counts = submission_counts(phase) if counts is None else counts
    parts = (phase.pk, phase.status, phase.closes_at, phase.paused_at, len(phase.overrides),
             counts["total"], counts["last"], counts["audited"], counts["wills"])  # fmt: skip
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]


def submissions_page(phase: Phase, number: object, total: int) -> Page:
    """One page of the phase's submissions, newest first, corrected and removed ones
    included (the GM's history; the count is already known), with their players and
    the GM who entered them, read when the page is drawn."""
    rows = (Submission.every.filter(phase=phase).order_by("-at", "-pk")
            .select_related("player", "target", "entered_by"))  # fmt: skip
    paginator = Paginator(rows, SUBMISSIONS_PER_PAGE)
    paginator.count = total  # aggregated with the others: no second COUNT
    listed = paginator.get_page(number)
    listed.object_list = list(listed.object_list)
    _mark_replaced(phase, listed.object_list)
    return listed


def _mark_replaced(phase: Phase, subs: list[Submission]) -> None:
    """Issue 31 minor: a choice the same player replaced by a later one in the same slot
    (the latest action of a slot counts) is marked, as withdrawn and corrected rows are:
    ``sub.replaced``."""
    action = Submission.Kind.ACTION
    latest = dict(
        ((player, slot), pk)
        for player, slot, pk in Submission.objects.filter(phase=phase, kind=action)
        .order_by("at", "pk")
        .values_list("player_id", "slot", "pk")
    )
    for sub in subs:
        sub.replaced = (
            sub.kind == action
            and sub.superseded_at is None
            and latest.get((sub.player_id, sub.slot), sub.pk) != sub.pk
        )


def phase_board(
    game: Game,
    phase: Phase,
    built: Rebuilt | None = None,
    page: object = 1,
    *,
    rows: list[tuple] | None = None,
    counts: dict[str, int] | None = None,
    wills: list[Will] | None = None,
) -> Board:
    """The board of ``phase``, read from ``built`` (the state after the committed phases)
    and every standing row of the phase; ``page``: the page of the submission list;
    ``rows`` (``games.engine.phase_rows``), ``counts`` (``submission_counts``) and
    ``wills``: read already by the caller."""
    built = built or rebuild(game)
    counts = submission_counts(phase) if counts is None else counts
    rows = phase_rows(phase) if rows is None else rows
    board = Board(game, phase, rows=rows, players={p.pk: p for p in built.players})
    board.counts = counts
    if page is not None:  # (None: the caller lists its page itself)
        board.page = submissions_page(phase, page, board.counts["history"])
    action = Submission.Kind.ACTION.value
    acted = {row[PLAYER] for row in rows}
    group_slots = {row[SLOT] for row in rows if row[KIND] == action}
    _who_acts(board, built, acted, group_slots)
    if phase.label.startswith("D"):
        players = {p.name: p for p in built.players}
        board.tally, voted_pks = _tally(board.votes, players)
        board.not_voting = [p for p in board.living if p.pk not in voted_pks]
    if wills is None:
        wills = list(Will.objects.filter(player__game=game).select_related("player"))
    board.wills = wills
    return board


def _who_acts(board: Board, built: Rebuilt, acted: set[int], group_slots: set[str]) -> None:
    """The board's living players, who owes a vote or a choice, who may still act, who
    has acted (``acted``: the ids of who sent something; ``group_slots``: the slots of the
    actions sent)."""
    rules, state, phase = built.rules, built.state, board.phase
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
            if expected and all(optional_rule(a) for a in usable) and player.pk not in acted:
                board.may_act.append(player)  # a power he may keep is not owed (issue 12 §4)
                continue
        if expected:
            (board.done if player.pk in acted or covered else board.waiting).append(player)


def timed_tally(submissions: list[Submission | VoteEvent]) -> tuple[list[TallyLine], set[int]]:
    """The engine's forum-style tally (roles.engine.votes.forum_tally) of the public votes,
    with the site's players: each target with its voters and their times, changed or
    withdrawn votes struck; and the ids of who has a standing vote."""
    votes = [s for s in submissions if s.kind == Submission.Kind.VOTE]
    players = {p.name: p for s in votes for p in (s.player, s.target) if p is not None}
    return _tally(
        [Vote(s.player.name, s.target.name if s.target else None, s.at) for s in votes], players
    )


def _tally(
    votes: list[Vote], players: dict[str, Player], time: Callable[[Any], dt.datetime] = _same
) -> tuple[list[TallyLine], set[int]]:
    """The engine's forum tally of ``votes`` (it reads the public ones), with ``players``."""
    lines, standing = forum_tally(votes)
    tally = [TallyLine(players[target], ballots, players, time) for target, ballots in lines]
    return tally, {players[name].pk for name in standing}
