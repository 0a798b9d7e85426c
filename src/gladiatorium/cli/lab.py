"""``gladiatorium lab ...``: reports that say whether a hero or a cost is fair."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from gladiatorium.cli.common import check_output, error_text
from gladiatorium.core import GladiatoriumError, OptionsError
from gladiatorium.games import load
from gladiatorium.lab.simulate import GameResult

app = typer.Typer(help="The lab: balance reports and what a power is worth.", no_args_is_help=True)

#: bounds of a lab run: games per pairing (or level) and map, and worker processes
MAX_GAMES = 100_000
MAX_JOBS = 64
BALANCE_FILES = ("index.html", "balance.json", "balance.png", "balance.svg")


def split_list(values: list[str] | None) -> list[str]:
    """``--maps small,pillars --maps chasm`` -> ``[small, pillars, chasm]``."""
    return [v.strip() for given in values or [] for v in given.split(",") if v.strip()]


def check_folder(folder: Path, files: tuple[str, ...], force: bool) -> None:
    """Refuse, before playing, an output folder that cannot be written, or one holding a
    report already (unless ``force``)."""
    check_output(folder, "--out", folder=True)
    taken = [name for name in files if (folder / name).exists()]
    if taken and not force:
        raise OptionsError(f"--out {folder}: {taken[0]} exists; add --force to overwrite")


@contextmanager
def progress_bar(total: int, quiet: bool) -> Iterator[Callable[[int, GameResult], None]]:
    """A progress bar on the terminal's stderr; the callback advances it by a game."""
    err = Console(stderr=True)
    columns = (TextColumn("playing"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    show = err.is_terminal and not quiet
    with Progress(*columns, console=err, disable=not show, transient=True) as progress:
        task = progress.add_task("playing", total=total)
        yield lambda _which, _result: progress.advance(task)


def fail(error: GladiatoriumError) -> typer.Exit:
    Console(stderr=True).print(error_text(error), soft_wrap=True, highlight=False)
    return typer.Exit(2)


Games = Annotated[
    int, typer.Option("--games", "-n", min=1, max=MAX_GAMES, help="Games per pairing and map.")
]
Maps = Annotated[
    list[str] | None,
    typer.Option("--maps", help="Arenas (shipped names or map files), comma-separated."),
]
Seed = Annotated[int, typer.Option(help="Seed of the run.")]
Jobs = Annotated[int, typer.Option(min=1, max=MAX_JOBS, help="Worker processes (cores).")]
Force = Annotated[bool, typer.Option(help="Overwrite a report already in --out.")]


@app.command("balance")
def balance(
    heroes: Annotated[list[str], typer.Argument(help="Sample names or hero files.")],
    games: Games = 20,
    maps: Maps = None,
    seed: Seed = 0,
    jobs: Jobs = 1,
    out: Annotated[Path, typer.Option(help="Folder for the report.")] = Path("balance"),
    force: Force = False,
) -> None:
    """Every ordered pair of HEROES on several arenas, played by the best bot: a win-rate
    matrix with 95% intervals, each hero's strength against its cost, lopsided pairings
    and draws, written to OUT/index.html, balance.json, balance.png and balance.svg."""
    from gladiatorium.lab.balance import arenas, load_entrants, run_balance
    from gladiatorium.lab.balance_report import write_balance_report

    load()
    try:
        entrants = load_entrants(heroes)
        chosen = arenas(split_list(maps))
        check_folder(out, BALANCE_FILES, force)
        total = len(entrants) * (len(entrants) - 1) * len(chosen) * games
        with progress_bar(total, quiet=False) as advance:
            result = run_balance(entrants, chosen, games, seed, jobs, advance)
    except GladiatoriumError as error:
        raise fail(error) from error
    write_balance_report(result, out)
    overall = result.overall()
    shown = Table("hero", "points", "win rate", "95% interval", "draws", "verdict")
    for e in result.entrants:
        r = overall[e.name]
        low, high = r.interval
        shown.add_row(
            Text(e.name),
            str(e.points),
            f"{r.win_rate:.1%}",
            f"{low:.1%}-{high:.1%}",
            str(r.draws),
            result.verdict(e.name),
        )
    console = Console()
    console.print(shown)
    for a, b, r in result.lopsided():
        console.print(Text(f"lopsided: {a} beats {b} {r.win_rate:.0%} of {r.games} games"))
    console.print(Text(f"report: {out / 'index.html'}"))
