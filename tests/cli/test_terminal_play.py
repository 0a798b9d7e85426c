"""Terminal play as players want it (issue 18), driven through the real command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gladiatorium.cli.main import app
from gladiatorium.core import games

runner = CliRunner()


def test_hot_seat_with_hidden_information_waits_for_the_next_player() -> None:
    """Hero Battle, two people at one keyboard: nothing of seat 2 shows before
    "press Enter, player 2", and the screen is cleared between them."""
    args = ["play", "hero-battle", "--players", "8", "--seat", "1=human", "--seat", "2=human"]
    result = runner.invoke(app, [*args, "--seed", "3"], input="\nabstain\n\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.output
    first, second = out.index("Press Enter, player 1"), out.index("Press Enter, player 2")
    own_1, own_2 = out.index("(Player 1). Nemeses"), out.index("(Player 2). Nemeses")
    assert first < own_1 < second < own_2
    assert "(Player 2)" not in out[:second]


def test_hot_seat_clears_the_screen_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TTY_COMPATIBLE", "1")
    args = ["play", "hero-battle", "--players", "8", "--seat", "1=human", "--seat", "2=human"]
    result = runner.invoke(app, [*args, "--seed", "3"], input="\nabstain\n\nquit\n")
    out = result.output
    assert out.count("\x1b[2J") >= 2  # cleared before each hand-over
    assert out.rindex("\x1b[2J", 0, out.index("Press Enter, player 2")) > out.index("1>")


def test_one_person_against_bots_is_not_asked_to_press_enter() -> None:
    args = ["play", "hero-battle", "--players", "8", "--seat", "1=human", "--seed", "3"]
    result = runner.invoke(app, args, input="quit\n")
    assert "Press Enter" not in result.output


def test_resume_continues_a_saved_match(tmp_path: Path) -> None:
    record = tmp_path / "match.json"
    first = runner.invoke(
        app, ["play", "pig", "--seed", "5", "--save", str(record)], input="roll\nquit\n"
    )
    assert first.exit_code == 0, first.output
    assert f"--resume {record}" in first.output
    saved = json.loads(record.read_text())
    assert saved["outcome"] is None and saved["actions"]
    again = runner.invoke(app, ["play", "pig", "--resume", str(record)], input="roll\n" * 400)
    assert again.exit_code == 0, again.output
    done = json.loads(record.read_text())
    assert done["outcome"] is not None
    assert done["actions"][: len(saved["actions"])] == saved["actions"]
    assert "You win" in again.output or "You lose" in again.output
    assert runner.invoke(app, ["replay", str(record)]).exit_code == 0


def test_resume_refuses_another_game_and_new_options(tmp_path: Path) -> None:
    record = tmp_path / "match.json"
    runner.invoke(app, ["play", "pig", "--seed", "5", "--save", str(record)], input="quit\n")
    wrong = runner.invoke(app, ["play", "gladiator-chess", "--resume", str(record)])
    assert wrong.exit_code == 2 and "a pig record, not gladiator-chess" in wrong.output
    extra = runner.invoke(app, ["play", "pig", "--resume", str(record), "-o", "target=5"])
    assert extra.exit_code == 2 and "give only --seat" in extra.output


def test_undo_takes_back_a_move_when_no_die_was_rolled() -> None:
    result = runner.invoke(
        app, ["play", "gladiator-chess", "--seed", "1"], input="king: F a2-a3\nundo\nquit\n"
    )
    assert result.exit_code == 0, result.output
    assert "undone: your last action" in result.output


def test_undo_is_refused_once_a_die_was_rolled() -> None:
    result = runner.invoke(app, ["play", "pig", "--seed", "1"], input="undo\nroll\nundo\nquit\n")
    assert "nothing to undo yet" in result.output
    assert "cannot undo: dice were rolled" in result.output


def test_rules_command_and_prompt_show_the_rules() -> None:
    result = runner.invoke(app, ["rules", "pig"])
    assert result.exit_code == 0, result.output
    assert "A 1 loses this turn's points" in result.output
    for game in games():
        assert game.terminal.rules_text(), f"{game.info.slug} ships no rules text"
    shown = runner.invoke(app, ["rules", "gladiator-chess"])
    assert "Gladiator Chess" in shown.output
    unknown = runner.invoke(app, ["rules", "chess"])
    assert unknown.exit_code == 2
    at_prompt = runner.invoke(app, ["play", "pig", "--seed", "1"], input="rules\nquit\n")
    assert "A 1 loses this turn's points" in at_prompt.output


def test_rules_ship_with_the_package() -> None:
    """The texts are read through the package (importlib.resources), and the package
    data names them, so an installed wheel carries them."""
    from importlib import resources

    folder = resources.files("gladiatorium.rules")
    for game in games():
        assert (folder / f"{game.info.slug}.md").is_file()
    pyproject = Path(__file__).parents[2] / "pyproject.toml"
    assert '"gladiatorium.rules" = ["*.md"]' in pyproject.read_text()


def test_play_help_lists_the_game_specific_flags() -> None:
    result = runner.invoke(app, ["play", "--help"])
    assert result.exit_code == 0
    for flag in ("--team", "--map", "--setup", "--name", "--resume"):
        assert flag in result.output


def test_the_end_shows_the_final_board_and_a_summary_in_words() -> None:
    result = runner.invoke(app, ["play", "pig", "--seed", "2"], input="roll\n" * 400)
    assert "final board, seat 1" in result.output
    assert "You win" in result.output or "You lose, seat 2 wins" in result.output


def test_simulate_shows_progress_with_an_estimate() -> None:
    """On a terminal (told by TTY_COMPATIBLE) a bar, the count, time taken and left."""
    env = {**os.environ, "TTY_COMPATIBLE": "1", "TTY_INTERACTIVE": "1"}
    command = [sys.executable, "-c", "from gladiatorium.cli.main import run; run()"]
    args = ["simulate", "pig", "--games", "5000"]
    result = subprocess.run(
        [*command, *args], env=env, capture_output=True, text=True, timeout=120, check=True
    )
    assert "simulating" in result.stdout and "/5000" in result.stdout
    assert " left " in result.stdout


def test_gladiator_chess_ends_in_words_not_codes() -> None:
    from gladiatorium.core import Outcome, get_game
    from gladiatorium.games.gladiator_chess.state import QUEEN_HELD

    game = get_game("gladiator-chess")
    state = game.start(None, None, 0)
    state.emit("victory", "white held the black Queen for 5 turns: white wins")
    whites = [s for s in state.seats if s.startswith("white-")]
    state.result = Outcome.win(whites, QUEEN_HELD(), team="white")  # type: ignore[attr-defined]
    text = game.terminal.summary(state, "white-king")
    assert text.startswith("Your side wins: white held the black Queen for 5 turns")
    assert "queen-held" not in text
    assert "team white wins" in game.terminal.summary(state, "black-king")


def test_superhero_gladiators_refusals_say_why() -> None:
    typed = "move g1\nmove d3\nmove z9\nattack 3B with Lasso\nattack 2A with Laser\nquit\n"
    result = runner.invoke(app, ["play", "superhero-gladiators", "--seed", "1"], input=typed)
    out = " ".join(result.output.split())
    assert "g1 is beyond a walk from here: it needs a movement power" in out
    assert "'move g1 with Trusty spurs'" in out
    assert "d3 is a wall" in out
    assert "z9 is off the map" in out
    assert "no hero '3b'" in out
    assert "Cowboy has no power 'Laser'" in out


def test_a_power_with_no_uses_left_is_named() -> None:
    from gladiatorium.games.superhero_gladiators.refusals import why_refused

    hero = {"id": "1A", "name": "Cowboy", "uses": {"Lasso": 0}, "destroyed": [], "movement": 5}
    view = {"actor": "1A", "heroes": [hero], "map": ["...."]}
    assert why_refused(view, [], "attack 2A with Lasso") == "Lasso has no uses left"


def _warehouse_seed() -> int:
    """A seed whose first roll holds a 5 and another number, after the power choice."""
    from gladiatorium.core import get_game

    game = get_game("super-dice-heroes")
    for seed in range(200):
        state = game.start(None, 1, seed)
        state.act("1", str(state.legal_actions("1")[0]))
        values = [d.value for d in state.heroes["1"].dice]  # type: ignore[attr-defined]
        if 5 in values and any(v != 5 for v in values):
            return seed
    raise AssertionError("no seed found")


def test_super_dice_heroes_refusals_say_why() -> None:
    from gladiatorium.core import get_game

    seed = _warehouse_seed()
    state = get_game("super-dice-heroes").start(None, 1, seed)
    choose = str(state.legal_actions("1")[0])
    state.act("1", choose)
    other = next(d.value for d in state.heroes["1"].dice if d.value != 5)  # type: ignore[attr-defined]
    missing = next(v for v in range(1, 7) if v not in [d.value for d in state.heroes["1"].dice])  # type: ignore[attr-defined]
    typed = f"{choose}\nhelp 5 at 1\nmove 5 with 5\nhelp {other} at 3\nhelp {missing} at 1\nquit\n"
    args = ["play", "super-dice-heroes", "--players", "1", "--seed", str(seed)]
    result = runner.invoke(app, args, input=typed)
    out = " ".join(result.output.split())
    assert "you stand at no location yet" in out
    assert "the Warehouse fills left to right: the next box is 1" in out
    assert f"you have no unspent die showing {missing}" in out


#: the most games a README example may ask for, per command, measured at about a
#: minute on two shared cores (a game of Electron Gladiators takes ~5 s there)
README_BUDGET = {
    "simulate pig": 10_000,
    "simulate electron-gladiators": 10,
    "simulate super-dice-heroes": 15,
    "simulate gladiator-chess": 6,
    "simulate hero-battle": 100,
    "simulate superhero-gladiators": 1000,
    "duel --team": 40,
    "duel": 1000,
}


def test_the_readme_tour_keeps_every_batch_under_a_minute() -> None:
    import re

    readme = (Path(__file__).parents[2] / "README.md").read_text()
    batches = [
        line.split("#")[0]
        for line in readme.splitlines()
        if line.startswith(("gladiatorium simulate", "gladiatorium duel"))
    ]
    assert len(batches) >= 6
    for line in batches:
        found = re.search(r"--games (\d+)", line)
        assert found, f"README: {line!r} runs the default count; give --games"
        key = next(k for k in README_BUDGET if line.removeprefix("gladiatorium ").startswith(k))
        assert int(found[1]) <= README_BUDGET[key], line


def test_duel_shows_progress_with_an_estimate() -> None:
    env = {**os.environ, "TTY_COMPATIBLE": "1", "TTY_INTERACTIVE": "1"}
    command = [sys.executable, "-c", "from gladiatorium.cli.main import run; run()"]
    args = ["duel", "cowboy", "cowboy", "--games", "60"]
    result = subprocess.run(
        [*command, *args], env=env, capture_output=True, text=True, timeout=120, check=True
    )
    assert "duelling" in result.stderr and "/60" in result.stderr
