"""Issue 12 §3, "fix every mistake, lose nothing": the GM corrects or removes a
submission with a reason (the old row is kept, superseded); an override can be taken
back and reads as a sentence; an undo lists and keeps the later submissions, which come
back when their phase opens again if still legal (otherwise player and GM are told); the
sign-up list is shown as read before the deal; a name is fixed by a rename; a player
withdraws a saved night action and his once-per-game power is not spent."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from games.engine import gather_inputs, rebuild
from games.forms.signup import parse_player_names, signup_lines
from games.models import AuditEvent, Game, KeptSubmission, Phase, Submission
from games.services.corrections import (
    action_withdraw,
    override_sentence,
    submission_correct,
    submission_remove,
    wall_time_in_phase,
)
from games.services.game import player_link_issue, player_rename
from games.services.kept import undo_effects
from games.services.phases import (
    current_phase,
    override_add,
    phase_commit,
    phase_preview,
    phase_undo,
)
from games.services.submissions import action_submit, vote_cast
from tests import factories
from tests.desks.forms import deal
from tests.factories import WWW_NAMES, login_as, make_game, new_game_data

pytestmark = pytest.mark.django_db
ROME = ZoneInfo("Europe/Rome")


def by_role(game, role):
    return game.players.filter(role=role).order_by("seat").first()


def named(game, name):
    return game.players.get(name=name)


def other_than(game, player):
    return game.players.exclude(pk=player.pk).order_by("seat").first()


@pytest.fixture
def day_one(gm_user):
    """Day 1, opened 20 hours before now."""
    game, day = factories.day_one(gm_user)
    day.opened_at = timezone.now() - dt.timedelta(hours=20)
    day.save(update_fields=["opened_at"])
    return game, day


# -- correct or remove a submission -------------------------------------------------


def test_a_corrected_vote_supersedes_the_old_row_which_is_kept(gm_user, day_one):
    """§3: the old row is marked superseded, the new one carries the reason and the
    corrected target and time; the engine sees only the new one."""
    game, day = day_one
    sam, gino, pia = named(game, "Sam"), named(game, "Gino"), named(game, "Pia")
    wrong = vote_cast(phase=day, player=sam, target=gino)
    at = (timezone.now() - dt.timedelta(minutes=30)).astimezone(ROME)
    new = submission_correct(submission=wrong, user=gm_user, reason="letto male nel topic",
                             target=pia, at=dt.time(at.hour, at.minute, 7))  # fmt: skip
    wrong.refresh_from_db()
    assert wrong.superseded_at is not None
    assert wrong.superseded_reason == "letto male nel topic"
    assert (new.target, new.reason, new.replaces) == (pia, "letto male nel topic", wrong)
    assert new.at.astimezone(ROME).strftime("%H:%M:%S") == f"{at:%H:%M}:07"
    assert list(Submission.objects.filter(phase=day)) == [new]
    assert Submission.every.filter(phase=day).count() == 2
    votes = gather_inputs(rebuild(game), day).votes
    assert [(v["voter"], v["target"]) for v in votes] == [(sam.seat, pia.seat)]
    event = AuditEvent.objects.get(kind="submission_corrected")
    assert event.detail["old"]["target"] == "Gino"
    assert event.detail["new"]["target"] == "Pia"


def test_a_removed_vote_no_longer_counts_and_cannot_be_removed_twice(gm_user, day_one):
    game, day = day_one
    sam, gino = named(game, "Sam"), named(game, "Gino")
    vote = vote_cast(phase=day, player=sam, target=gino)
    submission_remove(submission=vote, user=gm_user, reason="post cancellato dal forum")
    assert not Submission.objects.filter(phase=day).exists()
    assert Submission.every.get().superseded_reason == "post cancellato dal forum"
    assert phase_preview(day).outcome.execution.executed is None
    with pytest.raises(ValidationError, match="già stato corretto o rimosso"):
        submission_remove(submission=vote, user=gm_user, reason="di nuovo")
    assert AuditEvent.objects.filter(kind="submission_removed").count() == 1


def test_a_correction_the_rules_refuse_changes_nothing(gm_user, day_one):
    game, day = day_one
    sam = named(game, "Sam")
    vote = vote_cast(phase=day, player=sam, target=named(game, "Gino"))
    with pytest.raises(ValidationError):
        submission_correct(submission=vote, user=gm_user, reason="x", target=sam)  # himself
    vote.refresh_from_db()
    assert vote.superseded_at is None
    assert Submission.every.count() == 1


def test_removing_an_action_removes_its_slot_not_just_the_latest_row(gm_user):
    """Only the latest action of a slot counts: removing it must not revive an older one."""
    game = make_game(gm_user)
    night = current_phase(game)
    marshal = by_role(game, "maresciallo")
    first, second = game.players.exclude(pk=marshal.pk).order_by("seat")[:2]
    action_submit(phase=night, player=marshal, target=first)
    latest = action_submit(phase=night, player=marshal, target=second)
    submission_remove(submission=latest, user=gm_user, reason="mandata per errore")
    assert gather_inputs(rebuild(game), night).actions == []


def test_a_vote_time_after_midnight_is_last_evening_and_outside_the_phase_is_refused(day_one):
    """§3: a GM entering at 00:30 a vote of 23:50 gets last evening; before the phase
    opened is refused."""
    _game, day = day_one
    now = dt.datetime(2026, 3, 11, 0, 30, tzinfo=ROME)
    day.opened_at = dt.datetime(2026, 3, 10, 9, 0, tzinfo=ROME)
    day.closes_at = dt.datetime(2026, 3, 11, 22, 0, tzinfo=ROME)
    assert wall_time_in_phase(day, dt.time(23, 50), now) == dt.datetime(
        2026, 3, 10, 23, 50, tzinfo=ROME
    )
    with pytest.raises(
        ValidationError, match="fuori dalla fase: vale solo tra martedì 10 marzo, ore 09:00"
    ):
        wall_time_in_phase(day, dt.time(8, 0), now)  # 08:00 of the 10th: before it opened


def test_the_correction_page_strikes_the_old_row_in_the_history(gm, gm_user, day_one):
    game, day = day_one
    vote = vote_cast(phase=day, player=named(game, "Sam"), target=named(game, "Gino"))
    url = reverse("games:submission_edit", args=[game.pk, vote.pk])
    assert "Rimuovi" in gm.get(url).content.decode()
    response = gm.post(url, {"action": "correct", "target": named(game, "Pia").pk,
                             "reason": "era Pia"})  # fmt: skip
    assert response.status_code == 302
    page = gm.get(reverse("games:phase", args=[game.pk])).content.decode()
    assert f'id="submission-{vote.pk}" class="superseded"' in page
    assert "era Pia" in page
    audit = gm.get(reverse("games:audit", args=[game.pk])).content.decode()
    assert "invio corretto" in audit  # the kind submission_corrected, in words
    assert '<s class="superseded">Gino ' in audit  # the old vote, struck
    assert "→ Pia" in audit


# -- overrides ----------------------------------------------------------------------


def test_an_override_reads_as_a_sentence_and_can_be_taken_back(gm, gm_user, day_one):
    game, day = day_one
    phase_commit(phase=day, user=gm_user)
    night = current_phase(game)
    vesper = named(game, "Sam")
    override_add(phase=night, user=gm_user, kind="spare", player=vesper, reason="ha avvisato",
                 step="indiani")  # fmt: skip
    names = dict(game.players.values_list("seat", "name"))
    night.refresh_from_db()
    sentence = override_sentence(game, night.label, night.overrides[0], names)
    assert (
        sentence == "Notte 1: risparmia Sam (passo: l'attacco degli Indiani) — motivo: ha avvisato"
    )
    with translation.override("en"):
        english = override_sentence(game, night.label, night.overrides[0], names)
    assert english == "Night 1: spare Sam (step: the Indians' attack) — reason: ha avvisato"
    page = gm.get(reverse("games:phase", args=[game.pk])).content.decode()
    assert "risparmia Sam (passo: l&#x27;attacco degli Indiani)" in page
    assert "spare #" not in page
    assert '<option value="indiani">l&#x27;attacco degli Indiani</option>' in page  # the steps too
    response = gm.post(reverse("games:gm_override_remove", args=[game.pk]), {
        "phase": night.pk, "index": 0, "seat": vesper.seat, "kind": "spare",
        "reason": "sbagliavo io",
    })  # fmt: skip
    assert response.status_code == 302
    night.refresh_from_db()
    assert night.overrides == []
    event = AuditEvent.objects.get(kind="override_removed")
    assert (event.detail["added_reason"], event.detail["reason"]) == ("ha avvisato", "sbagliavo io")


# -- undo keeps the later submissions -----------------------------------------------


def _to_day_two(gm_user):
    """N0, D1 and N1 committed: Day 2 and Night 2 open (both opened by N1's dawn)."""
    game = make_game(gm_user)
    night = factories.night_one(game, gm_user)  # N0, D1: nobody executed
    phase_commit(phase=night, user=gm_user)  # N1
    return game, night


def test_undo_lists_keeps_and_restores_the_next_days_votes(gm, gm_user):
    """§3: the Day 2 votes already sent are listed before the undo, kept, and come back
    when N1 is resolved again; one the rules now refuse is not restored and both the
    player and the GM are told."""
    game, night = _to_day_two(gm_user)
    day2 = current_phase(game)
    sam, gino, pia, mar = (named(game, n) for n in ("Sam", "Gino", "Pia", "Mar"))
    first = vote_cast(phase=day2, player=sam, target=gino)
    vote_cast(phase=day2, player=pia, target=gino)
    vote_cast(phase=day2, player=mar, target=sam)
    effects = undo_effects(game)
    assert effects.phase == night
    assert [s.player.name for s in effects.kept] == ["Sam", "Pia", "Mar"]
    page = gm.get(reverse("games:gm_undo_confirm", args=[game.pk]), {"phase": night.pk})
    assert "Sam" in page.content.decode()
    assert "Invii successivi interessati (3)" in page.content.decode()

    phase_undo(game=game, user=gm_user, phase_id=night.pk)
    assert KeptSubmission.objects.filter(status="kept").count() == 3
    assert AuditEvent.objects.get(kind="undo").detail["kept_submissions"] == 3
    night.refresh_from_db()
    override_add(phase=night, user=gm_user, kind="kill", player=pia, reason="ha parlato in PM")
    phase_commit(phase=night, user=gm_user)

    day2 = current_phase(game)
    assert day2.label == "D2"
    back = list(Submission.objects.filter(phase=day2).order_by("at"))
    assert [(s.player.name, s.target.name) for s in back] == [("Sam", "Gino"), ("Mar", "Sam")]
    assert back[0].at == first.at  # the forum time is kept
    refused = KeptSubmission.objects.get(status="refused")
    assert refused.player == pia
    assert refused.refusal
    gm_page = gm.get(reverse("games:phase", args=[game.pk])).content.decode()
    assert 'id="kept-refused"' in gm_page
    assert "la scelta di Pia" in gm_page
    phone = Client()
    login_as(phone, pia)
    assert "la scelta di Pia" in phone.get(reverse("player_home")).content.decode()
    other = Client()
    login_as(other, sam)
    assert 'id="kept-refused"' not in other.get(reverse("player_home")).content.decode()


def test_an_undo_from_the_page_without_confirmation_only_shows_the_confirmation(gm, gm_user):
    game, night = _to_day_two(gm_user)
    response = gm.post(reverse("games:gm_undo", args=[game.pk]), {"phase": night.pk})
    assert response.status_code == 302
    assert reverse("games:gm_undo_confirm", args=[game.pk]) in response["Location"]
    assert current_phase(game).label == "D2"


# -- the sign-up list, the rename ---------------------------------------------------


def test_the_signup_list_drops_headers_numbers_and_reserves():
    """§3: "ISCRITTI (16/16):" and leading numbers like "12 Tempesta" are dropped; each
    name keeps its line."""
    text = "ISCRITTI (16/16):\n" + "\n".join(
        f"{i} {name}" for i, name in enumerate(WWW_NAMES, 1)
    ) + "\n\nRiserve:\n1. Tempesta"  # fmt: skip
    lines = signup_lines(text)
    assert lines[0].note == "intestazione"
    assert [(line.number, line.name) for line in lines[1:3]] == [(2, "Sam"), (3, "Mar")]
    assert lines[-1].note == "riserva"
    assert parse_player_names(text, expected=16) == WWW_NAMES
    assert parse_player_names("12) @Tempesta\n2. Neve", expected=2) == ["Tempesta", "Neve"]


def test_the_new_game_form_shows_the_list_as_read_and_deals_only_once_confirmed(gm):
    data = new_game_data(players="ISCRITTI (16/16):\n" + "\n".join(
        f"{i} {name}" for i, name in enumerate(WWW_NAMES, 1)))  # fmt: skip
    data.pop("confirmed")
    page = gm.post(reverse("games:new"), data).content.decode()
    assert 'id="signup-lines"' in page
    assert "<code>12 Capo</code>" in page
    assert not Game.objects.exists()
    deal(gm, reverse("games:new"), {**data, "confirmed": "1"})
    assert list(Game.objects.get().players.values_list("name", flat=True)) == WWW_NAMES


def test_a_rename_fixes_a_typo_keeps_seat_and_link_and_is_audited(gm, gm_user, day_one):
    game, _day = day_one
    sam = named(game, "Sam")
    token = player_link_issue(player=sam)
    response = gm.post(reverse("games:rename", args=[game.pk, sam.pk]), {"name": "Samuele"})
    assert response.status_code == 302
    sam.refresh_from_db()
    assert (sam.name, sam.previous_names) == ("Samuele", [])
    phone = Client()
    assert phone.get(reverse("player_enter", args=[token])).status_code == 302  # same link
    event = AuditEvent.objects.get(kind="rename")
    assert (event.detail["old"], event.detail["new"]) == ("Sam", "Samuele")
    with pytest.raises(ValidationError, match="già in questa partita"):
        player_rename(player=sam, new_name="gino", user=gm_user)
    with pytest.raises(ValidationError):
        player_rename(player=sam, new_name="Sa\u202em", user=gm_user)
    assert rebuild(game).state.by_name["Samuele"].alive


# -- the player withdraws a night action --------------------------------------------


def test_a_withdrawn_once_per_game_power_is_not_spent(gm_user):
    """§3 (WWW-R74): the Sciamano asks the spirits, then withdraws: the night resolves
    without it and the vision stays available; a vision left in is spent."""
    game = make_game(gm_user)
    phase_commit(phase=current_phase(game), user=gm_user)  # N0
    shaman = by_role(game, "sciamano")
    night = game.phases.get(label="N1")
    action_submit(phase=night, player=shaman, target=other_than(game, shaman), vision=True)
    phone = Client()
    login_as(phone, shaman)
    response = phone.post(reverse("player_withdraw"), {"phase": night.pk, "slot": "vision"})
    assert response.status_code == 302
    assert "Scelta ritirata" in phone.get(reverse("player_home")).content.decode()
    assert Submission.every.filter(player=shaman, superseded_at__isnull=False).count() == 1
    phase_commit(phase=current_phase(game), user=gm_user)  # D1
    phase_commit(phase=night, user=gm_user)  # N1
    state = rebuild(game).state
    assert (shaman.name, "vision") not in state.used
    night2 = game.phases.get(label="N2")
    action_submit(phase=night2, player=shaman, target=other_than(game, shaman), vision=True)
    with pytest.raises(ValidationError, match="Non hai nessuna scelta"):
        action_withdraw(phase=night2, player=shaman, slot="shoot")
    phase_commit(phase=current_phase(game), user=gm_user)  # D2
    phase_commit(phase=night2, user=gm_user)  # N2
    assert (shaman.name, "vision") in rebuild(game).state.used


def test_the_player_page_offers_withdraw_only_for_a_saved_choice(gm_user):
    game = make_game(gm_user)
    marshal = by_role(game, "maresciallo")
    phone = Client()
    login_as(phone, marshal)
    assert "Ritira la scelta" not in phone.get(reverse("player_home")).content.decode()
    action_submit(phase=current_phase(game), player=marshal, target=other_than(game, marshal))
    assert "Ritira la scelta" in phone.get(reverse("player_home")).content.decode()
    assert Phase.objects.filter(game=game).count() == 1


def test_a_backup_carries_the_struck_rows_and_the_kept_ones(gm_user, day_one):
    """Nothing is deleted, not even by a backup and restore: the corrected row, its
    correction (pointing to it) and the submissions an undo keeps travel too."""
    from games.services.backup import game_export_json, game_import, parse_backup

    game, day = day_one
    wrong = vote_cast(phase=day, player=named(game, "Sam"), target=named(game, "Gino"))
    submission_correct(submission=wrong, user=gm_user, reason="era Pia",
                       target=named(game, "Pia"))  # fmt: skip
    phase_commit(phase=day, user=gm_user)  # D1
    night = current_phase(game)
    phase_commit(phase=night, user=gm_user)  # N1: Day 2 opens
    vote_cast(phase=current_phase(game), player=named(game, "Mar"), target=named(game, "Sam"))
    phase_undo(game=game, user=gm_user, phase_id=night.pk)
    copy = game_import(parse_backup(game_export_json(game)), gm=gm_user, name="Copia")
    rows = Submission.every.filter(phase__game=copy, phase__label="D1")
    struck = rows.get(superseded_at__isnull=False)
    standing = rows.get(superseded_at__isnull=True)
    assert struck.superseded_reason == "era Pia"
    assert standing.replaces == struck
    assert KeptSubmission.objects.filter(game=copy, status="kept").count() == 1
