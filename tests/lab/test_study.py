"""The balance study's pure part (roles/balance/study.py, stats.py, informed.py;
docs/balance.md): figures against a setup whose answer is known, the intervals against
published values, determinism by chunk, and the informed model's behaviour."""

from __future__ import annotations

import argparse
import io
import json

import pytest
from django.core.management import call_command

from roles.balance.informed import InformedModel, suspect_values
from roles.balance.parallel import run_parallel
from roles.balance.stats import mean_difference, mean_interval, newcombe, wilson
from roles.balance.study import CHUNK, Aggregate, Study, Variant, run_chunk, run_study
from roles.balance.study_report import compare, sentence, sentences, summary
from roles.engine.registry import ruleset_for
from roles.engine.simulate import random_game
from roles.simulate_cli import simulate


def test_wilson_and_newcombe_match_newcombe_1998():
    """Newcombe (1998), Statistics in Medicine 17: 81/263 gives 0.2553-0.3662 (Wilson);
    56/70 - 48/80 gives 0.0524-0.3339 (his method 10)."""
    low, high = wilson(81, 263)
    assert (round(low, 4), round(high, 4)) == (0.2553, 0.3662)
    d, low, high = newcombe(56, 70, 48, 80)
    assert (round(d, 4), round(low, 4), round(high, 4)) == (0.2, 0.0524, 0.3339)
    assert wilson(0, 0) == (0.0, 1.0)
    mean, low, high = mean_interval({2: 50, 4: 50})
    assert mean == 3
    assert low < 3 < high


@pytest.mark.parametrize("model", ["random", "informed"])
def test_win_rates_of_a_setup_known_exactly(model):
    """Sorte (tests/setups/coin_toss, CT-R2, CT-R3): the Rossi win exactly 2/3 of the games;
    the study's 95% intervals hold the true rates, fate's death is on day 0."""
    aggregate = run_study(Study(Variant("coin-toss"), 3000, model, seed=11))
    figures = summary(aggregate, "coin-toss")
    rates = {row["faction"]: row for row in figures["factions"]}
    assert figures["games"] == aggregate.games == 3000
    assert rates["rossi"]["count"] + rates["blu"]["count"] == 3000
    assert rates["rossi"]["low"] <= 2 / 3 <= rates["rossi"]["high"]
    assert rates["blu"]["low"] <= 1 / 3 <= rates["blu"]["high"]
    assert rates["rossi"]["high"] - rates["rossi"]["low"] < 0.04
    assert figures["deaths"] == {"sorte": [1.0]}
    assert figures["length"]["days"] == {0: 3000}
    # the Prescelto survives exactly when the Rossi win
    assert figures["survival"]["prescelto"] == [rates["rossi"]["count"] / 3000]


def test_a_swapped_card_changes_the_answer_and_the_comparison_says_so():
    """With a Gregario dealt instead of the Prescelto nobody is red: the Blu win always."""
    base = run_study(Study(Variant("coin-toss"), 1000, seed=3))
    swapped = run_study(Study(Variant("coin-toss", swap=("prescelto", "gregario")), 1000, seed=3))
    assert swapped.wins == {"blu": 1000}
    rows = {row["faction"]: row for row in compare(base, swapped, "coin-toss")}
    assert rows["blu"]["low"] <= 2 / 3 <= rows["blu"]["high"]
    assert rows["blu"]["significant"]
    blu = sentence(rows["blu"], "it")
    assert blu.startswith("Blu: vittorie ")
    assert "→ 100,0% delle partite (+6" in blu
    assert "punti percentuali; IC 95% da +" in blu
    assert "percentage points; 95% CI -" in sentence(rows["rossi"], "en")


def test_an_option_reaches_the_games():
    """CT-R2 switched off: fate strikes nobody, the day's votes decide."""
    aggregate = run_study(Study(Variant("coin-toss", {"ct.fate_strikes": False}), 200, seed=1))
    assert not any(key.startswith("sorte|") for key in aggregate.deaths)


def test_the_figures_do_not_depend_on_how_chunks_are_spread():
    study = Study(Variant("classic-village"), CHUNK * 2 + 37, "informed", seed=5)
    whole = run_study(study)
    backwards = Aggregate()
    for index in reversed(range(study.chunks)):
        backwards.merge(
            Aggregate.from_dict(json.loads(json.dumps(run_chunk(study, index).as_dict())))
        )
    assert backwards == whole
    assert whole.games == study.games
    assert run_parallel(study, 2) == whole


def test_the_informed_village_votes_for_a_revealed_wolf():
    """The informed model: an investigator's hit is public, the village votes for it, the
    wolves (a bloc told of each other at the deal) never vote for their own."""
    rules = ruleset_for("classic-village")
    assert suspect_values(rules) == {"lupo"}
    names = [f"P{i}" for i in range(8)]
    roles = ["lupo", "lupo", "veggente", "guardia", "villico", "villico", "villico", "villico"]
    state, start = rules.new_game(dict(zip(names, roles, strict=True)))
    import random

    model = InformedModel(rules, state, start, random.Random(1))
    assert model.bloc["P0"] == {"P0", "P1"}
    outcome = rules.play(state, "N0", actions=[])
    outcome.tell("P2", "investigation", "P0", "lupo")
    model.observe(outcome)
    votes = model.votes(list(state.players), None)
    by_voter = {v.voter: v.target for v in votes}
    assert all(by_voter[n] == "P0" for n in names[2:])
    assert by_voter["P0"] == by_voter["P1"]
    assert by_voter["P0"] not in ("P0", "P1")
    # the seer does not test P0 again
    vision = rules.card_abilities("veggente")[0]
    pool = model.pool(state.by_name["P2"], vision)
    assert "P0" not in pool
    assert "P3" in pool
    # a wolf's pool leaves his pack out
    maul = rules.card_abilities("lupo")[0]
    assert not {"P0", "P1"} & set(model.pool(state.by_name["P0"], maul))


def test_informed_games_are_legal_and_end():
    for setup in ("classic-village", "coin-toss"):
        for seed in range(20):
            state, _log = random_game(setup, seed, model=InformedModel)
            assert state.winning_factions


def test_the_command_prints_the_figures_as_json():
    out = io.StringIO()
    args = argparse.Namespace(
        setup="coin-toss",
        games=600,
        option=["fate_strikes=true"],
        swap=None,
        versus_option=[],
        versus_swap="prescelto:gregario",
        model="informed",
        jobs=2,
        seed=4,
        json=True,
        lang="it",
    )
    simulate(args, out)
    figures = json.loads(out.getvalue())
    assert figures["games"] == 600
    assert figures["versus"]["games"] == 600
    assert figures["versus"]["factions"][1]["count"] == 600
    assert figures["comparison_sentences"]["it"][1].startswith("Blu: vittorie ")


def test_the_command_names_the_cards_as_the_setup_does():
    out = io.StringIO()
    args = argparse.Namespace(
        setup="inquisizione", games=200, option=[], swap=None, versus_option=[],
        versus_swap=None, model="informed", jobs=1, seed=3, json=False, lang="it",
    )  # fmt: skip
    simulate(args, out)
    text = out.getvalue()
    assert "Poteri decisivi" in text
    assert "Inquisitore ha trovato un sospetto" in text
    assert "guardia_gemella" not in text
    assert "inquisitore ha" not in text


def test_the_comparison_speaks_of_every_result_that_moved():
    """Issue 30 major 6: beside the three factions (unchanged here), the sentences name the
    swapped-in loner's own win rate and the game's length, which both moved."""
    base = run_study(Study(Variant("wild-west-wolf"), 1000, "random", 1))
    rinnegato = Variant("wild-west-wolf", swap=("cowboy", "rinnegato"))
    other = run_study(Study(rinnegato, 1000, "random", 1))
    said = sentences(base, other, "wild-west-wolf", "it")
    assert [s.split(":")[0] for s in said[:3]] == ["Legge", "Fuorilegge", "Indiani"]
    assert said[3].startswith("Rinnegato (solitario) è in gioco solo nella seconda variante: "
                              "vi vince il 3")  # fmt: skip
    assert said[4].startswith("Durata media: 5,8 → 5,5 giorni (-0,3; IC 95% da -0,")
    english = sentences(base, other, "wild-west-wolf", "en")
    assert english[4].startswith("Mean length: 5.8 → 5.5 days")
    same = sentences(base, base, "wild-west-wolf", "it")
    assert same[-1] == "Nessun altro risultato cambia oltre il suo intervallo al 95%."


def test_the_difference_of_two_means():
    d, low, high = mean_difference({2: 50, 4: 50}, {3: 50, 5: 50})
    assert d == 1
    assert low < 1 < high
    assert high - 1 == pytest.approx(1 - low)


def test_the_django_command_runs_a_study_as_manage_py_does():
    """The simulate command through call_command (games/management/commands/simulate.py)
    reaches roles/simulate_cli.py through games/engine.py: Sorte's Rossi win 2/3 (CT-R3)."""
    out = io.StringIO()
    call_command("simulate", "coin-toss", "--games", "300", "--seed", "5", "--json", stdout=out)
    figures = json.loads(out.getvalue())
    assert figures["games"] == 300
    rossi = next(row for row in figures["factions"] if row["faction"] == "rossi")
    assert rossi["low"] <= 2 / 3 <= rossi["high"]
