"""Written positions: a set-up (vehicles with facings, obstacles) plus, optionally, the
turn and the seat to move (docs/rules/electron-gladiators.md, "Set-ups"), loaded with
``--position FILE``, played, recorded and replayed; errors name the file and line."""

from __future__ import annotations

import json
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
