"""The arena map: legend, geometry, line of sight, shipped maps (rules A1, A2)."""

from __future__ import annotations

import pickle

import pytest

from gladiatorium.core import OptionsError
from gladiatorium.core.match import make_bots, run_match
from gladiatorium.games.superhero_gladiators import GAME
from gladiatorium.games.superhero_gladiators.arena import (
    distance,
    parse_arena,
    parse_square,
    square_name,
)
from gladiatorium.games.superhero_gladiators.map_files import map_text, shipped_maps


def test_a1_distance_counts_diagonals_and_altitude() -> None:
    """A1: distance is the largest of column, row and altitude gaps."""
    assert distance((0, 0), (3, 2)) == 3
    assert distance((0, 0), (1, 1)) == 1
    assert distance((0, 0), (1, 0), 0, 2) == 2


def test_a1_square_names_round_trip() -> None:
    assert square_name((2, 3)) == "c4"
    assert parse_square("C4") == (2, 3)
    assert parse_square("4c") is None


def test_a1_walls_block_sight_but_not_the_end_squares() -> None:
    """A1: a wall strictly between two squares blocks line of sight."""
    arena = parse_arena("1.#.2\n.....")
    assert not arena.sees((0, 0), (4, 0))
    assert arena.sees((0, 1), (4, 1))
    assert arena.sees((0, 0), (2, 0))  # the wall square itself can be seen


def test_a2_legend_and_starts() -> None:
    """A2: '.' floor, '#' wall, '~' pit, '%' fire, digits are start floor; the edge is wall."""
    arena = parse_arena("1.#\n~%2")
    assert arena.terrain((0, 0)) == "."
    assert arena.terrain((2, 0)) == "#"
    assert arena.terrain((0, 1)) == "~"
    assert arena.terrain((1, 1)) == "%"
    assert arena.terrain((5, 5)) == "#"  # off the map: the implied wall
    assert not arena.is_wall((5, 5))  # ... which cannot be climbed onto
    assert arena.starts == {"1": ((0, 0),), "2": ((2, 1),)}


def test_a2_bad_character_names_line_and_column() -> None:
    with pytest.raises(OptionsError, match=r"line 2, column 3 \(c2\).*'x'"):
        parse_arena("1..\n..x2")


def test_a2_map_without_starts_is_refused() -> None:
    with pytest.raises(OptionsError, match="no start squares"):
        parse_arena("...")


def test_bare_12_map_is_a_legal_match() -> None:
    """The bare '12' map: two adjacent squares."""
    state = GAME.start({"map": map_text("12"), "map_name": "12"}, 2, 3)
    assert state.arena.width == 2 and state.arena.height == 1


@pytest.mark.parametrize("name", sorted(shipped_maps()))
def test_every_shipped_map_parses_and_plays_to_an_end(name: str) -> None:
    state = GAME.start({"map": map_text(name), "map_name": name}, 2, 5)
    run_match(state, make_bots(GAME, 5, {"1": "greedy", "2": "random"}))
    assert state.outcome() is not None


def test_too_few_start_squares_is_a_clear_error() -> None:
    teams = GAME.terminal.cli_options({"team": ["1=cowboy,perseus", "2=fred"]})["teams"]
    with pytest.raises(OptionsError, match="1 start squares marked 1 but team 1 has 2 heroes"):
        GAME.start({"teams": teams, "map": "12"}, 2, 0)


def test_a_match_unpickled_shares_one_arena_and_plays_the_same() -> None:
    """A match pickled (the server's snapshots) comes back with the arena every other
    unpickled copy has, read from its text; it plays on exactly as the original."""
    state = GAME.start({"map": "#..1.\n.2...\n....."}, None, 4)
    twins = [pickle.loads(pickle.dumps(state)) for _ in range(2)]
    assert twins[0].arena is twins[1].arena
    assert twins[0].arena == state.arena
    assert twins[0].arena.rows == ("#..1.", ".2...", ".....")
    seats = dict.fromkeys(state.seats, "random")
    run_match(twins[0], make_bots(GAME, 4, seats))
    run_match(state, make_bots(GAME, 4, seats))
    assert [str(a) for _, a in twins[0].history] == [str(a) for _, a in state.history]
    assert twins[0].events == state.events
