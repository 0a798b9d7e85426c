"""The arena, the vehicle table and set-up files."""

from __future__ import annotations

from pathlib import Path

import pytest
from eg_helpers import GAME, arena, setup_text, where

from gladiatorium.core import IllegalAction, OptionsError
from gladiatorium.games.electron_gladiators.board import (
    FACINGS,
    distance,
    in_arc,
    line_offsets,
    parse_square,
    square_name,
)
from gladiatorium.games.electron_gladiators.setups import (
    SHIPPED,
    SetupError,
    parse_setup,
    shipped_text,
)
from gladiatorium.games.electron_gladiators.vehicles import TYPES


def test_arena_is_21_by_21_columns_a_to_u_rows_1_to_21() -> None:
    assert parse_square("A1") == (0, 0)
    assert parse_square("u21") == (20, 20)
    assert square_name((10, 10)) == "K11"
    for bad in ("V1", "A0", "A22", "11", ""):
        with pytest.raises(IllegalAction):
            parse_square(bad)


def test_facings_are_45_degree_steps() -> None:
    assert FACINGS == ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


def test_vehicle_table_values() -> None:
    """Speed, armour front-sides-rear, gun, parabolic band, direct range, telemetry."""
    table = {
        code: (t.speed, t.armour, t.gun, t.parabolic, t.direct, t.telemetry)
        for code, t in TYPES.items()
    }
    assert table == {
        "INV": (4, (3, 3, 3), 0, None, 0, 10),
        "HT2": (3, (4, 3, 2), 5, (2, 7), 9, 9),
        "HT1": (3, (4, 3, 2), 4, (2, 7), 9, 9),
        "MT2": (4, (3, 2, 1), 4, (2, 5), 7, 7),
        "MT1": (4, (3, 2, 1), 3, (2, 5), 7, 7),
        "LT": (5, (2, 1, 1), 2, None, 5, 5),
        "SC": (7, (0, 0, 0), 1, None, 5, 5),
        "MQ": (5, (0, 0, 0), 1, (2, 8), 8, 8),
    }
    assert {c for c, t in TYPES.items() if t.flyer} == {"INV", "MQ"}


def test_distance_counts_a_diagonal_step_as_one_space() -> None:
    """Ruling R4: spaces are counted as king moves."""
    assert distance(parse_square("A1"), parse_square("D3")) == 3


def test_arc_is_90_degrees_flat_side_bounded_by_diagonals() -> None:
    """Facing a flat side, the diagonals bound the arc."""
    g9 = parse_square("G9")
    south = FACINGS.index("S")
    assert in_arc(g9, south, parse_square("G15"))
    assert in_arc(g9, south, parse_square("A15"))  # on the diagonal
    assert not in_arc(g9, south, parse_square("A14"))
    assert not in_arc(g9, south, parse_square("G3"))


def test_arc_facing_a_corner_is_bounded_by_row_and_column() -> None:
    """Facing diagonally, the row and column through the vehicle bound the arc."""
    g9 = parse_square("G9")
    se = FACINGS.index("SE")
    assert in_arc(g9, se, parse_square("U9"))
    assert in_arc(g9, se, parse_square("G21"))
    assert in_arc(g9, se, parse_square("K20"))
    assert not in_arc(g9, se, parse_square("F12"))


def test_line_of_fire_squares_and_diagonal_gaps() -> None:
    crossed, gaps = line_offsets(3, 0)
    assert crossed == ((1, 0), (2, 0)) and gaps == ()
    crossed, gaps = line_offsets(2, 2)
    assert crossed == ((1, 1),)
    assert ((0, 1), (1, 0)) in gaps or ((1, 0), (0, 1)) in gaps


def test_shipped_setups_hold_the_texts_vehicles_and_x_obstacles() -> None:
    basic1 = parse_setup(shipped_text("basic-1"))
    assert {square_name(s) for s in basic1.walls} == {
        "P5",
        "F7",
        "U9",
        "J10",
        "H11",
        "N11",
        "A12",
        "L12",
        "P15",
        "F17",
    }
    placed = {square_name(v.square): (v.seat, v.code) for v in basic1.vehicles}
    assert placed["A1"] == ("1", "INV") and placed["U21"] == ("2", "INV")
    assert placed["G7"] == ("1", "SC") and placed["O15"] == ("2", "SC")
    assert placed["P3"] == ("1", "MQ") and placed["F19"] == ("2", "MQ")
    assert len(basic1.vehicles) == 22


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_shipped_setup_is_balanced_and_its_obstacles_identical_from_each_side(name: str) -> None:
    """Same number and type of vehicles each side; our regular-obstacle layout maps
    onto itself under a half-turn (identical from each player's view, ruling R1)."""
    setup = parse_setup(shipped_text(name))
    per_seat = {
        seat: sorted(v.code for v in setup.vehicles if v.seat == seat) for seat in ("1", "2")
    }
    assert per_seat["1"] == per_seat["2"]
    assert setup.obstacles == {(20 - c, 20 - r) for c, r in setup.obstacles}
    assert 24 <= len(setup.obstacles) <= 28
    state = GAME.start({"setup": name}, None, 1)
    assert all(state.steps_for(v) for v in state.arena.vehicles.values())  # none boxed in
    assert all(
        v.facing == FACINGS.index("S")
        for v in setup.vehicles
        if v.seat == "1" and v.facing is not None
    )


def test_deluxe_2_gets_the_missing_second_mosquito() -> None:
    """Ruling R2: the figure gives seat 2 one Mosquito; we add Q19."""
    setup = parse_setup(shipped_text("deluxe-2"))
    assert [square_name(v.square) for v in setup.vehicles if v.code == "MQ" and v.seat == "2"] == [
        "F19",
        "Q19",
    ]


def test_setup_errors_name_the_line() -> None:
    text = setup_text(["1 HT1 A1 S", "2 HT1 A21 N"]).replace(
        "vehicle 2 HT1 A21 N", "vehicle 2 TANK A21 N"
    )
    with pytest.raises(SetupError, match=r"line 25: unknown vehicle type 'TANK'"):
        parse_setup(text)
    with pytest.raises(SetupError, match="line 24: the HT1 on A1 stands on an obstacle"):
        parse_setup(setup_text(["1 HT1 A1 S", "2 HT1 A21 N"], obstacles="A1"))
    with pytest.raises(SetupError, match="line 24: the MQ on A1 stands on a 3D obstacle"):
        parse_setup(setup_text(["1 MQ A1 -", "2 HT1 A21 N"], walls="A1"))
    second = r"line 25: a second vehicle on A1 \(the first is on line 24\)"
    with pytest.raises(SetupError, match=second):
        parse_setup(setup_text(["1 HT1 A1 S", "2 HT1 A1 N"]))
    with pytest.raises(SetupError, match="needs a facing"):
        parse_setup(setup_text(["1 HT1 A1", "2 HT1 A21 N"]))
    with pytest.raises(SetupError, match="seat 2 has no vehicle"):
        parse_setup(setup_text(["1 HT1 A1 S"]))
    with pytest.raises(SetupError, match="line 5: map row 3 must be 21 characters"):
        parse_setup(setup_text(["1 HT1 A1 S"]).replace("3 .....", "3 ..Z.."))
    with pytest.raises(SetupError, match="line 2: the map needs 21 rows, the file ends after 20"):
        parse_setup("\n".join(setup_text(["1 HT1 A1 S"]).splitlines()[:22]))
    with pytest.raises(SetupError, match="no 'map' line"):
        parse_setup("name empty\nvehicle 1 HT1 A1 S\n")
    with pytest.raises(SetupError, match=r"line 24: a second map \(the first is on line 2\)"):
        parse_setup(setup_text(["1 HT1 A1 S"]).replace("vehicle 1 HT1 A1 S", "map"))


def test_setup_file_errors_name_the_file_and_the_line(tmp_path: Path) -> None:
    """A player's own set-up file: every error names the file, and the line when
    one line is at fault; nothing starts."""
    file = tmp_path / "arena.txt"
    file.write_text(setup_text(["1 HT1 A1 S", "2 HT1 A1 N"]))
    with pytest.raises(OptionsError, match=r"arena.txt line 25: a second vehicle on A1"):
        GAME.terminal.cli_options({"setup": [str(file)]})
    file.write_bytes(b"\xff\xfe not text")
    with pytest.raises(OptionsError, match=r"arena.txt:1: not UTF-8 text"):
        GAME.terminal.cli_options({"setup": [str(file)]})
    file.write_text("\ufeff" + setup_text(["1 HT1 A1 S", "2 HT1 A21 N"]), encoding="utf-8")
    assert "name test arena" in GAME.terminal.cli_options({"setup": [str(file)]})["setup"]


def test_players_load_their_own_setup_inline_or_from_a_file(tmp_path: Path) -> None:
    text = setup_text(["1 LT K5 S", "2 LT K15 N"], obstacles="K10")
    state = arena(["1 LT K5 S", "2 LT K15 N"], obstacles="K10")
    assert where(state) == {"K5": "1 LT S", "K15": "2 LT N"}
    file = tmp_path / "mine.txt"
    file.write_text(text)
    values = GAME.terminal.cli_options({"setup": [str(file)]})
    assert values == {"setup": text}
    with pytest.raises(OptionsError, match="cannot read"):
        GAME.terminal.cli_options({"setup": [str(tmp_path / "missing.txt")]})
    with pytest.raises(OptionsError, match="not a shipped set-up"):
        GAME.start({"setup": "basic-9"})
