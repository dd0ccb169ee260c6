"""`manage.py replay` on a Time Car game, from outside (docs/replay-automobile-del-tempo.md):
JSON on stdout and exit 0, or exit 2 with one line on stderr naming the round, the Bandit
and the rule, and nothing on stdout. The whole recorded game is in tests/scenarios/games/
(replayed against its recorded report by test_replay_command.py)."""

from __future__ import annotations

import json
import re

import yaml

from tests.conftest import ROOT
from tests.roles.commands import replay

GAME = {
    "setup": "automobile-del-tempo",
    "train": {"cars": 3, "rounds": 3},
    "bandits": {"Ada": "django", "Bea": {"character": "belle", "start": "car2:interior"},
                "Cid": "tuco"},
    "rounds": [
        {"round": 1, "moves": [{"change_floor": "Bea"}, {"move": "Bea", "to": "car1:roof"},
                               {"move": "Bea", "to": "time_car"}],
         "hide": {"bandit": "Bea", "under": "car3"}},
        {"round": 2, "moves": [{"change_floor": "Ada"}, {"move": "Ada", "to": "car1:roof"}]},
        {"round": 3, "moves": [{"move": "Ada", "to": "time_car"}], "event": "braking"},
    ],
}  # fmt: skip


def test_the_report_has_positions_the_hiding_the_reveal_and_the_bonus(tmp_path):
    """ADT-D1, R14, D5, R16, R17, D7 through the command line."""
    result = replay(tmp_path, GAME)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert set(report) == {"setup", "train", "options", "bandits", "start", "rounds", "end"}
    assert report["train"] == {
        "cars": 3, "horses_and_stagecoach": False, "stagecoach": None, "rounds": 3,
    }  # fmt: skip
    assert report["start"]["positions"] == {
        "Ada": "car3:interior", "Bea": "car2:interior", "Cid": "car3:interior",
    }  # fmt: skip
    one, two, three = report["rounds"]
    assert one["hid"] == {"bandit": "Bea", "under": "car3"}
    assert one["positions"]["Bea"] is None
    assert one["time_car"] == {"bandits": [], "loot": []}
    assert one["moves"][2]["rule"] == "ADT-D1"
    assert two["reveal"] == {"bandit": "Bea", "under": "car3", "at": "car3:interior"}
    assert three["hid"] is None
    assert three["event"] == {"name": "braking", "moved": []}
    assert three["positions"] == {"Ada": "time_car", "Bea": "car3:interior", "Cid": "car3:interior"}
    assert report["end"] == {
        "time_car": ["Ada"], "bonus": {"bandit": "Ada", "money": 500, "loot": [], "value": 500},
        "unclaimed_loot": [], "rule": "ADT-R17",
    }  # fmt: skip


def test_text_prints_the_public_posts(tmp_path):
    result = replay(tmp_path, GAME, "--text")
    assert result.returncode == 0, result.stderr
    assert "Fine del round 1: Bea era solo nell'Automobile del Tempo" in result.stdout
    assert "Bea riappare nell'interno del Vagone 3." in result.stdout
    assert "Ada è solo nell'Automobile del Tempo e ottiene $500" in result.stdout


def test_an_illegal_move_exits_2_naming_the_round_the_bandit_and_the_rule(tmp_path):
    """ADT-R4: from a car's interior the Time Car is not adjacent."""
    bad = {**GAME, "rounds": [*GAME["rounds"][:1], {"round": 2, "moves": [
        {"move": "Cid", "to": "time_car"}]}]}  # fmt: skip
    result = replay(tmp_path, bad)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == (
        "Round 2: Cid (tuco) cannot move between the interior of car 3 and the Time Car: "
        "the Time Car is adjacent only to the Locomotive's roof and interior [ADT-R4]\n"
    )


def test_a_bandit_alone_who_does_not_hide_exits_2(tmp_path):
    """ADT-R14: alone at the end of a round (not the last) he must hide."""
    bad = {**GAME, "rounds": [{**GAME["rounds"][0], "hide": None}]}
    result = replay(tmp_path, bad)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == (
        "Round 1: Bea (belle) is alone in the Time Car at the end of the round: "
        "he must choose where to hide [ADT-R14]\n"
    )


def test_hiding_on_the_last_round_exits_2(tmp_path):
    """ADT-D4."""
    last = {**GAME["rounds"][2], "event": None, "hide": {"bandit": "Ada", "under": "car1"}}
    result = replay(tmp_path, {**GAME, "rounds": [*GAME["rounds"][:2], last]})
    assert result.returncode == 2
    assert result.stderr == "Round 3: Ada (django) cannot hide on the last round [ADT-D4]\n"


def test_the_marshal_exits_2_with_his_rule(tmp_path):
    """ADT-R18."""
    bad = {**GAME, "rounds": [{"round": 1, "moves": [{"marshal": "time_car"}]}]}
    result = replay(tmp_path, bad)
    assert result.returncode == 2
    assert result.stderr == "Round 1: Marshal can never enter the Time Car [ADT-R18]\n"


def test_a_start_in_the_time_car_exits_2(tmp_path):
    """ADT-R3 with Horses & Stagecoach (the Horse Attack), ADT-R2 without."""
    bandits = {**GAME["bandits"], "Cid": {"character": "tuco", "start": "time_car"}}
    horses = {**GAME, "train": {**GAME["train"], "horses_and_stagecoach": True}, "bandits": bandits}
    result = replay(tmp_path, horses)
    assert result.returncode == 2
    assert result.stderr == (
        "setup: Cid (tuco) cannot be placed in the Time Car during the Horse Attack [ADT-R3]\n"
    )
    result = replay(tmp_path, {**GAME, "bandits": bandits})
    assert result.stderr == "setup: Cid (tuco) cannot start the game in the Time Car [ADT-R2]\n"


def test_a_malformed_file_exits_2_with_one_line(tmp_path):
    for bad in (
        {**GAME, "rounds": [{"round": 2}]},
        {**GAME, "rounds": [{"round": 1, "moves": [{"jump": "Ada"}]}]},
        {**GAME, "rounds": [{"round": 1, "moves": [{"move": "Ada", "to": "car9:roof"}]}]},
        {**GAME, "bandits": {"Ada": "django", "Bea": "django"}},
        {**GAME, "train": {"cars": 3, "wheels": 8}},
    ):
        result = replay(tmp_path, bad)
        assert result.returncode == 2, bad
        assert result.stdout == ""
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr


DOC = ROOT / "docs" / "replay-automobile-del-tempo.md"


def doc_blocks(kind: str) -> list[str]:
    return re.findall(rf"```{kind}\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)


def test_the_documented_example_prints_the_documented_report(tmp_path):
    """The doc's complete example (its second YAML block) gives the doc's JSON exactly."""
    scenario = yaml.safe_load(doc_blocks("yaml")[1])
    result = replay(tmp_path, scenario)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == json.loads(doc_blocks("json")[0])


def test_the_documented_input_form_replays(tmp_path):
    """The input section's annotated file is a legal game too."""
    result = replay(tmp_path, yaml.safe_load(doc_blocks("yaml")[0]))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["rounds"][0]["hid"] == {"bandit": "Bea", "under": "car2"}
