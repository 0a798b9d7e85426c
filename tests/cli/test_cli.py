"""The command line, driven as a user would."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from gladiatorium.cli.main import app
from gladiatorium.cli.terminal import LEGAL_SHOWN
from gladiatorium.core import games, get_game

runner = CliRunner()


def test_games_lists_the_example() -> None:
    result = runner.invoke(app, ["games", "--json"])
    assert result.exit_code == 0
    pig = next(g for g in json.loads(result.stdout) if g["slug"] == "pig")
    assert pig["players"] == [2, 8]


def test_simulate_json_counts_every_game() -> None:
    result = runner.invoke(app, ["simulate", "pig", "--games", "40", "--seed", "2", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["games"] == 40
    assert sum(summary["wins"].values()) + summary["draws"] == 40
    assert summary["seats"] == {"1": "random", "2": "random"}


def test_simulate_in_parallel_gives_the_same_numbers() -> None:
    args = ["simulate", "pig", "--games", "30", "--seed", "5", "--json"]
    one = json.loads(runner.invoke(app, args).stdout)
    two = json.loads(runner.invoke(app, [*args, "--jobs", "2"]).stdout)
    assert one == two


def test_legal_json_at_start() -> None:
    result = runner.invoke(app, ["legal", "pig", "--json"])
    assert json.loads(result.stdout) == {"awaiting": ["1"], "legal": {"1": ["roll"]}}


def test_play_saves_a_record_that_replays(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    moves = "help\nlegal\njump\n" + "roll\n" * 300
    result = runner.invoke(
        app,
        [
            "play",
            "pig",
            "--seat",
            "1=human",
            "--seat",
            "2=random",
            "--option",
            "target=8",
            "--seed",
            "4",
            "--save",
            str(record),
        ],
        input=moves,
    )
    assert result.exit_code == 0, result.output
    assert "'jump' is not a legal action for seat 1" in result.output
    assert "You win" in result.output or "You lose, seat 2 wins" in result.output
    replayed = runner.invoke(app, ["replay", str(record)])
    assert replayed.exit_code == 0
    assert "reproduced" in replayed.output
    legal = runner.invoke(app, ["legal", "pig", "--record", str(record), "--json"])
    assert json.loads(legal.stdout)["awaiting"] == []


def test_replay_of_a_tampered_record_fails(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    runner.invoke(app, ["simulate", "pig", "--games", "1", "--save", str(tmp_path)])
    source = next(tmp_path.glob("pig-*.json"))
    data = json.loads(source.read_text())
    data["digest"] = "0" * 64
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1
    assert "digest mismatch" in result.output


def test_bad_input_is_explained() -> None:
    unknown = runner.invoke(app, ["play", "chesss"])
    assert unknown.exit_code == 2 and "no game 'chesss'" in unknown.output
    bad_seat = runner.invoke(app, ["simulate", "pig", "--seat", "7=random"])
    assert "--seat 7: no such seat; seats are 1, 2" in bad_seat.output
    bad_bot = runner.invoke(app, ["simulate", "pig", "--seat", "1=genius"])
    assert "no bot 'genius' for pig; bots: random" in bad_bot.output
    bad_flag = runner.invoke(app, ["play", "pig", "--team", "1=a.yaml"])
    assert "pig takes no flag --team" in bad_flag.output


def test_menu_plays_a_game_against_the_bot() -> None:
    number = [g.info.slug for g in games()].index("pig") + 1
    answers = f"{number}\n9\n3\n0\n\n1\n" + "roll\n" * 600 + "q\n"
    result = runner.invoke(app, [], input=answers)
    assert result.exit_code == 0, result.output
    assert "this game takes 2 to 8 players" in result.output  # 9 is refused, 3 taken
    assert "[1/2/3]" in result.output  # three seats to choose from
    assert "final board, seat 1" in result.output
    assert "You win" in result.output or "You lose" in result.output


def test_menu_explains_a_wrong_pick_and_quits_on_q() -> None:
    result = runner.invoke(app, [], input="x\n99\nq\n")
    assert result.exit_code == 0, result.output
    assert result.output.count("type a number from 1 to") == 2
    assert "Seed" not in result.output


def test_play_without_a_game_opens_the_menu() -> None:
    """``gladiatorium play`` is the terminal menu now that ``make run`` starts the server."""
    result = runner.invoke(app, ["play"], input="q\n")
    assert result.exit_code == 0, result.output
    assert "Play which game" in result.output
    assert "Superhero Gladiators" in result.output


def test_look_shows_a_games_extra_information_on_request() -> None:
    """``look`` in the terminal: Electron Gladiators shows a vehicle's reach; a bad
    square explains itself; a game with nothing to look at says so."""
    args = ["play", "electron-gladiators", "--seat", "1=human", "--seat", "2=random"]
    result = runner.invoke(app, args, input="help\nlook Z99\nlook B1\nlook G1\nquit\n")
    assert result.exit_code == 0, result.output
    assert "'look G1' shows the firing arc" in result.output
    assert "'Z99' is not a square" in result.output
    assert "no vehicle on B1" in result.output
    assert "on G1 (seat 1): gun" in result.output
    pig = runner.invoke(app, ["play", "pig", "--seat", "1=human"], input="look\nquit\n")
    assert "pig has nothing to look at" in pig.output


def test_a_long_legal_list_is_cut_and_can_be_narrowed() -> None:
    """Hero Battle offers hundreds of moves: ``legal`` shows the first ones and counts
    the rest; ``legal WORDS`` keeps those containing every word."""
    args = ["play", "hero-battle", "--players", "8", "--seat", "1=human", "--seed", "3"]
    answers = "legal\nlegal zzz\nlegal heal abstain\nlegal abstain\nquit\n"
    result = runner.invoke(app, args, input=answers)
    assert result.exit_code == 0, result.output
    total = len(play_state(args).legal_actions("1"))
    assert total > LEGAL_SHOWN
    assert f"and {total - LEGAL_SHOWN} more of {total}" in result.output
    assert "no legal action contains 'zzz'" in result.output
    assert "no legal action contains 'heal abstain'" in result.output
    assert "1> abstain\n" in result.output.replace("  ", " ")


def play_state(args: list[str]) -> Any:
    """The state `play` starts from these arguments (players and seed only)."""
    game = get_game(args[1])
    return game.start(None, int(args[args.index("--players") + 1]), int(args[-1]))


def test_play_seats_a_person_first_unless_told_otherwise(tmp_path: Path) -> None:
    """``play pig --seat 2=random`` seats the person at 1; naming seat 1, or a person
    elsewhere, leaves seat 1 to what was said or to the best bot."""
    for given, expected in (
        (["--seat", "2=random"], {"1": "human", "2": "random"}),
        (["--seat", "2=human"], {"1": "random", "2": "human"}),
        (["--seat", "1=random", "--seat", "2=random"], {"1": "random", "2": "random"}),
    ):
        record = tmp_path / "pig.json"
        result = runner.invoke(
            app, ["play", "pig", *given, "--save", str(record), "--force"], input="roll\n" * 300
        )
        assert result.exit_code == 0, result.output
        assert json.loads(record.read_text())["seats"] == expected
