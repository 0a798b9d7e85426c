"""Written positions: a set-up (vehicles with facings, obstacles) plus, optionally, the
turn, the seat to move and where the turn stands (docs/rules/electron-gladiators.md,
"Positions"), loaded with ``--position FILE``, played, recorded and replayed; errors
name the file, the line and the field."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from eg_helpers import GAME, setup_text, where
from typer.testing import CliRunner

from gladiatorium.cli.main import app
from gladiatorium.core import OptionsError
from gladiatorium.core.record import record_of, replay, verify
from gladiatorium.games.electron_gladiators import ElectronGladiatorsState
from gladiatorium.games.electron_gladiators.setups import format_setup, parse_setup

runner = CliRunner()

#: seat 2 to move in turn 7: its heavy tank on K15 faces the seat-1 light tank on K12
PUZZLE = setup_text(["1 LT K12 E", "1 MQ C3 -", "2 HT2 K15 N"], obstacles="C3") + (
    "turn 7\nto-move 2\n"
)


def puzzle() -> ElectronGladiatorsState:
    state = GAME.start(None, None, 3, position=PUZZLE, source="puzzle.txt")
    assert isinstance(state, ElectronGladiatorsState)
    return state


def test_a_position_names_the_turn_and_the_seat_to_move() -> None:
    state = puzzle()
    assert state.awaiting() == ("2",) and state.turn == 7
    assert where(state) == {"K12": "1 LT E", "C3": "1 MQ None", "K15": "2 HT2 N"}
    assert "fire K15 at K12" in {str(a) for a in state.legal_actions("2")}


def test_a_position_is_played_recorded_and_replayed() -> None:
    """The heavy tank's gun 5 beats the light tank's side armour 1; the record keeps
    the position and replays alone."""
    state = puzzle()
    state.act("2", "fire K15 at K12")
    assert "K12" not in where(state)
    record = record_of(GAME, state)
    assert record.position == PUZZLE and record.options["setup"] == PUZZLE
    assert verify(record, replay(record)) == []


def test_the_position_lines_round_trip_and_errors_name_the_line() -> None:
    assert parse_setup(format_setup(parse_setup(PUZZLE))) == parse_setup(PUZZLE)
    with pytest.raises(OptionsError, match=r"puzzle\.txt line 28: to-move: expected seat 1 or 2"):
        GAME.start(
            None, None, 0, position=PUZZLE.replace("to-move 2", "to-move 3"), source="puzzle.txt"
        )
    with pytest.raises(OptionsError, match=r"puzzle\.txt line 27: turn: expected a whole number"):
        GAME.start(None, None, 0, position=PUZZLE.replace("turn 7", "turn 0"), source="puzzle.txt")


def test_cli_legal_and_simulate_start_from_a_position_file(tmp_path: Path) -> None:
    file = tmp_path / "puzzle.txt"
    file.write_text(PUZZLE)
    legal = runner.invoke(app, ["legal", "electron-gladiators", "--position", str(file), "--json"])
    assert legal.exit_code == 0, legal.output
    assert json.loads(legal.output)["awaiting"] == ["2"]
    sims = runner.invoke(
        app,
        ["simulate", "electron-gladiators", "--position", str(file), "--games", "2", "--json"],
    )
    assert sims.exit_code == 0, sims.output
    assert json.loads(sims.output)["games"] == 2


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("quiet many", "line 29: quiet: expected a whole number of at least 0"),
        ("mover Z99", "line 29: mover: 'Z99' is not a square"),
        ("mover K12", "line 29: mover: no vehicle of seat 2 on K12"),
        ("mover K15\nspent 4", "line 30: spent: 4 is more than the HT2's speed 3"),
        ("spent 2", "line 29: spent: name the 'mover' or write 'move-over'"),
        ("mover K15\nfree-turn", "line 30: free-turn: the mover is no Scout"),
        ("free-turn first", "line 29: free-turn: write 'free-turn' or 'free-turn last'"),
        ("attacked twice", "line 29: attacked: takes nothing more, has 'twice'"),
        ("dodge K12", "line 29: dodge: no Scout of the seat not to move on K12"),
        ("dice: 3 7", "line 29: dice: '3 7' are not dice of 1 to 6"),
        ("result 3 knockout", "line 29: result: write 'result SEAT knockout'"),
        ("result draw", "line 29: result: write 'result SEAT knockout' or 'result draw"),
        ("result 2 knockout", "puzzle.txt: seat 1 has vehicles, yet the result says it lost all"),
        ("moved K12", "line 29: expected 'name', 'map', 'vehicle', 'turn', 'to-move' or a "),
    ],
)
def test_a_bad_turn_line_names_the_file_the_line_and_the_field(line: str, message: str) -> None:
    with pytest.raises(OptionsError, match=re.escape(message)):
        GAME.start(None, None, 0, position=f"{PUZZLE}{line}\n", source="puzzle.txt")


def test_a_scout_with_nowhere_to_dodge_is_refused_with_its_line() -> None:
    """The Scout on A1 faces north, off the arena: no square to dodge to (R19)."""
    body = setup_text(["1 SC A1 N", "2 HT2 K15 N"]) + "to-move 2\nattacked\ndodge A1\n"
    with pytest.raises(
        OptionsError, match=r"^corner\.txt line 28: dodge: the Scout on A1 has nowhere to dodge$"
    ):
        GAME.start(None, None, 0, position=body, source="corner.txt")
