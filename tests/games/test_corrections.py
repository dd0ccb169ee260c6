"""The GM's corrections through the site: stored as inputs, resolved inside the phase by the
engine, so the preview, the commit and every later rebuild agree on every consequence."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from games.engine import rebuild
from games.models import Result
from games.services.phases import current_phase, override_add, phase_commit, phase_preview
from games.services.submissions import action_submit, vote_cast
from tests.factories import make_game

pytestmark = pytest.mark.django_db


def by_role(game, role):
    return game.players.get(role=role)


def commit(game, user):
    phase = current_phase(game)
    preview = phase_preview(phase)
    assert phase_commit(phase=phase, user=user)
    phase.refresh_from_db()
    # the preview and the commit resolve the same inputs: they agree
    assert phase.outcome["deaths"] == [d.as_dict() for d in preview.outcome.deaths]
    return phase


def to_night_one(game, user):
    commit(game, user)  # N0
    commit(game, user)  # D1, nobody voted
    return current_phase(game)


def test_spared_pianista_does_not_block_the_indians(gm_user):
    """WWW-R91, WWW-R92: spared, the Pianista was not killed by the Indians, so they may
    attack the next night and her goal is not met, at commit and after a rebuild."""
    game = make_game(gm_user)
    night = to_night_one(game, gm_user)
    pianist, indian = by_role(game, "pianista"), by_role(game, "indiano")
    action_submit(phase=night, player=indian, target=pianist)
    override_add(phase=night, user=gm_user, kind="spare", player=pianist, reason="ritardo")
    assert commit(game, gm_user).outcome["deaths"] == []
    state = rebuild(game).state
    assert state.by_name[pianist.name].alive
    assert pianist.name not in state.goal_met
    commit(game, gm_user)  # D2
    cowboy = game.players.filter(role="cowboy").first()
    action_submit(phase=current_phase(game), player=indian, target=cowboy)  # not refused
    assert [d["player"] for d in commit(game, gm_user).outcome["deaths"]] == [cowboy.name]


def test_spared_bounty_target_makes_no_rinnegato(gm_user):
    """WWW-R84: the bounty's target spared did not die: the Cacciatore does not turn."""
    game = make_game(gm_user)
    night = to_night_one(game, gm_user)
    target = game.players.get(seat=game.draws["bounty_target"]["seat"])
    action_submit(phase=night, player=by_role(game, "indiano"), target=target)
    override_add(phase=night, user=gm_user, kind="spare", player=target, reason="errore",
                 step="indiani")  # fmt: skip
    commit(game, gm_user)
    assert not Result.objects.filter(game=game, kind="rinnegato").exists()
    hunter = by_role(game, "cacciatore_di_taglie")
    assert rebuild(game).state.by_name[hunter.name].role == "cacciatore_di_taglie"


def test_spared_departing_cacciatore_stays(gm_user):
    """WWW-R82: the spare keeps the departing Cacciatore in the game."""
    game = make_game(gm_user)
    commit(game, gm_user)  # N0
    day = current_phase(game)
    target = game.players.get(seat=game.draws["bounty_target"]["seat"])
    voter = by_role(game, "sceriffo")
    vote_cast(phase=day, player=voter, target=target)
    hunter = by_role(game, "cacciatore_di_taglie")
    override_add(phase=day, user=gm_user, kind="spare", player=hunter, reason="resta")
    assert commit(game, gm_user).outcome["deaths"] == [{"player": target.name, "cause": "executed"}]
    assert rebuild(game).state.by_name[hunter.name].alive


def test_kill_at_a_named_step_applies_there(gm_user):
    """WWW-R93: the Maresciallo killed in the Notaio's phase does not investigate."""
    game = make_game(gm_user)
    night = to_night_one(game, gm_user)
    marshal = by_role(game, "maresciallo")
    action_submit(phase=night, player=marshal, target=by_role(game, "indiano"))
    override_add(phase=night, user=gm_user, kind="kill", player=marshal, reason="morto",
                 step="notaio")  # fmt: skip
    assert commit(game, gm_user).outcome["deaths"] == [{"player": marshal.name, "cause": "gm"}]
    assert not Result.objects.filter(game=game, phase="N1", kind="investigation").exists()
    assert not rebuild(game).state.by_name[marshal.name].alive


def test_an_unknown_step_is_refused(gm_user):
    game = make_game(gm_user)
    with pytest.raises(ValidationError):
        override_add(phase=current_phase(game), user=gm_user, kind="kill",
                     player=game.players.first(),
                     reason="x", step="lupi")  # fmt: skip


def test_the_phase_page_offers_the_steps(client, gm_user):
    game = make_game(gm_user, setup="inquisizione")
    client.force_login(gm_user)
    page = client.get(f"/partite/{game.pk}/fase/").content.decode()
    assert '<option value="guardie_gemelle">' in page
    player = game.players.filter(role="contadino").first()
    client.post(
        f"/partite/{game.pk}/fase/correzione/",
        {"kind": "kill", "player": player.pk, "reason": "prova", "step": "veggente"},
    )
    assert current_phase(game).overrides[0]["step"] == "veggente"


def test_templare_killed_by_the_gm_takes_his_heretic_through_commit(gm_user):
    """INQ-R50: the GM's kill of the Templare is a death 'for any reason': his designated
    Heretic dies too, at commit and after a rebuild."""
    game = make_game(gm_user, setup="inquisizione")
    night = current_phase(game)
    templar, postman = by_role(game, "templare"), by_role(game, "postino")
    action_submit(phase=night, player=templar, target=postman)
    override_add(phase=night, user=gm_user, kind="kill", player=templar, reason="fuori tempo")
    deaths = commit(game, gm_user).outcome["deaths"]
    assert deaths == [{"player": templar.name, "cause": "gm"},
                      {"player": postman.name, "cause": "templare"}]  # fmt: skip
    state = rebuild(game).state
    assert not state.by_name[templar.name].alive
    assert not state.by_name[postman.name].alive
