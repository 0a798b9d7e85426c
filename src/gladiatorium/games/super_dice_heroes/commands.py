"""``gladiatorium super-dice-heroes sheet``: the score sheet to print and play on paper.

Mounted by the main CLI through ``SuperDiceHeroesTerminal.commands()``; it also runs alone:
``python -m gladiatorium.games.super_dice_heroes.commands sheet -o sheet.pdf``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.text import Text

from gladiatorium.core import GladiatoriumError
from gladiatorium.core.printing import PRINT_FORMATS, printable
from gladiatorium.core.terminal import check_output, error_text
from gladiatorium.games.super_dice_heroes import GAME
from gladiatorium.games.super_dice_heroes.options import POWER_USES_MAX
from gladiatorium.games.super_dice_heroes.printable import sheet_plain_text, sheet_svg
from gladiatorium.games.super_dice_heroes.sheet import SHIPPED, Sheet, load_sheet

app = typer.Typer(
    help="Super Dice Heroes: the score sheet to print.", no_args_is_help=True, add_completion=False
)
console = Console()
err_console = Console(stderr=True)
#: the longest hero name written on a printed sheet
MAX_NAME = 40
DEFAULT_OUTPUT = Path("super-dice-heroes-sheet.svg")


def read_sheet(value: str) -> Sheet:
    """A shipped sheet by name, or a sheet file (read and checked as ``--sheet`` in
    play is: errors name the file, the line and the field)."""
    if value in SHIPPED:
        return load_sheet(value)
    return load_sheet(GAME.terminal.cli_options({"sheet": [value]})["sheet"], value)


def sheet_file(sheet: Sheet, kind: str, name: str, uses: int) -> bytes:
    """The bytes of the printable sheet as a ``kind`` file (``txt``, or a picture)."""
    if kind == "txt":
        return sheet_plain_text(sheet, name, uses).encode("utf-8")
    return printable(sheet_svg(sheet, name, uses), kind)


@app.command("sheet")
def sheet(
    output: Annotated[
        Path,
        typer.Option(
            "--output",
            "-o",
            help="File to write, by its name: .pdf, .svg or .png (an A4 page) or .txt.",
        ),
    ] = DEFAULT_OUTPUT,
    sheet_name: Annotated[
        str, typer.Option("--sheet", help="A shipped sheet's name or a sheet file.")
    ] = "standard",
    name: Annotated[str, typer.Option(help="The hero's name, written on the sheet.")] = "",
    uses: Annotated[
        int, typer.Option(min=0, max=POWER_USES_MAX, help="Superpower uses a game.")
    ] = 3,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")] = False,
) -> None:
    """Write the score sheet to print, for playing on paper beside the shared roll: the
    six locations with their boxes, rewards and minions, the superpower and its uses,
    wild dice, bystanders and the final sum."""
    kind = output.suffix.lower().lstrip(".")
    try:
        if kind not in (*PRINT_FORMATS, "txt"):
            raise GladiatoriumError(
                f"--output {output}: a sheet is written as PDF, SVG, PNG or text, chosen by "
                f"the file name; name it {output.with_suffix('.pdf').name} or "
                f"{output.with_suffix('.txt').name}"
            )
        if len(name) > MAX_NAME:
            raise GladiatoriumError(f"--name: at most {MAX_NAME} characters, not {len(name)}")
        chosen = read_sheet(sheet_name)
        check_output(output, "--output", force)
        data = sheet_file(chosen, kind, name.strip(), uses)
    except GladiatoriumError as err:
        err_console.print(error_text(err), soft_wrap=True)
        raise typer.Exit(2) from err
    try:
        output.write_bytes(data)
    except OSError as err:
        err_console.print(error_text(f"{output}: cannot write it ({err.strerror})"))
        raise typer.Exit(2) from err
    console.print(Text(f"wrote {output} ({chosen.name} sheet)"), soft_wrap=True)


if __name__ == "__main__":
    app()
