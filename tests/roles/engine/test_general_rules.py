"""General rules, schedules, settings, channels and wills of both rulesets."""

from __future__ import annotations

import re

import pytest

from roles.engine.model import PastTargets
from roles.engine.registry import ruleset_for
from roles.engine.setups import load_setup
from tests.conftest import ROOT
from tests.roles.engine.helpers import inq, kill, play, www

RULES = ROOT / "docs" / "rules"  # the project's own copy: a clone alone passes


def settings_summary(filename: str, *, fixed: bool = False) -> dict[str, object]:
    """The settings summary's options (``fixed``: the decisions marked "fixed: not offered",
    one behaviour that no option changes)."""
    text = (RULES / filename).read_text(encoding="utf-8").split("Settings summary", 1)[1]
    rows = re.findall(r"^\| `([a-z0-9_.]+)` \| `?([^`|]+?)`? \| ([^\n]*)$", text, flags=re.M)
    values = {}
    for key, raw, decision in rows:
        if ("fixed: not offered" in decision) != fixed:
            continue
        raw = raw.strip().strip('"')
        values[key] = {"true": True, "false": False}.get(raw, int(raw) if raw.isdigit() else raw)
    return values


@pytest.mark.parametrize(
    ("setup", "filename"),
    [("wild-west-wolf", "wild-west-wolf.md"), ("inquisizione", "inquisizione.md")],
)
def test_every_decision_is_an_option_with_the_documented_default(setup, filename):
    """WWW-R13 / INQ-R10: nothing from the general guide is assumed; every gap is a
    DECISION, and each one's setting is a game option with its documented default
    (INQ-D21 dawn_time manual, WWW-D1 start_at, ...)."""
    documented = settings_summary(filename)
    options = dict(load_setup(setup).options)
    # Issue 13 §3: a decision with one behaviour that no code reads is not an option.
    assert settings_summary(filename, fixed=True)
    assert not set(settings_summary(filename, fixed=True)) & set(options)
    if setup == "wild-west-wolf":
        documented.pop("www.start_at")  # per game: the Game row's start time (WWW-D1)
        documented["www.notary_delivery"] = "cumulative"
        documented["www.rinnegato_decisive_vote"] = "latest"
    assert options == documented


def test_www_general_rules_are_recorded():
    """WWW-R1 (Master Loudo), WWW-R3, WWW-R4 (historical dates), WWW-R9, WWW-R11, WWW-R12."""
    info = load_setup("wild-west-wolf").info
    assert info["master"] == "Loudo"
    assert info["original_start"] == info["signups_closed"] == "2018-02-12 12:00"
    assert info["vote_reason_required"] is False
    assert info["inns"] is False
    assert info["difficulty"] == "media"


def test_inq_general_rules_are_recorded():
    """INQ-R8 (no inns), INQ-R9 (difficulty), INQ-R6 (no reason needed)."""
    info = load_setup("inquisizione").info
    assert (info["inns"], info["difficulty"], info["vote_reason_required"]) == (
        False,
        "media",
        False,
    )


@pytest.mark.parametrize("setup", ["wild-west-wolf", "inquisizione"])
def test_schedule(setup):
    """WWW-R14, WWW-R15, WWW-R16 / INQ-R11, INQ-R12, INQ-R13: 22:00, 22:15, 22:30."""
    assert load_setup(setup).deadlines == {
        "vote_close": "22:00", "day_close": "22:15", "powers_close": "22:30",
    }  # fmt: skip


def test_night_orders():
    """WWW-R93 and INQ-R63: the ordering tables follow the rules (with the steps the text
    places around them: WWW-R90, D7, D17, D21; INQ-R52, R59)."""
    assert ruleset_for("wild-west-wolf").night_order == (
        "pianista", "pastore", "notaio", "maresciallo", "maestrina", "indiani",
        "guilt", "bounty", "vip",
    )  # fmt: skip
    assert ruleset_for("inquisizione").night_order == (
        "templare", "postino", "veggente", "inquisitore", "guardie_gemelle", "lupi",
        "scorbutico",
    )  # fmt: skip


def channels(state):
    return {c.key: c for c in ruleset_for(state.setup).channels(state)}


def test_www_channels():
    """WWW-R5 (only the Indians' chat), WWW-R6 (no living-dead talk), WWW-R7 (the Cemetery),
    WWW-R11 (no inns), WWW-D25 (the Bandito and Pistolero get no chat)."""
    state = www()
    assert set(channels(state)) == {"indiani", "cimitero"}
    assert channels(state)["indiani"].members == ("Capo", "Sara", "Ivan")
    play(state, "N0")
    play(state, "D1", votes=[{"voter": "Sam", "target": "Ivan"}])
    now = channels(state)
    assert now["indiani"].members == ("Capo", "Sara")
    assert now["cimitero"].members == ("Ivan",)


def test_www_departed_hunter_reads_the_cemetery():
    """WWW-D21: the departed hunter may use the Cemetery (option departed_cemetery_access)."""
    state = www()
    play(state, "N0")
    play(state, "D1", votes=[{"voter": "Sam", "target": "Carla"}])
    assert channels(state)["cimitero"].members == ("Carla", "Cac")
    state = www(departed_cemetery_access=False)
    play(state, "N0")
    play(state, "D1", votes=[{"voter": "Sam", "target": "Carla"}])
    assert channels(state)["cimitero"].members == ("Carla",)


def test_inq_channels():
    """INQ-R2, INQ-R3, INQ-R4, INQ-R8, INQ-D17, INQ-D18: the Guards' pair (INQ-R36), the
    Lupi Mannari without the Lupo Scorbutico (INQ-R53, INQ-R56), the Cemetery with the
    living Becchino reading only (INQ-R33)."""
    state = inq()
    now = channels(state)
    assert set(now) == {"guardie", "branco", "cimitero"}
    assert now["guardie"].members == ("Gina", "Gianni")
    assert now["branco"].members == ("Luca", "Lia", "Leo")
    assert now["cimitero"].readers == ("Becco",)
    play(state, "N0")
    play(state, "D1", votes=[{"voter": "Carlo", "target": "Becco"}])
    now = channels(state)
    assert now["cimitero"].members == ("Becco",)
    assert now["cimitero"].readers == ()


def test_will_deadlines():
    """WWW-R17, WWW-R46, WWW-D23: night deaths by noon, day deaths by 22:30; loners write
    none (WWW-R44)."""
    state = www()
    rules = ruleset_for("wild-west-wolf")
    play(state, "N0")
    play(state, "D1", votes=[{"voter": "Sam", "target": "Gino"}])
    play(state, "N1", actions=[{"actor": "Ivan", "target": "Anna"}])
    play(state, "D2", votes=[{"voter": "Sam", "target": "Pia"}])
    assert rules.will_deadline(state, "Gino") == ("D1", "22:30")
    assert rules.will_deadline(state, "Anna") == ("D2", "12:00")
    assert rules.will_deadline(state, "Pia") is None
    assert rules.will_deadline(state, "Sam") is None


def test_will_is_cut_after_the_150th_word():
    """WWW-R45, WWW-D22: words after the 150th are not reported."""
    state = www()
    play(state, "N0")
    text = " ".join(f"w{i}" for i in range(163))
    play(state, "D1", votes=[{"voter": "Sam", "target": "Gino"}], wills={"Gino": text})
    assert state.wills["Gino"].split() == [f"w{i}" for i in range(150)]


def test_notaio_without_eligible_recipient_cannot_deliver():
    """WWW-R48: once every living player has received wills, no delivery is possible."""
    state = www()
    rules = ruleset_for("wild-west-wolf")
    play(state, "N0")
    play(state, "D1")
    others = [p.name for p in state.players if p.name != "Nora"]
    state.targets[("deliver", "Nora")] = PastTargets(0, others[-1], others)
    assert rules.legal_targets(state, "Nora") == []


def test_bounty_draw_is_seeded_and_among_the_seven_eligible():
    """WWW-R79, WWW-D21: uniform among Maresciallo, Pastore, Maestrina, Vicesceriffo and
    the three Cowboys; the same seed gives the same target."""
    from tests.roles.engine.helpers import WWW_TABLE

    rules = ruleset_for("wild-west-wolf")
    seen = set()
    for seed in range(300):
        state, _ = rules.new_game(WWW_TABLE, seed=seed)
        again, _ = rules.new_game(WWW_TABLE, seed=seed)
        assert state.draws == again.draws
        seen.add(state.draws["bounty_target"])
    assert seen == {"Mar", "Pao", "Mia", "Vito", "Carla", "Gino", "Anna"}


def test_www_win_formulas_on_crafted_tables():
    """WWW-R28, R29, R30, WWW-D24 (no Indian alive: never an Indian win)."""
    rules = ruleset_for("wild-west-wolf")
    state = www()
    assert rules.winning_factions(state) is None
    kill(state, "Capo", "Sara", "Ivan")
    assert rules.winning_factions(state) == ["legge"]
    kill(state, "Sam")
    assert rules.winning_factions(state) == ["fuorilegge"]
    kill(state, "Bruno", "Pietro")
    assert rules.winning_factions(state) == ["legge"]  # no outlaws left: R28
    everyone = www()
    kill(everyone, *[p.name for p in everyone.players])
    assert rules.winning_factions(everyone) == ["legge"]  # D24: |I| = |A| = 0
    parity = www()
    kill(parity, "Mar", "Pao", "Mia", "Nora", "Vito", "Carla", "Gino", "Anna")
    assert rules.winning_factions(parity) is None  # 3 Indians vs Sam, Bruno, Pietro, Pia
    kill(parity, "Pia")
    assert rules.winning_factions(parity) == ["indiani"]  # the hunter counts Neutrale (R26)


def test_inq_win_formulas_on_crafted_tables():
    """INQ-R22, R23, R24, INQ-D16 (the village condition first when nobody is alive)."""
    rules = ruleset_for("inquisizione")
    state = inq()
    kill(state, "Luca", "Lia", "Leo", "Zeno")
    assert rules.winning_factions(state) == ["eresia"]
    kill(state, "Sara", "Paolo", "Becco", "Gina", "Gianni")
    assert rules.winning_factions(state) == ["inquisizione"]
    kill(state, "Ivo", "Bea", "Tea")
    assert rules.winning_factions(state) == ["eresia"]
    nobody = inq()
    kill(nobody, *[p.name for p in nobody.players])
    assert rules.winning_factions(nobody) == ["eresia"]
