"""The written positions of data/positions/, one for each place in a turn beyond its
start (docs/rules/electron-gladiators.md, "Positions"): each loads with exactly the
actions the rulebook allows there, writes itself back and round-trips
(tests/positions.py); a forced die gives the exact attack on a Scout."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from eg_helpers import GAME, where
from typer.testing import CliRunner

from gladiatorium.cli.main import app
from gladiatorium.core import Termination
from gladiatorium.games.electron_gladiators import ElectronGladiatorsState
from gladiatorium.games.electron_gladiators import state as rules
from positions import round_trip_problems

FILES = Path(rules.__file__).parent / "data" / "positions"
NAMES = sorted(f.name for f in FILES.glob("*.txt"))
#: the drives and turns of seat 1's Light Tank on C3 facing east with all 5 points
TANK_STEPS = [
    *("C3 fwd 1", "C3 fwd 2", "C3 fwd 3", "C3 fwd 4", "C3 fwd 5", "C3 rev 1", "C3 rev 2"),
    *("C3 turn l45", "C3 turn l90", "C3 turn l135", "C3 turn r45", "C3 turn r90"),
    *("C3 turn r135", "C3 turn 180"),
]


def load(name: str, body: str | None = None) -> ElectronGladiatorsState:
    state = GAME.start(None, None, 3, position=body or (FILES / name).read_text(), source=name)
    assert isinstance(state, ElectronGladiatorsState)
    return state


def legal(state: ElectronGladiatorsState) -> dict[str, list[str]]:
    return {seat: [str(a) for a in state.legal_actions(seat)] for seat in state.awaiting()}


def test_every_situation_has_its_file() -> None:
    assert NAMES == [
        "attack-made-move-open.txt",
        "move-made-attack-open.txt",
        "move-under-way.txt",
        "quiet-turns.txt",
        "scout-dodge.txt",
        "scout-free-turn.txt",
        "scout-missed.txt",
    ]


@pytest.mark.parametrize("name", NAMES)
def test_each_file_writes_itself_back_and_round_trips(name: str) -> None:
    state = load(name)
    written = GAME.write_position(state)
    assert GAME.write_position(load(name, written)) == written
    assert round_trip_problems(GAME, state, 11) == []


def test_a_move_under_way_goes_on_with_its_points_left_and_only_its_vehicle() -> None:
    """Two of the Medium Tank-2's four points are spent: no turn of 135 or 180 degrees
    (3 and 4 points), no drive past 2, no other vehicle; the attack may come now (R21)."""
    state = load("move-under-way.txt")
    assert legal(state) == {
        "1": [
            *("K12 fwd 1", "K12 fwd 2", "K12 rev 1", "K12 rev 2"),
            *("K12 turn l45", "K12 turn l90", "K12 turn r45", "K12 turn r90"),
            "fire K12 at K6",
            "end",
        ]
    }
    assert state.view(None)["points_left"] == 2 and state.view(None)["mover"] == "K12"
    state.act("1", "K12 fwd 2")  # the last two points: the move is over, the attack open
    assert legal(state) == {"1": ["fire K10 at K6", "end"]}


def test_after_the_move_only_the_attack_or_the_end_is_left() -> None:
    """Gun 4 against the Light Tank's front armour 2 (it faces south, toward K12)."""
    state = load("move-made-attack-open.txt")
    assert legal(state) == {"1": ["fire K12 at K6", "end"]}
    state.act("1", "fire K12 at K6")
    assert "K6" not in where(state)
    assert state.awaiting() == ("2",) and state.turn == 2 and state.quiet_turns == 0


def test_after_an_attack_first_any_vehicle_moves_and_the_move_is_owed() -> None:
    """The attack is made, so none is offered; the move needs a point spent before
    'end' (R21, "a move action must be made of at least one point")."""
    state = load("attack-made-move-open.txt")
    k14 = [
        *("K14 fwd 1", "K14 fwd 2", "K14 fwd 3", "K14 fwd 4"),
        *("K14 rev 1", "K14 rev 2", "K14 rev 3", "K14 rev 4"),
        *("K14 turn l45", "K14 turn l90", "K14 turn l135", "K14 turn r45", "K14 turn r90"),
        *("K14 turn r135", "K14 turn 180"),
    ]
    assert legal(state) == {"1": [*k14, *TANK_STEPS]}
    state.act("1", "K14 fwd 4")  # the move's last point ends the turn: the loss counts
    assert state.awaiting() == ("2",) and state.quiet_turns == 0


def test_a_forced_die_of_2_misses_the_scout_four_squares_away_and_it_dodges() -> None:
    state = load("scout-missed.txt")
    assert "fire K14 at K10" in legal(state)["1"]
    events = state.act("1", "fire K14 at K10")
    assert [e.text for e in events if e.kind == "roll"] == ["1 rolls 2 against distance 4: missed"]
    assert legal(state) == {"2": ["dodge J9", "dodge L9"]}


def test_a_forced_die_of_4_destroys_the_scout() -> None:
    body = (FILES / "scout-missed.txt").read_text().replace("dice: 2", "dice: 4")
    state = load("scout-missed.txt", body)
    state.act("1", "fire K14 at K10")
    assert "K10" not in where(state)
    assert state.awaiting() == ("1",) and state.lost_this_turn


def test_r19_the_missed_scout_dodges_ahead_or_45_degrees_aside_then_the_turn_goes_on() -> None:
    state = load("scout-dodge.txt")
    assert legal(state) == {"2": ["dodge J9", "dodge L9"]}
    assert state.view(None)["pending_dodge"] == {"scout": "K10", "squares": ["J9", "L9"]}
    state.act("2", "dodge L9")
    assert where(state)["L9"] == "2 SC NE"
    assert state.awaiting() == ("1",) and "fire K14 at L9" not in legal(state)["1"]


def test_r11_after_a_free_turn_the_scout_may_not_turn_free_again_nor_stop() -> None:
    """Facing east after its free 90-degree turn: forward up to its 7 points, or the
    turn about for a point; no attack and no end before a point is spent (R21, R32)."""
    state = load("scout-free-turn.txt")
    drives = [f"K14 fwd {n}" for n in range(1, 8)]
    assert legal(state) == {"1": [*drives, "K14 turn 180"]}
    state.act("1", "K14 fwd 1")
    assert "L14 turn l90" in legal(state)["1"] and "end" in legal(state)["1"]


def test_r6_the_sixtieth_quiet_turn_draws_and_a_loss_starts_the_count_again() -> None:
    state = load("quiet-turns.txt")
    assert state.quiet_turns == 59 and legal(state) == {"1": ["fire K12 at K6", "end"]}
    state.act("1", "end")
    outcome = state.outcome()
    assert outcome is not None and outcome.draw
    assert outcome.termination == Termination.QUIET_TURNS
    assert outcome.reason == "60 turns in a row without a loss"
    state = load("quiet-turns.txt")
    state.act("1", "fire K12 at K6")
    assert state.outcome() is None and state.quiet_turns == 0


def test_cli_legal_loads_a_position_mid_turn() -> None:
    found = CliRunner().invoke(
        app,
        ["legal", "electron-gladiators", "--position", str(FILES / "scout-dodge.txt"), "--json"],
    )
    assert found.exit_code == 0, found.output
    answer = json.loads(found.output)
    assert answer["awaiting"] == ["2"]
    assert json.dumps(answer).count("dodge J9") == 1
