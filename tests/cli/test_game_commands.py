"""A game's own commands live in its folder and are mounted through its terminal
presenter's ``commands()``."""

from __future__ import annotations

from collections.abc import Mapping

import pytest
import typer
from typer.testing import CliRunner

from gladiatorium.cli.main import app, mount_game_commands
from gladiatorium.core import GladiatoriumError, TerminalPresenter, games
from gladiatorium.games.pig.game import Pig

runner = CliRunner()


def test_every_games_commands_are_mounted_by_name() -> None:
    mounted = {name: game.info.slug for game in games() for name in game.terminal.commands()}
    assert mounted == {
        "hero": "superhero-gladiators",
        "duel": "superhero-gladiators",
        "electron-gladiators": "electron-gladiators",
        "hero-battle": "hero-battle",
        "super-dice-heroes": "super-dice-heroes",
    }
    listing = runner.invoke(app, ["--help"]).output
    for name in mounted:
        assert f" {name} " in listing
    moderator = runner.invoke(app, ["hero-battle", "--help"])
    assert moderator.exit_code == 0
    assert "moderate" in moderator.output and "post" in moderator.output


def _module(command: object) -> str:
    if isinstance(command, typer.Typer):
        command = command.registered_commands[0].callback
    return str(getattr(command, "__module__", ""))


def test_the_game_commands_modules_are_in_the_game_folders() -> None:
    for game in games():
        package = game.info.slug.replace("-", "_")
        for command in game.terminal.commands().values():
            assert _module(command).startswith(f"gladiatorium.games.{package}.")


class ClashTerminal(TerminalPresenter):
    def commands(self) -> Mapping[str, object]:
        return {"play": lambda: None}


class Clash(Pig):
    terminal_presenter = ClashTerminal


class NeitherTerminal(TerminalPresenter):
    def commands(self) -> Mapping[str, object]:
        return {"pig-tools": 42}


class Neither(Pig):
    terminal_presenter = NeitherTerminal


def test_a_command_name_taken_or_not_a_command_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    target = typer.Typer()
    target.command("play")(lambda: None)
    monkeypatch.setattr("gladiatorium.cli.main.games", lambda: [Clash()])
    with pytest.raises(GladiatoriumError, match="pig: the command 'play' is taken"):
        mount_game_commands(target)
    monkeypatch.setattr("gladiatorium.cli.main.games", lambda: [Neither()])
    with pytest.raises(GladiatoriumError, match="neither a typer app nor a function"):
        mount_game_commands(target)
