"""`manage.py replay` on a BANG! log with Il Ribelle! (docs/replay-ribelle.md), from the
command line: JSON and exit 0, or exit 2 with one line naming the event and the rule."""

from __future__ import annotations

import json

import pytest
import yaml

from tests.roles import test_replay_command

SIX = {"Sam": "sceriffo", "Vic": "vice", "Olga": "fuorilegge", "Otto": "fuorilegge",
       "Rina": "rinnegato", "Reb": "ribelle"}  # fmt: skip
GAME = {
    "setup": "ribelle",
    "players": SIX,
    "events": [
        {"turn": "Reb"}, {"reveal": "Reb"}, {"turn": "Reb", "phase": 2},
        {"eliminated": "Sam", "by": "Reb", "card": "bang"},
        {"turn": "Vic"}, {"eliminated": "Vic", "by": "Olga", "card": "indiani"},
    ],
}  # fmt: skip


def replay(tmp_path, game, *args):
    """The Werewolf tests' runner, with the players kept in seating order (no key sorting)."""
    dump = yaml.safe_dump
    try:
        yaml.safe_dump = lambda data, **kw: dump(data, **{**kw, "sort_keys": False})
        return test_replay_command.replay(tmp_path, game, *args)
    finally:
        yaml.safe_dump = dump


EVENT_KEYS = ["event", "kind", "players", "turn", "sheriff", "in_play", "face_up", "ghosts",
              "over", "revolution", "penalty", "rulings"]  # fmt: skip


def test_replay_reports_each_event(tmp_path):
    """RIB-R9, RIB-R11: after each event the Sheriff, who is face-up, any Revolution."""
    result = replay(tmp_path, GAME)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert list(report) == ["setup", "start", "events", "over", "winning_side", "winners",
                            "players"]  # fmt: skip
    assert report["setup"] == "ribelle"
    events = report["events"]
    assert [e["kind"] for e in events] == ["turn", "reveal", "turn", "eliminated", "turn",
                                           "eliminated"]  # fmt: skip
    assert [k for k in events[3] if k in EVENT_KEYS] == EVENT_KEYS
    assert [e["sheriff"] for e in events] == ["Sam", "Sam", "Sam", "Reb", "Reb", "Reb"]
    assert events[1]["face_up"] == ["Sam", "Reb"]
    assert events[3]["revolution"]["rebel"] == "Reb"
    assert events[3]["during"] == "Reb"
    assert events[3]["turn"] == {"player": "Reb", "phase": 1}
    assert [e["over"] for e in events] == [False] * 6
    assert report["winners"] is None
    assert report["over"] is False
    assert report["players"][0] == {"name": "Sam", "role": "sceriffo", "plays_as": "ribelle",
                                    "in_play": False, "won": None}  # fmt: skip


def test_replay_stops_at_the_end_and_names_the_winners(tmp_path):
    """RIB-R16, RIB-D3: the Outlaws win; events after the end are not read."""
    game = {**GAME, "events": [{"turn": "Olga"}, {"eliminated": "Sam", "by": "Olga"},
                               {"turn": "Reb"}]}  # fmt: skip
    result = replay(tmp_path, game)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert len(report["events"]) == 2
    assert (report["over"], report["winning_side"], report["winners"]) == (
        True, "fuorilegge", ["Olga", "Otto"],
    )  # fmt: skip
    assert [p["won"] for p in report["players"]] == [False, False, True, True, False, False]


def test_players_as_a_list_are_dealt_by_the_seed(tmp_path):
    """RIB-R2: a list of names is dealt by the table with the seed, as the site deals."""
    from roles.ribelle.table import deal

    names = list(SIX)
    result = replay(tmp_path, {"setup": "ribelle", "seed": 5, "players": names})
    report = json.loads(result.stdout)
    dealt = deal(names, seed=5)
    assert {p["name"]: p["role"] for p in report["players"]} == dealt
    assert report["start"]["sheriff"] == next(n for n, r in dealt.items() if r == "sceriffo")


@pytest.mark.parametrize(
    ("game", "line"),
    [
        ({**GAME, "players": {**SIX, "Zed": "fuorilegge"}},
         "setup: Il Ribelle! is played with 4, 6, 8, 9, 10 players, not 7 [RIB-D1]"),
        ({**GAME, "players": {**SIX, "Vic": "fuorilegge"}},
         "setup: 6 players are dealt 1 sceriffo, 1 vice, 2 fuorilegge, 1 rinnegato, "
         "1 ribelle [RIB-R2]"),
        ({**GAME, "events": [{"turn": "Reb", "phase": 2}, {"reveal": "Reb"}]},
         "event 2 (reveal): Reb (ribelle) may reveal only at the end of phase 1 of his own "
         "turn [RIB-R9]"),
        ({**GAME, "events": [{"turn": "Sam"}, {"reveal": "Reb"}]},
         "event 2 (reveal): Reb (ribelle) may reveal only at the end of phase 1 of his own "
         "turn [RIB-R9]"),
        ({**GAME, "events": [{"turn": "Sam"}, {"eliminated": "Olga", "by": "Sam"},
                             {"turn": "Olga"}]},
         "event 3 (turn): Olga (fuorilegge) is out of play and cannot act [BANG-B2]"),
        ({**GAME, "events": [{"turn": "Sam"}, {"eliminated": "Olga", "by": "Sam"},
                             {"eliminated": "Vic", "by": "Olga"}]},
         "event 3 (eliminated): Olga (fuorilegge) is out of play and cannot act [BANG-B2]"),
        ({**GAME, "events": [{"turn": "Sam"}, {"eliminated": "Olga", "during": "Rina"}]},
         "event 2 (eliminated): Rina (rinnegato) the log says it is Sam's turn, not Rina's "
         "[RIB-D2]"),
        ({**GAME, "events": [{"turn": "Reb"}, {"reveal": "Reb"}, {"turn": "Olga"},
                             {"turn": "Reb"}, {"reveal": "Reb"}]},
         "event 5 (reveal): Reb (ribelle) is already face-up [RIB-D10]"),
    ],
)  # fmt: skip
def test_illegal_events_exit_2_with_one_line(tmp_path, game, line):
    """RIB-D1, RIB-R2, RIB-R9, RIB-D2, RIB-D10: one line naming the event and the rule."""
    result = replay(tmp_path, game)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == line + "\n"


@pytest.mark.parametrize(
    "events",
    [
        [{"turn": "Sam", "reveal": "Sam"}],
        [{"turn": "Sam"}, {"eliminated": "Olga", "card": "laser"}],
        [{"returns": "Sam", "via": "teleport"}],
        [{"turn": "Sam", "colour": "red"}],
    ],
)
def test_malformed_logs_exit_2(tmp_path, events):
    result = replay(tmp_path, {**GAME, "events": events})
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert result.stderr.startswith("event ")


def test_text_lists_the_rulings(tmp_path):
    result = replay(tmp_path, GAME, "--text")
    assert result.returncode == 0, result.stderr
    assert "4 eliminated: rib.revolution [RIB-R11]\n" in result.stdout
    assert result.stdout.endswith("over: False; side: None; winners: \n")


def test_the_documented_example_prints_the_documented_report(tmp_path):
    """docs/replay-ribelle.md: its example's input gives exactly the JSON it shows."""
    from tests.conftest import ROOT

    text = (ROOT / "docs" / "replay-ribelle.md").read_text(encoding="utf-8")
    example = text.split("## Example", 1)[1]
    source = example.split("```yaml\n", 1)[1].split("```", 1)[0]
    shown = json.loads(example.split("```json\n", 1)[1].split("```", 1)[0])
    result = replay(tmp_path, yaml.safe_load(source))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == shown
