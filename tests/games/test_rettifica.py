"""Issue 31 major 4: after an undo, a "Correggi l'esito" or a re-commit of a result already
posted, the GM's phase page offers a "Rettifica" post (BBCode and Markdown, the game's
language) saying exactly what changed between the posted result and the new one, and
nothing secret: no role, no cause, no night action, no secret vote."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Submission
from games.services.corrections import submission_correct
from games.services.phases import current_phase, override_add, phase_commit, phase_undo
from games.services.submissions import action_submit, vote_cast
from games.text.rettifica import ABSTAIN, outcome_summary, rettifica_post
from tests.factories import make_game

NAMES = {1: "Ada", 2: "Bruno", 3: "Carla", 4: "Dino", 5: "[b]Eva[/b]"}


def post(before, after, fmt="bbcode", lang="it", label="D2"):
    return rettifica_post(label, before, after, NAMES, lang=lang, fmt=fmt)


def test_nothing_changed_no_post():
    same = {"deaths": [2], "executed": 2, "votes": {"1": 2}}
    assert post(same, same) is None


def test_each_kind_of_change_in_exact_sentences():
    """Issue 31 major 4: the executed player changed, who is not dead after all, who is
    dead now, whose vote moved (voter: old → new; a withdrawal, an abstention)."""
    before = {"deaths": [2, 4], "executed": 2, "votes": {"1": 2, "3": 2, "4": None}}
    after = {"deaths": [3, 1], "executed": 3, "votes": {"1": 3, "3": 2, "4": ABSTAIN}}
    assert post(before, after) == "\n".join([
        "[b]Rettifica: Giorno 2[/b]",
        "L'annuncio precedente conteneva un errore. Ecco cosa cambia:",
        "",
        "Esecuzione: Carla, non Bruno.",
        "Resta in gioco: Dino.",
        "Esce dal gioco: Ada.",
        "",
        "Voti corretti:",
        "[list]",
        "[*]Ada: Bruno → Carla",
        "[*]Dino: nessun voto → astensione",
        "[/list]",
    ])  # fmt: skip


def test_nobody_executed_now_and_plural_sentences_in_markdown():
    before = {"deaths": [2, 1, 4], "executed": 2, "votes": {}}
    after = {"deaths": [3, 5], "executed": None, "votes": {}}
    assert post(before, after, fmt="markdown") == "\n".join([
        "**Rettifica: Giorno 2**",
        "L'annuncio precedente conteneva un errore. Ecco cosa cambia:",
        "",
        "Esecuzione: nessuno, non Bruno.",
        "Restano in gioco: Ada, Dino.",
        "Escono dal gioco: Carla, \\[b\\]Eva\\[/b\\].",
    ])  # fmt: skip


def test_an_execution_where_there_was_none_in_english():
    """The game's language: an English game's Rettifica is in English."""
    before = {"deaths": [], "executed": None, "votes": {"5": 1}}
    after = {"deaths": [1], "executed": 1, "votes": {"5": 1}}
    assert post(before, after, lang="en", label="N3") == "\n".join([
        "[b]Correction: Night 3[/b]",
        "The previous post contained a mistake. This is what changes:",
        "",
        "Execution: Ada (before: nobody).",
    ])  # fmt: skip


def test_the_summary_leaves_out_the_secret_vote_the_causes_and_the_totals():
    """Issue 31 major 4: the Boia's secret vote never enters the comparison; the summary
    keeps seats only (no cause, no role, no true totals)."""
    outcome = {"deaths": [{"player": "Bruno", "cause": "lupo"}],
               "execution": {"executed": "Bruno", "totals": {"Bruno": 3}}}  # fmt: skip
    inputs = {"votes": [
        {"voter": 1, "target": 2, "at": 0, "secret": False, "abstain": False},
        {"voter": 4, "target": 3, "at": 1, "secret": True, "abstain": False},
        {"voter": 1, "target": 3, "at": 2, "secret": False, "abstain": False},
        {"voter": 3, "target": None, "at": 3, "secret": False, "abstain": True},
    ], "actions": [{"actor": 4, "target": 2}]}  # fmt: skip
    seats = {name: seat for seat, name in NAMES.items()}
    assert outcome_summary(outcome, inputs, seats) == {
        "deaths": [2], "executed": 2, "votes": {"1": 3, "3": ABSTAIN},
    }  # fmt: skip


@pytest.mark.django_db
def test_a_day_undone_a_vote_corrected_and_recommitted(client, gm_user):
    """Issue 31 major 4: Day 1 executed the Indian; undone, the Sheriff's vote corrected to
    a cowboy, resolved again: the phase page offers the Rettifica saying so, in both
    formats, with no role and nothing of the night."""
    game = make_game(gm_user)
    phase_commit(phase=current_phase(game), user=gm_user)  # N0
    day = current_phase(game)
    sheriff, indian = game.players.get(role="sceriffo"), game.players.get(role="indiano")
    cowboy = game.players.filter(role="cowboy").order_by("seat").first()
    vote_cast(phase=day, player=sheriff, target=indian)
    phase_commit(phase=day, user=gm_user)
    day.refresh_from_db()
    assert day.outcome["execution"]["executed"] == indian.name
    phase_undo(game=game, user=gm_user, phase_id=day.pk)
    client.force_login(gm_user)
    url = reverse("games:phase", args=[game.pk])
    vote = Submission.objects.get(phase=day, player=sheriff)
    submission_correct(submission=vote, user=gm_user, reason="letto male", target=cowboy)
    before_commit = client.get(url).content.decode()  # the preview's: what the commit changes
    assert "Se risolvi ora" in before_commit
    phase_commit(phase=current_phase(game), user=gm_user)
    page = client.get(url).content.decode()
    expected = "\n".join([
        "[b]Rettifica: Giorno 1[/b]",
        "L&#x27;annuncio precedente conteneva un errore. Ecco cosa cambia:",
        "",
        f"Esecuzione: {cowboy.name}, non {indian.name}.",
        "",
        "Voti corretti:",
        "[list]",
        f"[*]{sheriff.name}: {indian.name} → {cowboy.name}",
        "[/list]",
    ])  # fmt: skip
    assert expected in page
    assert f'id="rettifica-{day.pk}-markdown"' in page
    assert f'data-copy-from="rettifica-{day.pk}-bbcode"' in page
    section = page.split(f'id="rettifica-{day.pk}"')[1].split("</section>")[0]
    for secret in ("Sceriffo", "Indian", "Cowboy", "sceriffo", "indiano"):
        assert secret not in section
    posts_page = client.get(reverse("games:posts", args=[game.pk])).content.decode()
    assert expected in posts_page  # beside the phase's post, on the page of the posts


@pytest.mark.django_db
def test_a_night_death_spared_after_the_post(client, gm_user):
    """Issue 31 major 4: a night killed a cowboy; undone, the GM's "Correggi l'esito" spares
    him: the Rettifica says he stays in the game, and not who attacked him nor how."""
    game = make_game(gm_user)
    phase_commit(phase=current_phase(game), user=gm_user)  # N0
    phase_commit(phase=current_phase(game), user=gm_user)  # D1, nobody voted
    night = current_phase(game)
    indian = game.players.get(role="indiano")
    cowboy = game.players.filter(role="cowboy").order_by("seat").first()
    action_submit(phase=night, player=indian, target=cowboy)
    phase_commit(phase=night, user=gm_user)
    phase_undo(game=game, user=gm_user, phase_id=night.pk)
    override_add(phase=night, user=gm_user, kind="spare", player=cowboy, reason="era protetta")
    phase_commit(phase=current_phase(game), user=gm_user)
    client.force_login(gm_user)
    page = client.get(reverse("games:phase", args=[game.pk])).content.decode()
    section = page.split(f'id="rettifica-{night.pk}"')[1].split("</section>")[0]
    assert f"Resta in gioco: {cowboy.name}." in section
    assert indian.name not in section
    for secret in ("Indian", "indiano", "protett", "Cowboy"):
        assert secret not in section
