"""The GM's phase board: who has acted, what was sent, the live vote count, the wills."""

from __future__ import annotations

from dataclasses import dataclass, field

from games.engine import Rebuilt, rebuild
from games.models import Game, Phase, Player, Submission, Will


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
    """The public votes at face value, in forum style: each target with its voters and
    their times, changed or withdrawn votes struck; and the ids of who has a standing
    vote. The Boia's secret vote never shows here (INQ-D7)."""
    lines: dict[int, TallyLine] = {}
    standing: dict[int, tuple[int, Ballot]] = {}  # voter -> (target, ballot)
    for sub in submissions:
        if sub.kind != Submission.Kind.VOTE:
            continue
        previous = standing.get(sub.player_id)
        if previous is not None and previous[0] == sub.target_id:
            continue  # the same target again: the old time stands (WWW-D4, INQ-D5)
        if previous is not None:
            previous[1].struck = True
            del standing[sub.player_id]
        if sub.target is not None:
            ballot = Ballot(sub.player, sub.at)
            lines.setdefault(sub.target_id, TallyLine(sub.target, [])).ballots.append(ballot)
            standing[sub.player_id] = (sub.target_id, ballot)
    return sorted(lines.values(), key=lambda line: -line.count), set(standing)
