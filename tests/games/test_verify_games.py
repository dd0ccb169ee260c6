"""Versioned rules: each game records the rules it was dealt with, and `manage.py
verify_games` replays every stored game (the demo and played test games) and compares it
with what was stored: results, deaths, execution, winners, posts."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from desks.services import desk_game_create
from games.models import Phase, Result
from games.services.phases import current_phase, override_add, phase_commit
from games.services.submissions import action_submit, vote_cast
from roles.engine.registry import ruleset_for
from tests.factories import make_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("before_noon")]


def verify() -> tuple[int, str]:
    out = io.StringIO()
    try:
        call_command("verify_games", stdout=out)
    except SystemExit as exc:
        return int(exc.code), out.getvalue()
    return 0, out.getvalue()


def played_games(gm_user):
    www = make_game(gm_user)
    phase_commit(phase=current_phase(www), user=gm_user)  # N0
    day = current_phase(www)
    indian = www.players.get(role="indiano")
    vote_cast(phase=day, player=www.players.get(role="sceriffo"), target=indian)
    phase_commit(phase=day, user=gm_user)
    night = current_phase(www)
    cowboy = www.players.filter(role="cowboy").first()
    action_submit(phase=night, player=www.players.get(role="sciamano"), target=cowboy)
    override_add(phase=night, user=gm_user, kind="kill", player=cowboy, reason="prova",
                 step="notaio")  # fmt: skip
    phase_commit(phase=night, user=gm_user)
    inq = make_game(gm_user, setup="inquisizione", name="Inq")
    phase_commit(phase=current_phase(inq), user=gm_user)
    village = make_game(gm_user, setup="classic-village", name="Villaggio")
    phase_commit(phase=current_phase(village), user=gm_user)
    return www, inq, village


def test_every_game_records_its_rules_version(gm_user):
    game = make_game(gm_user)
    assert game.rules_version == ruleset_for("wild-west-wolf").version
    assert game.rules_version.startswith("wild-west-wolf@1+")


def test_stored_games_replay_to_what_was_stored(gm_user, monkeypatch):
    monkeypatch.setenv("TABULA_GM_PASSWORD", "pw-demo-123")
    call_command("ensure_gm")
    call_command("load_demo", stdout=io.StringIO())
    played_games(gm_user)
    desk = desk_game_create(gm=gm_user, name="Bang", setup_key="ribelle", seed=1,
                            roles={"Ada": "sceriffo", "Bea": "fuorilegge"})  # fmt: skip
    code, text = verify()
    assert code == 0, text
    assert f"#{desk.pk} Bang [ribelle]: skipped" in text  # a referee desk keeps its own log
    assert "4 games replayed, 1 skipped, 0 differ." in text


def test_a_difference_is_printed_and_fails(gm_user):
    www, *_ = played_games(gm_user)
    night = www.phases.get(label="N1", status=Phase.Status.COMMITTED)
    night.outcome = {**night.outcome, "deaths": []}
    night.save(update_fields=["outcome"])
    result = Result.objects.filter(game=www, phase="N0").first()
    if result is None:
        result = Result.objects.filter(game=www, phase="setup").first()
    result.value = "altro"
    result.save(update_fields=["value"])
    code, text = verify()
    assert code == 1
    assert f"#{www.pk} Partita [wild-west-wolf]: DIFFERS" in text
    assert "N1 deaths: stored []" in text
    assert "results: stored" in text


def test_a_rename_or_a_substitution_is_not_a_difference(gm_user):
    """Issue 12 §3: a typo fixed in a name (rename) and a new forum user in the seat
    (substitution) change no stored outcome; verify_games reads the old names as the new."""
    from games.services.game import player_rename, player_substitute

    www, *_ = played_games(gm_user)
    executed = www.players.get(role="indiano")  # executed on D1: named in deaths and posts
    killed = www.players.filter(role="cowboy").first()  # killed by the GM on N1
    assert executed.name in str(www.phases.get(label="D1").outcome)
    player_rename(player=executed, new_name="Rinominato", user=gm_user)
    player_substitute(player=killed, new_name="Subentrato", user=gm_user)
    code, text = verify()
    assert code == 0, text
    www.phases.filter(label="N1").update(outcome={"deaths": []})
    code, text = verify()
    assert code == 1
    assert "N1 deaths" in text, text
