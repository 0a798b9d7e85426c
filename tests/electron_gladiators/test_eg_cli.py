"""The terminal: the reach helper and the game-specific --setup flag."""

from __future__ import annotations

from pathlib import Path

from eg_helpers import GAME, setup_text
from typer.testing import CliRunner

from gladiatorium.bots.random import RandomBot
from gladiatorium.cli.main import app as main_app
from gladiatorium.core import Observation, Rng
from gladiatorium.games.electron_gladiators.bots import Tactician
from gladiatorium.games.electron_gladiators.commands import app

runner = CliRunner()


def test_reach_helper_shows_a_vehicles_arc_ranges_and_sight() -> None:
    result = runner.invoke(app, ["reach", "G1", "--setup", "basic-1"])
    assert result.exit_code == 0
    assert "Heavy Tank-1 on G1" in result.output and "parabolic 2-7" in result.output


def test_reach_helper_names_an_empty_square() -> None:
    result = runner.invoke(app, ["reach", "B1"])
    assert result.exit_code == 2 and "no vehicle on B1" in result.output


def test_play_reads_a_players_own_setup_file(tmp_path: Path) -> None:
    file = tmp_path / "duel.txt"
    file.write_text(setup_text(["1 HT2 K10 S", "2 LT K14 N"]))
    result = runner.invoke(
        main_app,
        [
            "play",
            "electron-gladiators",
            "--seat",
            "1=human",
            "--seat",
            "2=random",
            "--setup",
            str(file),
        ],
        input="fire K10 at K14\n",
    )
    assert result.exit_code == 0, result.output
    assert "You win: the other side has no vehicles left" in result.output


def test_play_names_the_file_and_line_of_a_bad_setup(tmp_path: Path) -> None:
    file = tmp_path / "broken.txt"
    file.write_text(setup_text(["1 HT2 K10 S", "2 LT K14 N"], obstacles="K14"))
    result = runner.invoke(main_app, ["play", "electron-gladiators", "--setup", str(file)])
    assert result.exit_code == 2
    assert "broken.txt line 25: the LT on K14 stands on an obstacle" in " ".join(
        result.output.split()
    )
    reach = runner.invoke(app, ["reach", "K10", "--setup", str(file)])
    assert reach.exit_code == 2 and "broken.txt line 25" in " ".join(reach.output.split())


def test_two_people_play_a_shipped_setup_to_the_end_in_the_terminal() -> None:
    """Done means: a whole match on a shipped set-up typed at the terminal (hot-seat),
    every action checked by the rules; the moves typed are those a bot chose for
    each seat in the same match (same seed, so the same dice)."""
    state = GAME.start({"setup": "basic-2"}, None, 7)
    bots = {"1": Tactician(Rng(1)), "2": RandomBot(Rng(2))}
    typed = []
    while state.awaiting():
        seat = state.awaiting()[0]
        action = bots[seat].choose(Observation.of(state, seat))
        typed.append(str(action))
        state.apply(seat, action)
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == ("1",)
    args = ["play", "electron-gladiators", "--seat", "1=human", "--seat", "2=human"]
    args += ["--seed", "7", "--option", "setup=basic-2"]
    result = runner.invoke(main_app, args, input="\n".join(typed) + "\n")
    assert result.exit_code == 0, result.output[-2000:]
    shown = " ".join(result.output.split())
    assert "(type 'legal' or 'help')" not in shown  # no typed action was refused
    assert "seat 1 wins: the other side has no vehicles left" in shown
