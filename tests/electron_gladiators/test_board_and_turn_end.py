"""The board's cells never run together, and a turn that ends because no attack is
possible says so."""

from __future__ import annotations

from eg_helpers import arena
from typer.testing import CliRunner

from gladiatorium.cli.main import app
from gladiatorium.games.electron_gladiators.render import board_text

runner = CliRunner()


def test_neighbouring_vehicles_and_obstacles_stay_apart() -> None:
    state = arena(["1 HT1 K10 S", "1 MT1 L10 S", "2 MQ M10 -"], obstacles="C3 D3", walls="E3")
    rows = board_text(state.arena, markup=False).splitlines()
    assert "H1↓ M1↓ mq~" in rows[10]
    assert "### ###  X " in rows[3]
    letters = rows[0][4:]
    assert [letters[i] for i in range(1, 84, 4)] == list("ABCDEFGHIJKLMNOPQRSTU")
    for row in rows:
        cells = row[4:87]  # 21 cells of three characters, one space between each two
        assert [cells[i] for i in range(3, 83, 4)] == [" "] * 20


def test_a_turn_with_no_attack_possible_says_so() -> None:
    state = arena(["1 LT A1 S", "2 LT U21 N"])
    state.act("1", "A1 fwd 1")
    state.act("1", "end")
    assert state.events[-2].text == (
        "no attack is possible for seat 1 (no gun reaches an enemy): the turn ends"
    )
    assert state.awaiting() == ("2",)


def test_the_terminal_says_the_turn_ended_for_want_of_an_attack() -> None:
    result = runner.invoke(
        app,
        ["play", "electron-gladiators", "--seed", "1", "--seat", "2=random"],
        input="C1 fwd 1\nend\nquit\n",
        env={"COLUMNS": "120"},
    )
    out = " ".join(result.output.split())
    assert "no attack is possible for seat 1 (no gun reaches an enemy): the turn ends" in out
    assert "IN~ . M1↓ . . . H1↓" in out  # cells apart


def test_a_narrow_terminal_gets_the_board_unfolded() -> None:
    result = runner.invoke(
        app, ["play", "electron-gladiators", "--seed", "1"], input="quit\n", env={"COLUMNS": "80"}
    )
    first = next(line for line in result.output.splitlines() if line.startswith("  1 "))
    assert first.rstrip().endswith(" 1")  # the whole row on one line
    assert "the board is 90 columns wide" in result.output
