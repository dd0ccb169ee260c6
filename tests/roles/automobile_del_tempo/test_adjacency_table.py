"""The rules file's "Adjacency summary" table (from ADT-R4..R10, R18..R20), cell by cell:
each cell is played on a small train and the checker's answer must say what the cell
says (yes or no) with a rule the cell cites. The transcription below is checked against
the file itself, so a change to the table fails here first."""

from __future__ import annotations

import re

import pytest

from roles.automobile_del_tempo.rounds import event_moves
from tests.roles.automobile_del_tempo.helpers import ask, table
from tests.roles.automobile_del_tempo.rules_file import rules_text

COLUMNS = ("Move / Ride", "Fire", "Punch (victim moved to)", "Forced moves")
ROWS = {
    "Locomotive roof → Time Car": (
        "yes (R4)", "yes, within Line of Sight (R6)", "yes (R9)",
        "Django's shot from the train (R19); Braking (R20)",
    ),
    "Locomotive interior → Time Car": ("yes (R4)", "yes (R7)", "yes (R9)", "—"),
    "Roof of any Car → Time Car": ("movement: ADT-D1", "yes, within Line of Sight (R6)", "—", "—"),
    "Stagecoach roof ↔ Time Car": ("—", "yes, both ways (R8)", "—", "—"),
    "Time Car → Locomotive interior": ("yes (R4)", "yes (R7)", "**only destination** (R10)", "—"),
    "Time Car → Locomotive roof": ("yes (R4)", "yes (R6, ADT-D2)", "**never** (R10)", "—"),
    "Marshal": ("never enters (R18)", "—", "—", "—"),
}  # fmt: skip


def file_table() -> dict[str, tuple[str, ...]]:
    section = rules_text().split("### Adjacency summary", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    header = tuple(c.strip() for c in rows[0].strip("|").split("|"))
    assert header == ("From → To", *COLUMNS)
    table_rows = {}
    for line in rows[2:]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        table_rows[cells[0]] = tuple(cells[1:])
    return table_rows


def test_the_transcription_is_the_rules_files_table():
    assert file_table() == ROWS


def loco_roof_move():
    return ask(table(Ada="locomotive:roof", Bea="car2:interior"), "move", "Ada", to="time_car")


def loco_roof_forced():
    """Django's shot (R19) and Braking (R20) both put the Locomotive's roof in the Time Car."""
    game = table(Django="car2:roof", Bea="locomotive:roof")
    shot = ask(game, "fire", "Django", target="Bea")
    braking = event_moves(game, "braking")
    assert [(m.figure, m.to, m.rule) for m in braking] == [
        ("Django", "car1:roof", None), ("Bea", "time_car", "ADT-R20"),
    ]  # fmt: skip
    assert [(m.figure, m.to) for m in shot.moved] == [("Bea", "time_car")]
    return shot


def no_forced_move(place):
    """Nothing the rules force moves this place into the Time Car (Braking moves roofs)."""

    def case():
        game = table(Ada=place, Bea="car4:interior", hs=True)
        assert all(m.to != "time_car" for m in event_moves(game, "braking"))
        return None

    return case


CASES = {
    ("Locomotive roof → Time Car", 0): loco_roof_move,
    ("Locomotive roof → Time Car", 1): lambda: ask(
        table(Ada="locomotive:roof", Bea="time_car"), "fire", "Ada", target="Bea"),
    ("Locomotive roof → Time Car", 2): lambda: ask(
        table(Ada="locomotive:roof", Bea="locomotive:roof"), "punch", "Ada", target="Bea",
        to="time_car"),
    ("Locomotive roof → Time Car", 3): loco_roof_forced,
    ("Locomotive interior → Time Car", 0): lambda: ask(
        table(Ada="locomotive:interior", Bea="car2:interior"), "move", "Ada", to="time_car"),
    ("Locomotive interior → Time Car", 1): lambda: ask(
        table(Ada="locomotive:interior", Bea="time_car"), "fire", "Ada", target="Bea"),
    ("Locomotive interior → Time Car", 2): lambda: ask(
        table(Ada="locomotive:interior", Bea="locomotive:interior"), "punch", "Ada",
        target="Bea", to="time_car"),
    ("Locomotive interior → Time Car", 3): no_forced_move("locomotive:interior"),
    ("Roof of any Car → Time Car", 0): lambda: ask(
        table(Ada="car2:roof", Bea="car4:interior"), "move", "Ada", to="time_car"),
    ("Roof of any Car → Time Car", 1): lambda: ask(
        table(Ada="car4:roof", Bea="time_car"), "fire", "Ada", target="Bea"),
    ("Roof of any Car → Time Car", 2): lambda: ask(
        table(Ada="car1:roof", Bea="car1:roof"), "punch", "Ada", target="Bea", to="time_car"),
    ("Roof of any Car → Time Car", 3): no_forced_move("car2:roof"),
    ("Stagecoach roof ↔ Time Car", 0): lambda: ask(
        table(Ada="stagecoach:roof", Bea="car4:interior", hs=True), "move", "Ada",
        to="time_car"),
    ("Stagecoach roof ↔ Time Car", 1): lambda: ask(
        table(Ada="time_car", Bea="stagecoach:roof", hs=True), "fire", "Ada", target="Bea"),
    ("Stagecoach roof ↔ Time Car", 2): lambda: ask(
        table(Ada="stagecoach:roof", Bea="stagecoach:roof", hs=True), "punch", "Ada",
        target="Bea", to="time_car"),
    ("Stagecoach roof ↔ Time Car", 3): no_forced_move("stagecoach:roof"),
    ("Time Car → Locomotive interior", 0): lambda: ask(
        table(Ada="time_car", Bea="car4:interior"), "move", "Ada", to="locomotive:interior"),
    ("Time Car → Locomotive interior", 1): lambda: ask(
        table(Ada="time_car", Bea="locomotive:interior"), "fire", "Ada", target="Bea"),
    ("Time Car → Locomotive interior", 2): lambda: ask(
        table(Ada="time_car", Bea="time_car"), "punch", "Ada", target="Bea",
        to="locomotive:interior"),
    ("Time Car → Locomotive interior", 3): no_forced_move("time_car"),
    ("Time Car → Locomotive roof", 0): lambda: ask(
        table(Ada="time_car", Bea="car4:interior"), "move", "Ada", to="locomotive:roof"),
    ("Time Car → Locomotive roof", 1): lambda: ask(
        table(Ada="time_car", Bea="locomotive:roof"), "fire", "Ada", target="Bea"),
    ("Time Car → Locomotive roof", 2): lambda: ask(
        table(Ada="time_car", Bea="time_car"), "punch", "Ada", target="Bea",
        to="locomotive:roof"),
    ("Time Car → Locomotive roof", 3): no_forced_move("time_car"),
    ("Marshal", 0): lambda: ask(table(Ada="car1:interior", Bea="car2:interior"), "marshal",
                                to="time_car"),
}  # fmt: skip
# A dash under Fire, Punch or Forced moves for the Marshal: he is never fired at, punched
# or forced anywhere (base game), so there is nothing to play.
MARSHAL_DASHES = {("Marshal", 1), ("Marshal", 2), ("Marshal", 3)}


def cited(cell: str) -> set[str]:
    return {f"ADT-{n}" for n in re.findall(r"\b([RD]\d+)", cell)}


@pytest.mark.parametrize(
    ("row", "column"),
    sorted(CASES),
    ids=[f"{row} | {COLUMNS[column]}" for row, column in sorted(CASES)],
)
def test_every_cell_of_the_adjacency_summary(row, column):
    cell = ROWS[row][column]
    answer = CASES[(row, column)]()
    if cell == "—":
        assert answer is None or not answer.allowed, f"{row} / {COLUMNS[column]}: {answer}"
        return
    allowed = not re.match(r"\W*(never)", cell)
    assert answer.allowed is allowed, f"{row} / {COLUMNS[column]}: {answer}"
    assert answer.rule in cited(cell), f"{answer.rule} not among {cited(cell)}"


def test_every_cell_is_played():
    assert set(CASES) | MARSHAL_DASHES == {(r, c) for r in ROWS for c in range(len(COLUMNS))}
