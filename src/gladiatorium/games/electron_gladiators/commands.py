"""``electron-gladiators reach``: one vehicle's firing arc, ranges and line of sight.

Mounted by the main CLI through ``ElectronGladiatorsTerminal.commands()``; it also runs
alone: ``python -m gladiatorium.games.electron_gladiators.commands reach K10 --setup basic-1``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from gladiatorium.core import GladiatoriumError, register_game
from gladiatorium.core.record import replay_file
from gladiatorium.core.terminal import error_text
from gladiatorium.games.electron_gladiators import GAME, ElectronGladiatorsState
from gladiatorium.games.electron_gladiators.setups import SHIPPED
from gladiatorium.games.electron_gladiators.terminal import read_setup_file

app = typer.Typer(help="Electron Gladiators helpers.", no_args_is_help=True, add_completion=False)
console = Console()


def _state(setup: str, record: Path | None) -> ElectronGladiatorsState:
    if record is not None:
        register_game(GAME)  # the main command has registered every game
        state = replay_file(record)[1]
    else:
        value = setup if setup in SHIPPED else read_setup_file(Path(setup))
        state = GAME.start({"setup": value})
    if not isinstance(state, ElectronGladiatorsState):
        raise GladiatoriumError(f"{record} is not an Electron Gladiators record")
    return state


@app.command("reach")
def reach(
    square: Annotated[str, typer.Argument(help="The vehicle's square, e.g. G1.")],
    setup: Annotated[str, typer.Option(help="Shipped set-up name or a set-up file.")] = "basic-1",
    record: Annotated[Path | None, typer.Option(help="Replay this match record first.")] = None,
) -> None:
    """Show the board with a vehicle's firing arc, direct and parabolic ranges and
    what it sees (d = direct fire, p = parabolic band, s = seen only, a = arc, blocked)."""
    try:
        text = GAME.terminal.look(_state(setup, record), None, square)
    except GladiatoriumError as err:
        console.print(error_text(err), soft_wrap=True)
        raise typer.Exit(2) from err
    console.print(text, highlight=False, soft_wrap=True)


@app.command("board")
def board(
    setup: Annotated[str, typer.Option(help="Shipped set-up name or a set-up file.")] = "basic-1",
    record: Annotated[Path | None, typer.Option(help="Replay this match record first.")] = None,
) -> None:
    """Show the board of a set-up, or of a match record's final position."""
    try:
        state = _state(setup, record)
    except GladiatoriumError as err:
        console.print(error_text(err), soft_wrap=True)
        raise typer.Exit(2) from err
    console.print(GAME.terminal.render(state, None), highlight=False, soft_wrap=True)


if __name__ == "__main__":
    app()
