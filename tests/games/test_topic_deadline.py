"""Issue 28 class 6: in a game whose votes are given in the thread, the deadline never
commits a day whose votes have not been read; the day waits for the GM's import, which
counts only posts before the deadline (by their forum time), lists the late ones apart,
stores the in-time ones and resolves the day in one click. Issue 31 major 2: one rule for
a forum time within the phase, for the GM's entries and the thread import alike."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from games.models import Phase, Submission
from games.selectors.window import (
    BEFORE,
    FUTURE,
    IN_TIME,
    LATE,
    forum_moment,
    forum_time_place,
    spans_midnight,
    waits_for_topic,
)
from games.services.clock import deadlines_run
from games.services.phases import phase_commit
from games.services.submissions import vote_cast
from games.services.topic_preview import LATE as LATE_ROW
from games.services.topic_preview import NEW, OUTSIDE, topic_import_preview
from games.services.topic_votes import topic_import_save
from games.templatetags.wording import phase_time
from tests.factories import make_game
from tests.games.topic_tools import ROME, page, player, thread_day

pytestmark = pytest.mark.django_db


def test_class6_the_deadline_does_not_commit_a_thread_vote_day(gm_user, client):
    """Issue 28 class 6: the day waits for its votes; players can no longer vote on the
    site; the phase page and the dashboard say it waits, with the time since the deadline."""
    game, day = thread_day(gm_user)
    assert deadlines_run() == {"closed": 1}
    assert deadlines_run() == {}  # it waits: no later tick commits it either
    day.refresh_from_db()
    assert day.status == Phase.Status.CLOSED
    assert day.committed_at is None
    assert waits_for_topic(day)
    with pytest.raises(ValidationError, match="chiusa"):
        vote_cast(phase=day, player=player(game, "Sam"), target=player(game, "Gino"))
    client.force_login(gm_user)
    html = client.get(reverse("games:phase", args=[game.pk])).content.decode()
    assert "In attesa del conteggio dal topic" in html
    assert re.search(r"scaduta da 3[01]\xa0minuti", html)
    html = client.get(reverse("dashboard")).content.decode()
    assert "In attesa del conteggio dal topic" in html
    assert re.search(r"scaduta da 3[01]\xa0minuti", html)


def test_class6_a_game_voting_on_the_site_still_commits_at_the_deadline(gm_user):
    _game, day = thread_day(gm_user, from_topic=False)
    assert deadlines_run()["committed"] >= 1
    day.refresh_from_db()
    assert day.status == Phase.Status.COMMITTED


def test_class6_import_after_the_deadline_and_commit_in_four_interactions(gm_user, client):
    """Issue 28 class 6, done when: importing after the deadline and committing takes at
    most 4 GM interactions (open the phase page, paste, "Anteprima", "Salva e risolvi");
    nothing after the deadline is stored as in time: the late posts are listed apart and
    would have changed the execution."""
    game, day = thread_day(gm_user)
    deadlines_run()
    deadline = day.closes_at
    text = page(
        ("Sam", deadline - dt.timedelta(hours=3), "Voto Gino"),
        ("Mar", deadline - dt.timedelta(hours=2), "Voto Gino"),
        ("Pao", deadline - dt.timedelta(minutes=5), "Voto Anna"),
        ("Mia", deadline, "Voto Anna"),  # in the deadline's minute: late
        ("Nora", deadline + dt.timedelta(minutes=3), "Voto Anna"),
        ("Vito", deadline + dt.timedelta(minutes=9), "Voto Anna"),
    )
    client.force_login(gm_user)
    url = reverse("games:topic_import", args=[game.pk])
    requests = 0
    html = client.get(reverse("games:phase", args=[game.pk])).content.decode()  # 1: the page
    requests += 1
    assert 'id="topic"' in html
    preview = client.post(url, {"text": text, "action": "preview"})  # 2-3: paste, Anteprima
    requests += 1
    shown = preview.content.decode()
    in_time, late = shown.split('id="import-rows"')[1].split('id="import-late"')
    assert all(name in in_time for name in ("Sam", "Mar", "Pao"))
    assert not any(name in in_time for name in ("Mia", "Nora", "Vito"))
    assert all(name in late for name in ("Mia", "Nora", "Vito"))
    assert "Salva 3 voti e risolvi Giorno 1" in shown
    read_at = re.search(r'name="read_at" value="([^"]+)"', shown).group(1)
    done = client.post(url, {"text": text, "action": "resolve", "read_at": read_at})  # 4
    requests += 1
    assert done.status_code == 302
    assert requests == 3
    day.refresh_from_db()
    assert day.status == Phase.Status.COMMITTED
    votes = Submission.objects.filter(phase=day, kind=Submission.Kind.VOTE)
    assert {v.player.name: v.target.name for v in votes} == {
        "Sam": "Gino", "Mar": "Gino", "Pao": "Anna",
    }  # fmt: skip
    assert all(v.at < deadline and v.source == "topic" for v in votes)
    assert day.outcome["execution"]["executed"] == "Gino"  # the late votes would tie 2-5


def test_class6_a_plain_save_while_waiting_stores_the_in_time_votes(gm_user, client):
    """ "Salva" after the deadline stores the in-time votes with their forum time (the day
    waits, it is not closed to the GM's entries) and never the late ones."""
    _game, day = thread_day(gm_user)
    deadlines_run()
    text = page(("Sam", day.closes_at - dt.timedelta(minutes=1), "Voto Gino"),
                ("Mar", day.closes_at + dt.timedelta(minutes=1), "Voto Gino"))  # fmt: skip
    rows = topic_import_preview(phase=day, text=text).rows
    assert [(r.post.author, r.status) for r in rows] == [("Sam", NEW), ("Mar", LATE_ROW)]
    topic_import_save(phase=day, text=text, fmt="", decisions={}, user=gm_user)
    (vote,) = Submission.objects.filter(phase=day)
    assert (vote.player.name, vote.at) == ("Sam", day.closes_at - dt.timedelta(minutes=1))
    day.refresh_from_db()
    assert day.status == Phase.Status.CLOSED  # the commit is the GM's click
    client.force_login(gm_user)
    client.post(reverse("games:gm_commit", args=[day.game.pk]), {"phase": day.pk})
    day.refresh_from_db()
    assert day.status == Phase.Status.COMMITTED  # one click on the phase page


def test_class6_after_an_undo_a_post_after_the_deadline_is_late_not_new(gm_user):
    """The undo holds a day past its deadline; the deadline does not move: the preview
    lists a later post as late, and "Salva" stores the rest instead of refusing it all."""
    _game, day = thread_day(gm_user, from_topic=False)
    Phase.objects.filter(pk=day.pk).update(paused_at=timezone.now())
    day.refresh_from_db()
    text = page(("Sam", day.closes_at - dt.timedelta(minutes=1), "Voto Gino"),
                ("Mar", day.closes_at + dt.timedelta(minutes=10), "Voto Gino"))  # fmt: skip
    rows = topic_import_preview(phase=day, text=text).rows
    assert [r.status for r in rows] == [NEW, LATE_ROW]


def test_31_major2_one_rule_for_the_gm_entry_and_the_import(gm_user):
    """Issue 31 major 2: a time before the day opened or at/after the deadline is refused
    for the GM's entry, naming the window with dates, and flagged by the import alike."""
    game, day = thread_day(gm_user, from_topic=False, deadline_ago=dt.timedelta(minutes=-60))
    now = timezone.now()
    early, late = day.opened_at - dt.timedelta(hours=1), now + dt.timedelta(hours=2)
    for at, place in ((early, BEFORE), (now - dt.timedelta(minutes=5), IN_TIME),
                      (late, FUTURE)):  # fmt: skip
        assert forum_time_place(day, at, now) == place
    assert forum_time_place(day, day.closes_at, day.closes_at + dt.timedelta(minutes=1)) == LATE
    with pytest.raises(ValidationError, match=r"fuori dalla fase: vale solo tra \w+ \d+ \w+"):
        vote_cast(phase=day, player=player(game, "Sam"), target=player(game, "Gino"), at=early,
                  entered_by=gm_user, reason="post #3")  # fmt: skip
    rows = topic_import_preview(phase=day, text=page(("Sam", early, "Voto Gino"))).rows
    assert rows[0].status == OUTSIDE
    assert "prima dell'apertura del Giorno 1" in rows[0].note


def test_31_major2_the_date_of_a_time_typed_for_a_phase_over_midnight(gm_user):
    """A time after the opening's is on the opening's date, else on the next day; a date
    typed wins; the form asks for it only when the phase spans midnight."""
    game = make_game(gm_user)
    opened = dt.datetime(2026, 12, 2, 22, 30, tzinfo=ROME)
    phase = Phase(game=game, label="D1", index=1, opened_at=opened,
                  closes_at=dt.datetime(2026, 12, 3, 22, 0, tzinfo=ROME))  # fmt: skip
    assert spans_midnight(phase)
    assert forum_moment(phase, dt.time(23, 10)) == dt.datetime(2026, 12, 2, 23, 10, tzinfo=ROME)
    assert forum_moment(phase, dt.time(9, 0)) == dt.datetime(2026, 12, 3, 9, 0, tzinfo=ROME)
    assert forum_moment(phase, dt.time(23, 59), dt.date(2026, 12, 3)) == dt.datetime(
        2026, 12, 3, 23, 59, tzinfo=ROME
    )
    same_day = Phase(game=game, label="D1", index=1, opened_at=opened.replace(hour=10),
                     closes_at=phase.closes_at.replace(day=2))  # fmt: skip
    assert not spans_midnight(same_day)


def test_31_major2_the_gm_vote_view_says_the_date_back_and_refuses_out_of_window(gm_user, client):
    game, _day = thread_day(gm_user, from_topic=False, deadline_ago=dt.timedelta(minutes=-60))
    client.force_login(gm_user)
    url = reverse("games:gm_vote", args=[game.pk])
    posted = (timezone.now() - dt.timedelta(minutes=7)).astimezone(ROME)
    data = {"voter": player(game, "Sam").pk, "target": player(game, "Gino").pk,
            "reason": "post #7"}  # fmt: skip
    response = client.post(url, {**data, "at": f"{posted:%H:%M}", "day": f"{posted:%Y-%m-%d}"},
                           follow=True)  # fmt: skip
    assert "Voto di Sam registrato. Ora del post:" in response.content.decode()
    assert Submission.objects.get().at == posted.replace(second=0, microsecond=0)
    future = posted + dt.timedelta(minutes=40)
    response = client.post(url, {**data, "at": f"{future:%H:%M}", "day": f"{future:%Y-%m-%d}"},
                           follow=True)  # fmt: skip
    assert "fuori dalla fase: vale solo tra" in response.content.decode()
    assert Submission.objects.count() == 1


def test_31_major2_lists_show_the_date_off_the_phases_day(gm_user):
    game = make_game(gm_user)
    phase = Phase(game=game, label="D1", index=1,
                  opened_at=dt.datetime(2026, 12, 2, 22, 30, tzinfo=ROME),
                  closes_at=dt.datetime(2026, 12, 3, 22, 0, tzinfo=ROME))  # fmt: skip
    assert phase_time(dt.datetime(2026, 12, 3, 21, 47, 5, tzinfo=ROME), phase) == "21:47:05"
    assert phase_time(dt.datetime(2026, 12, 2, 23, 10, tzinfo=ROME), phase) == "mer 2 dic 23:10:00"


def test_31_major2_the_count_post_dates_a_vote_off_the_phases_day(gm_user):
    """A vote from the evening before the deadline's day shows its date in the post."""
    game, day = thread_day(gm_user, from_topic=False, deadline_ago=dt.timedelta(minutes=-10))
    Phase.objects.filter(pk=day.pk).update(opened_at=day.closes_at - dt.timedelta(hours=30))
    day.refresh_from_db()
    evening = (day.closes_at - dt.timedelta(hours=26)).astimezone(ROME)
    recent = (timezone.now() - dt.timedelta(minutes=1)).astimezone(ROME)
    for name, at in (("Sam", evening), ("Mar", recent)):
        vote_cast(phase=day, player=player(game, name), target=player(game, "Gino"), at=at,
                  entered_by=gm_user, reason="dal topic")  # fmt: skip
    phase_commit(phase=day, user=gm_user)
    day.refresh_from_db()
    bbcode = day.outcome["posts"]["bbcode"]
    assert f"Sam ({evening.day}/{evening.month} {evening:%H:%M})" in bbcode
    assert f"Mar ({recent:%H:%M})" in bbcode


def test_class6_before_the_tick_the_day_already_waits_for_the_gm(gm_user):
    """Between the deadline and the tick that closes it, the day already waits: the GM's
    import stores the in-time votes, a player's vote is refused."""
    game, day = thread_day(gm_user)
    assert day.status == Phase.Status.OPEN
    assert waits_for_topic(day)
    with pytest.raises(ValidationError, match="chiusa"):
        vote_cast(phase=day, player=player(game, "Mar"), target=player(game, "Gino"))
    text = page(("Sam", day.closes_at - dt.timedelta(minutes=1), "Voto Gino"))
    topic_import_save(phase=day, text=text, fmt="", decisions={}, user=gm_user)
    assert Submission.objects.filter(phase=day).count() == 1


def test_class6_resolve_before_the_deadline_is_refused_and_stores_nothing(gm_user):
    _game, day = thread_day(gm_user, deadline_ago=dt.timedelta(minutes=-60))
    text = page(("Sam", timezone.now() - dt.timedelta(minutes=5), "Voto Gino"))
    with pytest.raises(ValidationError, match="non è ancora passata"):
        topic_import_save(phase=day, text=text, fmt="", decisions={}, user=gm_user,
                          resolve=True)  # fmt: skip
    assert not Submission.objects.filter(phase=day).exists()
