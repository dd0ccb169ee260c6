"""Issue 31, major 1: a night death's will deadline is never already past. WWW-R17,
WWW-R46, WWW-D23: a player killed in the night has until 12:00 of the day after his death
is announced (the night's resolution), whatever the hour the GM resolves the night."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
import time_machine

from games.engine import rebuild, will_deadline_at
from games.selectors.wills import will_desk
from games.services.phases import current_phase, phase_commit
from games.services.submissions import action_submit
from tests.factories import make_game, tomorrow_morning

pytestmark = pytest.mark.django_db
ROME = ZoneInfo("Europe/Rome")


@pytest.mark.parametrize("hour", range(24))
def test_www_r46_a_night_death_has_until_noon_of_the_day_after_it_is_announced(gm_user, hour):
    start = tomorrow_morning()
    with time_machine.travel(start, tick=False):
        game = make_game(gm_user)
        phase_commit(phase=current_phase(game), user=gm_user)  # N0
        phase_commit(phase=current_phase(game), user=gm_user)  # D1, nobody executed
        night = current_phase(game)
        assert night.label == "N1"
        victim = game.players.filter(role="cowboy").first()
        action_submit(phase=night, player=game.players.get(role="indiano"), target=victim)
    announced = (start + dt.timedelta(days=1)).replace(hour=hour, minute=2)
    with time_machine.travel(announced, tick=False):
        phase_commit(phase=night, user=gm_user)
        built = rebuild(game)
        assert not built.state.by_name[victim.name].alive
        deadline = will_deadline_at(game, built.rules, built.state, victim.name)
        desk = will_desk(game, built.rules, built.state, victim, None, now=announced)
    expected = dt.datetime.combine(announced.date() + dt.timedelta(days=1), dt.time(12),
                                   tzinfo=ROME)  # fmt: skip
    assert deadline == expected
    assert deadline > announced
    assert desk.editable  # the dead player can still write and hand in his will
