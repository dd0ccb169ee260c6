"""The GM's phase page's submission-derived results: kept since the phase's last change
(games/page_memo.py), extended by the votes appended since (games/board_running.py), or
worked out from every row; and the post the page shows, made once for them."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone
from django.utils.translation import get_language

from games.board import phase_board
from games.board_running import Running, appended
from games.counts import explain_tie
from games.engine import Rebuilt, phase_rows
from games.models import Game, Phase, Will
from games.page_memo import Worked, claim, keep, recall
from games.phases import forum_posts, preview_of
from games.wills import handed_in
from roles.engine.ruleset import Ruleset
from roles.engine.votes import true_votes


def worked_out(
    game: Game,
    phase: Phase,
    built: Rebuilt,
    counts: dict,
    version: str,
    wills: list[Will],
    following: dt.datetime,
) -> Worked:
    """The board and the preview of ``phase`` as kept since its last change
    (games/page_memo.py), or extended by the votes appended since (games/board_running.py),
    or worked out now from its submissions, read once for both."""
    now = timezone.now()  # the wills the Notaio holds now: the preview reads them
    held = frozenset(w.pk for w in wills if handed_in(game, built.rules, built.state, w, now))
    base = (
        phase.pk,
        phase.status,
        phase.closes_at,
        phase.paused_at,
        counts["wills"],
        phase.snapshot_epoch,
        repr(phase.overrides),
        held,
        following,
        game.language,
        game.time_zone,
        get_language(),
        tuple((p.pk, p.seat, p.name) for p in built.players),
    )
    key = (version, base)
    worked = recall(phase.pk, key)
    if worked is not None:
        return worked
    running = claim(phase.pk, base)
    new = appended(phase, running, counts) if running is not None else None
    if new is None:  # a full pass over every row
        running = Running(built, phase.label, counts)
        running.add(phase_rows(phase), built)
    else:
        running.add(new, built)  # type: ignore[union-attr]
    assert running is not None
    board = phase_board(game, phase, built, None, counts=counts, running=running, wills=wills)
    # the preview plays on the snapshot
    preview = preview_of(built, phase, running.inputs(built, phase, wills))
    worked = Worked(board, preview, base=base)
    worked.running = running if running.extendable(counts) else None
    keep(phase.pk, key, worked)
    return worked


def posts_of(
    worked: Worked, game: Game, phase: Phase, rules: Ruleset, following: dt.datetime
) -> None:
    """The tie's explanation and the post the page shows (BBCode; the posts page has every
    format), made once for the kept results."""
    if worked.posts is not None:
        return
    board, preview = worked.board, worked.preview
    if phase.label.startswith("D") and preview.outcome.execution is not None:
        rule = rules.vote_rules.get("tie", "")  # read once: the post and the GM's note
        # the engine's true_votes of every vote event
        tally = worked.running.day.true_votes() if worked.running else true_votes(board.votes)
        board.tie = explain_tie(game, preview.outcome, tally, rule, time=board.time)
    deadline = None if preview.over else following
    # the post's tally and tie note are given: it reads no submission
    worked.posts = forum_posts(game, phase, preview.state, preview.outcome, [], deadline,
                               formats=("bbcode",), tally=board.tally, tie=board.tie)  # fmt: skip
