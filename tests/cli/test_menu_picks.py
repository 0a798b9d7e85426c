"""The menu picks what the command line can (issue 18): heroes and map, set-up, names,
options; driven through the real command with typed answers."""

from __future__ import annotations

import shlex
from pathlib import Path

from typer.testing import CliRunner

from gladiatorium.cli.main import app
from gladiatorium.core import games

runner = CliRunner()


def _number(slug: str) -> int:
    return [g.info.slug for g in games()].index(slug) + 1


def _menu(answers: list[str]) -> str:
    result = runner.invoke(app, [], input="\n".join([*answers, "quit", "q", ""]))
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return " ".join(result.output.split())


def test_menu_picks_heroes_and_map_for_superhero_gladiators() -> None:
    game = str(_number("superhero-gladiators"))
    out = _menu([game, "2", "1", "", "1=cowboy; 2=perseus", "pillars", "1"])
    assert "shipped: barbarian, cowboy" in out  # the sample heroes by name
    assert "Cowboy" in out and "Perseus" in out
    assert "pillars" in out


def test_menus_default_superhero_gladiators_pairing_is_the_games_default() -> None:
    """Empty answers give the options' default match: the sample Cowboy against the
    sample Perseus (docs/lab-balance.md)."""
    game = str(_number("superhero-gladiators"))
    out = _menu([game, "2", "1", "", "", "", "1"])
    assert "Team (several: split by ';'; empty: default)" in " ".join(out.split())
    assert "Cowboy (1A)" in out and "Perseus (2A)" in out


def test_menu_picks_a_shipped_setup_for_electron_gladiators() -> None:
    out = _menu([str(_number("electron-gladiators")), "1", "", "deluxe-1", "1"])
    assert "shipped: basic-1, basic-2, deluxe-1, deluxe-2" in out
    assert "deluxe-1" in out


def test_menu_names_a_super_dice_hero() -> None:
    out = _menu([str(_number("super-dice-heroes")), "1", "1", "", "1=Blaze", "", "1"])
    assert "Blaze" in out


def test_menu_lists_and_takes_options_and_says_why_a_bad_one_is_refused() -> None:
    out = _menu([str(_number("pig")), "2", "1", "?", "target=abc", "2", "target=5", "1"])
    assert "target = 30 banked points that win" in out
    assert "bad options for pig: target" in out
    assert "5" in out


def test_readme_examples_work_as_written(tmp_path: Path) -> None:
    """The README's set-up example file, a sample hero by name, and the moderator's
    guess under the example's own sign-ups and forum names."""
    root = Path(__file__).parents[2]
    readme = (root / "README.md").read_text()
    assert "--setup docs/examples/my-arena.txt" in readme
    arena = runner.invoke(
        app, ["legal", "electron-gladiators", "--setup", str(root / "docs/examples/my-arena.txt")]
    )
    assert arena.exit_code == 0, arena.output
    shipped = runner.invoke(app, ["legal", "electron-gladiators", "--setup", "deluxe-1"])
    assert shipped.exit_code == 0, shipped.output
    assert runner.invoke(app, ["hero", "check", "cowboy"]).exit_code == 0
    start = readme.index("gladiatorium hero-battle moderate")
    command = readme[start : readme.index("--save", start)].replace("\\\n", " ")
    args = shlex.split(command)[1:]
    for example in ("3: hit Ant, Bat heal Cat", "5: guess Dog=ann"):
        assert f"`{example}`" in readme
    for seed in range(4):
        typed = "3: hit Ant, Bat heal Cat\n5: guess Dog=ann\nquit\n"
        result = runner.invoke(app, [*args, "--seed", str(seed)], input=typed)
        assert result.exit_code == 0, result.output
        guessed = "seat 5: ok" in result.output or "you cannot call out your own hero" in (
            result.output  # the deal gave seat 5 Dog itself: the README says so
        )
        assert "seat 3: ok" in result.output and guessed, result.output[-600:]
