"""The GM's phase board: who has acted, what was sent, the live vote count, the wills."""

from __future__ import annotations

from dataclasses import dataclass, field

from games.engine import Rebuilt, rebuild
from games.models import Game, Phase, Player, Submission, Will
from roles.engine.model import Vote
from roles.engine.votes import forum_tally


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

    @property
    def decisive(self) -> Ballot | None:
        """The vote that brought the target to its total: on a tie, the target whose
        decisive vote came first is executed (WWW-R10, INQ-R7)."""
        standing = [b for b in self.ballots if not b.struck]
        return standing[-1] if standing else None


@dataclass
class Board:
    game: Game
    phase: Phase
    waiting: list[Player] = field(default_factory=list)  # may still act or vote
    done: list[Player] = field(default_factory=list)
    submissions: list[Submission] = field(default_factory=list)
    tally: list[TallyLine] = field(default_factory=list)
    not_voting: list[Player] = field(default_factory=list)
    wills: list[Will] = field(default_factory=list)
    living: list[Player] = field(default_factory=list)


def phase_board(game: Game, phase: Phase, built: Rebuilt | None = None) -> Board:
    """The board of ``phase``, read from ``built`` (the state after the committed phases)."""
    built = built or rebuild(game)
    rules, state = built.rules, built.state
    board = Board(game, phase)
    board.submissions = list(
        Submission.objects.filter(phase=phase).select_related("player", "target", "entered_by")
    )
    by_name = {p.name: p for p in built.players}
    board.living = [by_name[p.name] for p in state.players if p.alive]
    acted = {s.player_id for s in board.submissions}
    group_slots = {s.slot for s in board.submissions if s.kind == Submission.Kind.ACTION}
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
        if expected:
            (board.done if player.pk in acted or covered else board.waiting).append(player)
    if phase.label.startswith("D"):
        board.tally, voted = timed_tally(board.submissions)
        board.not_voting = [p for p in board.living if p.pk not in voted]
    board.wills = list(Will.objects.filter(player__game=game).select_related("player"))
    return board


def timed_tally(submissions: list[Submission]) -> tuple[list[TallyLine], set[int]]:
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
