"""Running a game through the site's services: submissions checked by the engine,
preview, commit exactly once, undo, GM overrides, deadlines."""

from __future__ import annotations

import datetime as dt
import random
import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.utils import translation

from games.models import Game, Phase, Result, Submission
from games.services.game import next_deadline
from games.services.phases import (
    current_phase,
    override_add,
    phase_commit,
    phase_preview,
    phase_undo,
)
from games.services.submissions import action_submit, vote_cast, will_save
from tests.factories import first_day, make_game

pytestmark = pytest.mark.django_db
UTC = dt.UTC


def by_role(game, role):
    return game.players.get(role=role)


def test_the_deal_opens_night_zero_until_the_powers_deadline(gm_user):
    game = make_game(gm_user)
    phase = current_phase(game)
    assert phase.label == "N0"
    assert phase.status == Phase.Status.OPEN
    local = phase.closes_at.astimezone(dt.timezone(dt.timedelta(hours=1)))
    assert (local.hour, local.minute) in {(22, 30), (23, 30)}  # CET or CEST


@pytest.mark.parametrize(
    ("after", "expected"),
    [
        (dt.datetime(2026, 3, 29, 10, 0, tzinfo=UTC), dt.datetime(2026, 3, 29, 20, 30, tzinfo=UTC)),
        (dt.datetime(2026, 3, 28, 10, 0, tzinfo=UTC), dt.datetime(2026, 3, 28, 21, 30, tzinfo=UTC)),
        (
            dt.datetime(2026, 10, 25, 10, 0, tzinfo=UTC),
            dt.datetime(2026, 10, 25, 21, 30, tzinfo=UTC),
        ),
        (
            dt.datetime(2026, 10, 24, 22, 0, tzinfo=UTC),
            dt.datetime(2026, 10, 25, 21, 30, tzinfo=UTC),
        ),
    ],
)
def test_deadlines_follow_rome_across_daylight_saving(gm_user, after, expected):
    """WWW-R16 / INQ-R13: 22:30 Europe/Rome, CEST (UTC+2) from the last Sunday of March,
    CET (UTC+1) from the last Sunday of October."""
    game = make_game(gm_user)
    assert next_deadline(game, dt.time(22, 30), after) == expected


def test_actions_are_checked_by_the_engine(gm_user):
    """WWW-R18: on N0 only the Maresciallo and the Pianista act."""
    game = make_game(gm_user)
    phase = current_phase(game)
    marshal, teacher = by_role(game, "maresciallo"), by_role(game, "maestrina")
    indian = by_role(game, "indiano")
    action_submit(phase=phase, player=marshal, target=indian)
    with translation.override("it"), pytest.raises(ValidationError) as info:
        action_submit(phase=phase, player=teacher, target=indian)
    assert info.value.messages == ["non può accompagnare nella Notte 0 [WWW-R18]"]
    with translation.override("en"), pytest.raises(ValidationError) as info:
        action_submit(phase=phase, player=teacher, target=indian)
    assert info.value.messages == ["cannot accompany on N0 [WWW-R18]"]
    assert Submission.objects.filter(phase=phase).count() == 1


def test_a_target_from_another_game_is_refused(gm_user):
    game, other = make_game(gm_user), make_game(gm_user, name="Altra")
    with pytest.raises(ValidationError):
        action_submit(phase=current_phase(game), player=by_role(game, "maresciallo"),
                      target=other.players.first())  # fmt: skip
    assert Submission.objects.count() == 0


def test_commit_happens_once_and_opens_the_next_phase(gm_user):
    game = make_game(gm_user)
    phase = current_phase(game)
    marshal, indian = by_role(game, "maresciallo"), by_role(game, "indiano")
    action_submit(phase=phase, player=marshal, target=indian)
    preview = phase_preview(phase)
    assert [r.kind for r in preview.outcome.results] == ["investigation"]
    assert Result.objects.filter(phase="N0").count() == 0  # a preview stores nothing
    assert phase_commit(phase=phase, user=gm_user) is True
    assert phase_commit(phase=phase, user=gm_user) is False
    result = Result.objects.get(phase="N0")
    assert (result.to, result.about, result.value) == (marshal, indian, "indiano")
    assert current_phase(game).label == "D1"
    phase.refresh_from_db()
    assert "Stanotte non è morto nessuno." in phase.outcome["announcement"]


def test_closed_phase_refuses_submissions(gm_user):
    game = make_game(gm_user)
    phase = current_phase(game)
    Phase.objects.filter(pk=phase.pk).update(closes_at=dt.datetime(2020, 1, 1, tzinfo=UTC))
    with pytest.raises(ValidationError) as info:
        action_submit(phase=phase, player=by_role(game, "maresciallo"),
                      target=by_role(game, "indiano"))  # fmt: skip
    assert "è chiusa" in info.value.messages[0]


def test_day_vote_with_boia_secret_vote_and_tie(gm_user):
    """INQ-R45..R49: the Boia's secret vote counts three on a wolf and times as his
    public vote for the tie."""
    game = make_game(gm_user, setup="inquisizione")
    day = first_day(game, gm_user)
    boia = by_role(game, "boia")
    wolf = game.players.filter(role="lupo_mannaro").first()
    farmers = list(game.players.filter(role="contadino"))
    vote_cast(phase=day, player=farmers[0], target=farmers[5])
    vote_cast(phase=day, player=boia, target=farmers[4])
    vote_cast(phase=day, player=farmers[1], target=farmers[5])
    vote_cast(phase=day, player=farmers[2], target=farmers[5])
    vote_cast(phase=day, player=boia, target=wolf, secret=True)
    preview = phase_preview(day)
    assert preview.outcome.execution.totals == {farmers[5].name: 3, wolf.name: 3}
    assert preview.outcome.execution.executed == wolf.name  # Boia timed at his public vote
    assert wolf.name + " (1)" not in preview.announcement  # no secret vote in the post
    assert phase_commit(phase=day, user=gm_user)
    assert current_phase(game).label == "N1"


def test_undo_reopens_the_last_commit(gm_user):
    game = make_game(gm_user)
    night = current_phase(game)
    action_submit(
        phase=night, player=by_role(game, "maresciallo"), target=by_role(game, "sceriffo")
    )
    phase_commit(phase=night, user=gm_user)
    day = current_phase(game)
    vote_cast(phase=day, player=by_role(game, "sceriffo"), target=by_role(game, "indiano"))
    undone = phase_undo(game=game, user=gm_user)
    assert undone.label == "N0"
    assert undone.status == Phase.Status.OPEN
    assert list(game.phases.values_list("label", flat=True)) == ["N0"]
    assert not Result.objects.filter(phase="N0").exists()
    assert game.audit.filter(kind="undo").get().detail["kept_submissions"] == 1  # issue 12 §3


def test_gm_override_spares_a_victim(gm_user):
    """The GM rules differently: the victim survives; the reason is kept."""
    game = make_game(gm_user)
    phase_commit(phase=current_phase(game), user=gm_user)  # N0
    phase_commit(phase=current_phase(game), user=gm_user)  # D1, nobody voted
    night = current_phase(game)
    cowboy = game.players.filter(role="cowboy").first()
    action_submit(phase=night, player=by_role(game, "indiano"), target=cowboy)
    assert [d.player for d in phase_preview(night).outcome.deaths] == [cowboy.name]
    override_add(phase=night, user=gm_user, kind="spare", player=cowboy, reason="ritardo forum")
    preview = phase_preview(night)
    assert preview.outcome.deaths == []
    assert any("ritardo forum" in str(line) for line in preview.outcome.trace)


def test_will_loners_cannot_write(gm_user):
    """WWW-R44."""
    game = make_game(gm_user)
    with pytest.raises(ValidationError):
        will_save(player=by_role(game, "pianista"), text="addio")
    will_save(player=game.players.filter(role="cowboy").first(), text="addio")


@pytest.mark.django_db(transaction=True)
def test_two_simultaneous_commits_apply_once(gm_user):
    game = make_game(gm_user)
    phase = current_phase(game)
    results = []

    def commit():
        try:
            results.append(phase_commit(phase=Phase.objects.get(pk=phase.pk), user=None))
        finally:
            connection.close()

    threads = [threading.Thread(target=commit) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [False, True]
    assert Game.objects.get(pk=game.pk).phases.count() == 3  # N0 committed; D1, N1 once


def test_the_preview_of_a_day_of_many_changes_is_the_commits_outcome(gm_user):
    """The GM's preview resolves the day from the same input the commit stores (every vote
    event; the rules' refusals, WWW-R9's self-votes, listed each time they were sent)."""
    game = make_game(gm_user)
    day = first_day(game, gm_user)
    players = list(game.players.order_by("seat"))
    rng = random.Random(3)
    start = dt.datetime.now(UTC) - dt.timedelta(hours=2)
    Submission.objects.bulk_create(
        Submission(phase=day, player=voter, kind=Submission.Kind.VOTE,
                   at=start + dt.timedelta(seconds=i),
                   target=rng.choice([*players[:6], None]))  # self-votes: refused
        for i, voter in enumerate(rng.choice(players[:8]) for _ in range(240))
    )  # fmt: skip
    preview = phase_preview(day)
    assert preview.inputs.dropped  # a self-vote is refused (WWW-R9), each time it was sent
    assert phase_commit(phase=day, user=gm_user)
    day.refresh_from_db()
    assert day.inputs["votes"] == preview.inputs.votes
    execution = preview.outcome.execution.as_dict()
    assert day.outcome["execution"] == execution
    assert day.outcome["deaths"] == [d.as_dict() for d in preview.outcome.deaths]
