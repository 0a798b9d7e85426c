"""``gladiatorium duel``: Monte Carlo between two Superhero Gladiators heroes or teams.

Mounted by the main CLI through ``SuperheroGladiatorsTerminal.commands()``; it also runs
alone: ``python -m gladiatorium.games.superhero_gladiators.commands.duel cowboy perseus``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from gladiatorium.core import GladiatoriumError, get_game, register_game
from gladiatorium.core.batches import (
    Batch,
    GameResult,
    Summary,
    batch_run,
    run_batch,
    wilson_interval,
)
from gladiatorium.core.jobs import Runner
from gladiatorium.core.registry import best_bot, get_bot
from gladiatorium.core.terminal import (
    MAX_JOBS,
    AddressArg,
    BackendArg,
    KeptArg,
    ResultsArg,
    error_text,
    kept_rows,
    kept_runner,
    kept_table,
    results_of,
    runner_of,
)
from gladiatorium.games.superhero_gladiators import GAME

SLUG = "superhero-gladiators"
#: the most matches a batch may ask for
MAX_GAMES = 10_000_000
#: the games a worker process is worth starting for when ``--jobs`` is not given
GAMES_PER_WORKER = 500


def default_jobs(games: int, cores: int) -> int:
    """Worker processes for ``games`` duels when ``--jobs`` is not given: one per 500
    games (a smaller batch is over before a pool has started), at most one per core."""
    return max(1, min(cores, games // GAMES_PER_WORKER, MAX_JOBS))


def usable_cores() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def side_names(teams: Sequence[Sequence[dict[str, Any]]]) -> list[str]:
    """A name per side: its heroes' names joined with `` + ``; a repeated name gets
    `` (2)``."""
    names: list[str] = []
    for team in teams:
        name = " + ".join(str(h["name"]) for h in team)
        names.append(name if name not in names else f"{name} ({len(names) + 1})")
    return names


def turns_of(result: GameResult) -> int:
    """The turn a match ended on, as its typed reason says (0 if it does not)."""
    turn = None if result.why is None else result.why.value("turn")
    return turn if isinstance(turn, int) else 0


def duel_options(
    heroes: Sequence[str], teams: Sequence[str], map_file: str | None
) -> dict[str, Any]:
    """Option values for two heroes (``A B``) or ``--team`` entries, and a map."""
    game = get_game(SLUG)
    flags: dict[str, list[str]] = {}
    if teams and heroes:
        raise GladiatoriumError("give two heroes or --team entries, not both")
    if teams:
        flags["team"] = list(teams)
    elif len(heroes) == 2:
        flags["team"] = [f"1={heroes[0]}", f"2={heroes[1]}"]
    else:
        raise GladiatoriumError("give two hero files (A.yaml B.yaml) or --team 1=... --team 2=...")
    if map_file:
        flags["map"] = [map_file]
    values = game.terminal.cli_options(flags)
    game.start(values, len(values["teams"]), 0)  # checks the map fits the teams
    return values


def run_duel(
    values: dict[str, Any],
    games: int,
    seed: int,
    bot: str | None,
    jobs: int | Runner,
    progress: Progress | None = None,
    results: Path | None = None,
) -> dict[str, Any]:
    """Play the batch; the JSON result (games, wins by side name, draws, mean turns)."""
    game = get_game(SLUG)
    name = bot or best_bot(game)
    get_bot(game, name)  # an unknown bot is an error naming the known ones
    players = len(values["teams"])
    options = game.make_options(values).model_dump(mode="json")
    seats = {str(s): name for s in range(1, players + 1)}
    batch = Batch(SLUG, options, players, seed, seats)
    turns: list[int] = []
    task = progress.add_task("duelling", total=games) if progress is not None else None

    def each(result: GameResult) -> None:
        turns.append(turns_of(result))
        if progress is not None and task is not None:
            progress.advance(task)

    runner = jobs if isinstance(jobs, Runner) else Runner("local", jobs)
    kept = results_of(results, {**batch_run(batch), "command": "duel"})
    summary: Summary = run_batch(batch, games, on_result=each, runner=runner, results=kept)
    names = side_names(values["teams"])
    return {
        "games": summary.games,
        "wins": {names[int(s) - 1]: summary.wins[s] for s in seats},
        "draws": summary.draws + summary.all_lost,
        "mean_turns": sum(turns) / len(turns) if turns else 0.0,
        "bot": name,
        "seed": seed,
    }


def duel(
    heroes: Annotated[
        list[str] | None, typer.Argument(help="Two hero files (or sample names): A B.")
    ] = None,
    team: Annotated[
        list[str] | None,
        typer.Option(help="A team instead: --team 1=a.yaml,b.yaml --team 2=c.yaml."),
    ] = None,
    map_file: Annotated[
        str | None, typer.Option("--map", help="Arena map file or shipped map name.")
    ] = None,
    games: Annotated[
        int, typer.Option("--games", "-n", min=1, max=MAX_GAMES, help="How many matches.")
    ] = 200,
    seed: Annotated[int, typer.Option(help="Seed of the batch.")] = 0,
    bot: Annotated[str | None, typer.Option(help="Bot for both sides (default: best).")] = None,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs",
            min=1,
            max=MAX_JOBS,
            help="Worker processes (or Ray CPUs); default: one per 500 games, one per core "
            "at most.",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON only.")] = False,
    backend: BackendArg = "local",
    address: AddressArg = None,
    results: ResultsArg = None,
    show_kept: KeptArg = False,
) -> None:
    """Monte Carlo between two heroes (or teams), both played by the best bot: win rates
    with 95% confidence intervals, draws and mean turns."""
    register_game(GAME)  # the main command has registered every game and bot
    console = Console()
    err = Console(stderr=True)
    try:
        values = duel_options(heroes or [], team or [], map_file)
        show = err.is_terminal and not as_json
        columns = (
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
        )
        with Progress(*columns, console=err, disable=not show, transient=True) as progress:
            workers = jobs if jobs is not None else default_jobs(games, usable_cores())
            if show_kept and jobs is None:
                workers = 1  # the tables shown are this process's
            runner = runner_of(backend, workers, address)
            if show_kept:
                runner = kept_runner(runner)
            result = run_duel(values, games, seed, bot, runner, progress, results)
    except GladiatoriumError as error:
        err.print(error_text(error), soft_wrap=True)
        raise typer.Exit(2) from error
    rows = kept_rows(SLUG) if show_kept else []
    if as_json:
        shown = {k: result[k] for k in ("games", "wins", "draws", "mean_turns")}
        print(json.dumps({**shown, "kept": rows} if show_kept else shown))
        return
    table = Table("side", "wins", "win rate", "95% interval")
    for name, wins in result["wins"].items():
        low, high = wilson_interval(wins, result["games"])
        table.add_row(
            Text(name), str(wins), f"{wins / result['games']:.1%}", f"{low:.1%}-{high:.1%}"
        )
    low, high = wilson_interval(result["draws"], result["games"])
    table.add_row(
        "draws",
        str(result["draws"]),
        f"{result['draws'] / result['games']:.1%}",
        f"{low:.1%}-{high:.1%}",
    )
    console.print(table)
    console.print(
        f"{result['games']} games, bot {result['bot']}, seed {result['seed']}, "
        f"mean {result['mean_turns']:.1f} turns"
    )
    if show_kept:
        console.print(kept_table(rows))


def register(app: typer.Typer) -> None:
    """Add the ``duel`` command to the main CLI."""
    app.command("duel")(duel)


if __name__ == "__main__":  # pragma: no cover
    standalone = typer.Typer(add_completion=False)
    register(standalone)
    standalone()
