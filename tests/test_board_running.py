"""Issue 9, the GM's phase page after each vote of a flood: the board, the preview and the
post kept for the page are extended by the votes appended since (games/board_running.py),
and show exactly what a full recomputation shows, whatever came in between: new votes, a
GM's entry with an earlier time, a removal, a correction, an override and its removal."""

from __future__ import annotations

import datetime as dt
import random
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from games import page_memo, phase_worked
from games.board_running import Running
from games.corrections import override_remove, submission_correct, submission_remove
from games.engine import gather_inputs, phase_rows
from games.models import Submission
from games.phases import current_phase, override_add, phase_commit
from games.snapshot import built_from_snapshot
from games.submitting import vote_cast
from roles.engine.model import Vote
from roles.engine.votes import forum_tally, true_votes
from tests.factories import make_game

pytestmark = pytest.mark.django_db
TOKENS = re.compile(r'(csrfmiddlewaretoken" value=|X-CSRFToken": |nonce=)"[^"]*"')


@pytest.fixture
def reads(monkeypatch):
    """How many times the page read every row of the phase."""
    calls = []

    def counted(phase):
        calls.append(phase.pk)
        return phase_rows(phase)

    monkeypatch.setattr(phase_worked, "phase_rows", counted)
    return calls


def page(client, game, **extra):
    html = client.get(reverse("games:phase", args=[game.pk]), **extra).content.decode()
    return TOKENS.sub(r"\1", html)


def same_as_full(client, game):
    """The page as kept (extended, or worked out again) equals the page worked out from
    every row, for the board's refresh as for the whole page."""
    kept = page(client, game)
    refresh = page(client, game, HTTP_HX_REQUEST="true", QUERY_STRING="part=board")
    assert 'id="board"' in refresh
    assert "<html" not in refresh
    page_memo.forget()
    assert page(client, game) == kept
    page_memo.forget()
    assert page(client, game, HTTP_HX_REQUEST="true", QUERY_STRING="part=board") == refresh
    return kept


def cast(day, rng, players, count):
    for _ in range(count):
        voter = rng.choice(players)
        target = rng.choice([p for p in players if p != voter] + [None])
        vote_cast(phase=day, player=voter, target=target)


def test_the_page_after_new_votes_reads_only_them_and_equals_a_full_count(
    client, day, gm_user, reads
):
    game, rng = day.game, random.Random(3)
    players = list(game.players.order_by("seat"))
    cast(day, rng, players, 40)
    page(client, game)
    assert len(reads) == 1
    for _ in range(4):  # each vote extends what was kept
        cast(day, rng, players, 1)
        page(client, game)
    assert len(reads) == 1
    cast(day, rng, players, 5)
    html = same_as_full(client, game)
    assert "Conteggio voti" in html
    assert len(reads) == 3  # the two forced full recomputations only

    # a GM's entry with an earlier time: a full recomputation
    earlier = timezone.now() - dt.timedelta(minutes=30)
    vote_cast(phase=day, player=players[0], target=players[5], at=earlier, entered_by=gm_user,
              reason="dal topic")  # fmt: skip
    page(client, game)
    assert len(reads) == 4
    same_as_full(client, game)
    cast(day, rng, players, 3)
    page(client, game)
    assert len(reads) == 6
    same_as_full(client, game)

    # the GM removes a vote, then corrects one: each a full recomputation
    standing = Submission.objects.filter(phase=day).order_by("at", "pk")
    submission_remove(submission=standing[3], user=gm_user, reason="doppio")
    page(client, game)
    assert len(reads) == 9
    same_as_full(client, game)
    cast(day, rng, players, 2)
    same_as_full(client, game)
    submission_correct(submission=standing.last(), user=gm_user, reason="sbagliato",
                       target=players[7])  # fmt: skip
    same_as_full(client, game)
    cast(day, rng, players, 2)
    same_as_full(client, game)

    # a correction of the outcome, and its removal
    override_add(phase=day, user=gm_user, kind="spare", player=players[7], reason="grazia")
    same_as_full(client, game)
    cast(day, rng, players, 2)
    same_as_full(client, game)
    day.refresh_from_db()
    override_remove(phase=day, user=gm_user, index=0, seat=players[7].seat, kind="spare",
                    reason="errore")  # fmt: skip
    same_as_full(client, game)
    cast(day, rng, players, 3)
    before = len(reads)
    page(client, game)
    assert len(reads) == before  # appended votes again: extended
    same_as_full(client, game)


def test_concurrent_votes_stored_out_of_time_order_after_the_rows_followed_extend_them(
    client, day, gm_user, reads
):
    """Two workers' votes may take their ids in one order and their times in the other:
    both after every row followed, the page reads them in time order and extends."""
    game = day.game
    players = list(game.players.order_by("seat"))
    now = timezone.now()
    vote_cast(phase=day, player=players[1], target=players[2], at=now - dt.timedelta(seconds=9),
              entered_by=gm_user, reason="dal topic")  # fmt: skip
    page(client, game)
    for seconds, voter in ((2, 3), (5, 4)):  # the later id, the earlier time
        vote_cast(phase=day, player=players[voter], target=players[2], entered_by=gm_user,
                  at=now - dt.timedelta(seconds=seconds), reason="dal topic")  # fmt: skip
    page(client, game)
    assert len(reads) == 1
    same_as_full(client, game)
    earlier = now - dt.timedelta(seconds=7)  # before a vote followed
    vote_cast(phase=day, player=players[5], target=players[1], entered_by=gm_user, at=earlier,
              reason="dal topic")  # fmt: skip
    page(client, game)
    assert len(reads) == 4  # read again (after the two of same_as_full)
    same_as_full(client, game)


@pytest.mark.parametrize("setup", ["wild-west-wolf", "inquisizione"])
def test_rows_followed_in_steps_give_the_engines_results(gm_user, setup):
    """``Running`` over every row, or over the same rows in steps, gives the engine's forum
    tally and true votes and the preview's inputs of a full gathering."""
    game = make_game(gm_user, setup=setup)
    phase_commit(phase=current_phase(game), user=gm_user)
    day = current_phase(game)
    players = list(game.players.order_by("seat"))
    rng, start = random.Random(5), timezone.now() - dt.timedelta(hours=1)
    boia = next((p for p in players if p.role == "boia"), None)
    Submission.objects.bulk_create(
        Submission(phase=day, player=voter, at=start + dt.timedelta(seconds=i // 3),
                   kind=(Submission.Kind.SECRET_VOTE if voter == boia and rng.random() < 0.3
                         else Submission.Kind.VOTE),
                   target=target, abstain=target is None and rng.random() < 0.2)
        for i, (voter, target) in enumerate(
            (v, rng.choice([*players, None, None])) for v in rng.choices(players, k=600))
    )  # fmt: skip
    built = built_from_snapshot(game, day)
    rows = phase_rows(day)
    assert any(r[0] == "secret" for r in rows) == (setup == "inquisizione")
    whole = Running(built, day.label, {})
    whole.add(rows, built)
    steps = Running(built, day.label, {})
    for cut in range(0, len(rows), 97):
        steps.add(rows[cut : cut + 97], built)
    name = {p.pk: p.name for p in players}
    votes = [Vote(name[r[2]], name.get(r[3]), r[8], r[0] == "secret", r[7]) for r in rows]
    lines, standing = forum_tally(votes)
    expected = true_votes(votes)
    gathered = gather_inputs(built, day, rows=rows, wills=[], deciding=True)
    for running in (whole, steps):
        tally, voted = running.day.lines(), running.day.voted()
        assert voted == standing
        engine = [(t, [(b.voter, b.at) for b in ballots], [b.struck for b in ballots])
                  for t, ballots in lines]  # fmt: skip
        assert [(t, [(b.voter, b.at) for b in ballots], struck)
                for t, ballots, struck in tally] == engine  # fmt: skip
        got = running.day.true_votes()
        assert (got.public, got.secret, got.true) == (expected.public, expected.secret,
                                                      expected.true)  # fmt: skip
        inputs = running.inputs(built, day, [])
        assert inputs.as_json() == gathered.as_json()
        assert inputs.dropped == gathered.dropped
    assert gathered.dropped
    assert gathered.votes
    assert lines
