"""Issue 12 §2: the count at this moment, ready to paste; the execution post explains a
tie in one line (WWW-R10, INQ-R7) without ever showing a secret vote or a weight
(INQ-D7); the GM's explanation names the tie, the decisive votes, the Boia's vote."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse

from games.engine import rebuild
from games.selectors.board import phase_board
from games.selectors.counts import count_now, tie_note
from games.services.phases import current_phase, phase_commit, phase_preview
from games.services.submissions import vote_cast
from tests.factories import day_one, make_game

pytestmark = pytest.mark.django_db
ROME = ZoneInfo("Europe/Rome")


def at(h: int, m: int, s: int = 0) -> dt.datetime:
    today = dt.datetime.now(ROME) - dt.timedelta(hours=1)
    return today.replace(hour=h, minute=m, second=s, microsecond=0) - dt.timedelta(days=1)


@pytest.fixture
def day(gm_user):
    """Day 1, opened two days ago: the votes dated yesterday fall within it."""
    return day_one(gm_user, opened_ago=dt.timedelta(days=2))[1]


def player(phase, name):
    return phase.game.players.get(name=name)


def test_count_now_has_times_struck_changes_who_is_not_voting_and_time_left(day):
    vote_cast(phase=day, player=player(day, "Sam"), target=player(day, "Gino"), at=at(17, 2, 11))
    vote_cast(phase=day, player=player(day, "Mia"), target=player(day, "Gino"), at=at(17, 5))
    vote_cast(phase=day, player=player(day, "Mia"), target=player(day, "Sam"), at=at(18, 0))
    now = day.closes_at - dt.timedelta(hours=2, minutes=13, seconds=20)
    texts = count_now(day.game, phase_board(day.game, day), now)
    bbcode = texts["bbcode"]
    assert bbcode.startswith("[b]Conteggio voti di Giorno 1 (")  # issue 31 minor
    assert "Gino (1): Sam (17:02:11), [s]Mia (17:05)[/s]" in bbcode
    assert "Sam (1): Mia (18:00)" in bbcode
    assert "Non votano: Mar, Pao, Nora," in bbcode
    assert "Mancano 2 ore e 13 minuti alla chiusura delle votazioni." in bbcode
    assert "~~Mia (17:05)~~" in texts["markdown"]


def test_count_now_button_gives_the_partial(client, gm_user, day):
    client.force_login(gm_user)
    html = client.get(reverse("games:count_now", args=[day.game.pk]),
                      headers={"HX-Request": "true"}).content.decode()  # fmt: skip
    assert "<html" not in html
    assert "Nessun voto per ora." in html


def test_the_execution_post_explains_a_tie_in_one_line(day):
    """WWW-R10: Gino and Sam have two votes each; Gino's second vote came first."""
    vote_cast(phase=day, player=player(day, "Pao"), target=player(day, "Gino"), at=at(17, 0))
    vote_cast(phase=day, player=player(day, "Mia"), target=player(day, "Sam"), at=at(17, 1))
    vote_cast(phase=day, player=player(day, "Nora"), target=player(day, "Gino"), at=at(17, 2, 11))
    vote_cast(phase=day, player=player(day, "Vito"), target=player(day, "Sam"), at=at(17, 3, 5))
    preview = phase_preview(day)
    assert preview.outcome.execution.executed == "Gino"
    from games.services.commit import forum_posts

    board = phase_board(day.game, day)
    posts = forum_posts(day.game, day, preview.state, preview.outcome, board.submissions, None)
    assert (
        "Parità a 2 voti tra Gino, Sam: è giustiziato Gino, che li ha raggiunti per primo con "
        "il voto di Nora alle 17:02:11 (Sam 17:03:05)." in posts["bbcode"]
    )
    gm = tie_note(day.game, preview.outcome, board.submissions, "WWW-R10").gm
    assert gm[0] == "Parità a 2 tra Gino, Sam (totali veri)."
    assert "Voto decisivo su Sam: Vito, 17:03:05." in gm


def test_the_boias_secret_triple_vote_stays_out_of_the_public_post(gm_user):
    """INQ-R45..R47, INQ-D7: the public post has no tie line built on a secret vote; the
    GM's explanation names the secret vote and its weight."""
    game = make_game(gm_user, setup="inquisizione", seed=9)
    phase_commit(phase=current_phase(game), user=gm_user)
    day = current_phase(game)
    day.opened_at -= dt.timedelta(days=2)
    day.save(update_fields=["opened_at"])
    boia = game.players.get(role="boia")
    wolf = game.players.filter(role="lupo_mannaro").first()
    farmers = list(game.players.filter(role="contadino"))
    for i, farmer in enumerate(farmers[:3]):
        vote_cast(phase=day, player=farmer, target=farmers[5], at=at(16, i))
    vote_cast(phase=day, player=boia, target=farmers[5], at=at(17, 0))
    vote_cast(phase=day, player=boia, target=wolf, secret=True, at=at(17, 30))
    preview = phase_preview(day)
    assert preview.outcome.execution.totals == {farmers[5].name: 3, wolf.name: 3}
    board = phase_board(game, day)
    from games.services.commit import forum_posts

    posts = forum_posts(game, day, preview.state, preview.outcome, board.submissions, None)
    assert "Parità" not in posts["bbcode"]
    assert f"\n{wolf.name} (" not in posts["bbcode"]  # the secret vote is not in the tally
    gm = tie_note(game, preview.outcome, board.submissions, "INQ-R7").gm
    assert f"Voto segreto di {boia.name}: {wolf.name} (il suo voto pubblico non conta)." in gm
    assert f"Su {wolf.name} il voto di {boia.name} vale 3." in gm
    assert gm[0].startswith("Parità a 3 tra ")
    assert rebuild(game).state.by_name[boia.name].alive


def test_the_phase_page_explains_the_tie_to_the_gm(client, gm_user, day):
    """WWW-R10 on the GM's page: the tie, each candidate's decisive vote, the rule."""
    vote_cast(phase=day, player=player(day, "Pao"), target=player(day, "Gino"), at=at(17, 0))
    vote_cast(phase=day, player=player(day, "Mia"), target=player(day, "Sam"), at=at(17, 1, 9))
    client.force_login(gm_user)
    html = client.get(reverse("games:phase", args=[day.game.pk])).content.decode()
    explained = html.split("Il voto, spiegato")[1].split("</ul>")[0]
    assert "Parità a 1 tra Gino, Sam (totali veri)." in explained
    assert "Voto decisivo su Sam: Mia, 17:01:09." in explained
    assert "Giustiziato Gino: il suo voto decisivo è arrivato per primo [WWW-R10]." in explained
    assert "Parità a 1 voto tra Gino, Sam: è giustiziato Gino, che lo ha ricevuto" in html


@pytest.mark.parametrize(
    ("setup", "seed"),
    [("wild-west-wolf", 1), ("wild-west-wolf", 2), ("inquisizione", 3), ("inquisizione", 4)],
)
def test_the_sites_counts_are_the_engines_on_random_votes(gm_user, setup, seed):
    """One tally (issue 11): on a random day of changes and withdrawals (the Boia's secret
    votes too), the board's count (its lines and who is not voting), the tie note's true
    votes and the preview's totals are the engine's, read once from the rows or from the
    submissions alike."""
    import random

    from games.models import Submission
    from games.selectors.counts import engine_votes
    from roles.engine.votes import count_votes, forum_tally, true_votes

    game = make_game(gm_user, setup=setup, seed=seed)
    phase_commit(phase=current_phase(game), user=gm_user)
    day = current_phase(game)
    players = [p for p in game.players.all() if rebuild(game).state.by_name[p.name].alive]
    boia = game.players.filter(role="boia").first()
    rng = random.Random(seed)
    start = dt.datetime.now(dt.UTC) - dt.timedelta(hours=3)
    rows = []
    for i in range(300):
        voter = rng.choice(players)
        secret = voter == boia and rng.random() < 0.4
        target = None if rng.random() < 0.1 else rng.choice([p for p in players if p != voter])
        kind = Submission.Kind.SECRET_VOTE if secret else Submission.Kind.VOTE
        when = start + dt.timedelta(seconds=rng.choice([i, i, i - 1]))
        rows.append(Submission(phase=day, player=voter, kind=kind, target=target, at=when))
    Submission.objects.bulk_create(rows)  # times out of order and shared too
    submissions = list(day.submissions.select_related("player", "target"))
    votes = engine_votes(submissions)
    lines, standing = forum_tally(votes)
    board = phase_board(game, day)
    counted = {line.target.name: line.count for line in board.tally}
    assert counted == {t: sum(not b.struck for b in ballots) for t, ballots in lines}
    assert [line.target.name for line in board.tally] == [t for t, _ in lines]
    assert {p.name for p in board.not_voting} == {p.name for p in players} - standing
    assert [(b.voter.name, b.at, b.struck) for line in board.tally for b in line.ballots] == [
        (b.voter, b.at, b.struck) for _, ballots in lines for b in ballots
    ]
    tally = true_votes(votes)
    assert true_votes(board.votes).true.keys() == tally.true.keys()
    assert {t: n for t, n in counted.items() if n} == tally.face()
    execution = phase_preview(day).outcome.execution
    assert execution.totals.keys() == tally.true.keys()
    if boia is None or boia.name not in tally.secret:  # a secret vote may weigh 3 (INQ-R47)
        assert execution.totals == {c: len(v) for c, v in tally.true.items()}
        assert execution.totals == count_votes(votes).totals
