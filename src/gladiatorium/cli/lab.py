"""``gladiatorium lab ...``: tournaments and ratings, rule-option sweeps."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from gladiatorium.cli.common import build_options, error_text
from gladiatorium.cli.runs import (
    AddressArg,
    BackendArg,
    JobsArg,
    ResultsArg,
    progress_bar,
    results_of,
    runner_of,
)
from gladiatorium.core import GladiatoriumError, OptionsError, bots_for, get_game
from gladiatorium.lab.ratings import Ladder
from gladiatorium.lab.simulate import wilson_interval
from gladiatorium.lab.tournament import Tournament, TournamentResult, run_tournament

EXTRA = {"allow_extra_args": True, "ignore_unknown_options": True}
#: the most games a line-up (or an option combination) may ask for
MAX_GAMES = 1_000_000

lab_app = typer.Typer(
    help="The lab: tournaments and ratings, rule-option sweeps.", no_args_is_help=True
)
console = Console()
err_console = Console(stderr=True)

GameArg = Annotated[str, typer.Argument(metavar="GAME")]
BotsArg = Annotated[
    str | None,
    typer.Option("--bots", help="Bots to enter, comma-separated (default: all the game's)."),
]
OptionArg = Annotated[list[str], typer.Option("--option", "-o", help="Rule option KEY=VALUE.")]
PlayersArg = Annotated[int | None, typer.Option("--players", "-p", help="Number of players.")]
JsonArg = Annotated[bool, typer.Option("--json", help="Print JSON for machines.")]


def fail(error: Exception) -> typer.Exit:
    err_console.print(error_text(error), highlight=False, soft_wrap=True)
    return typer.Exit(2)


def bot_names(game_slug: str, given: str | None) -> list[str]:
    """``--bots a,b,c``, or every bot the game has (one name for each bot)."""
    if given is not None:
        return [name.strip() for name in given.split(",") if name.strip()]
    seen: set[object] = set()
    names = []
    for name, factory in bots_for(get_game(game_slug)).items():
        if factory not in seen:
            seen.add(factory)
            names.append(name)
    return names


@lab_app.command("tournament", context_settings=EXTRA)
def tournament_command(
    ctx: typer.Context,
    game_slug: GameArg,
    bots: BotsArg = None,
    games: Annotated[
        int, typer.Option("--games", "-n", min=1, max=MAX_GAMES, help="Games per line-up.")
    ] = 10,
    players: PlayersArg = None,
    option: OptionArg = [],  # noqa: B006
    seed: Annotated[
        int | None,
        typer.Option(min=0, max=2**63 - 1, help="Run seed (default 0; a ladder's next)."),
    ] = None,
    ladder: Annotated[
        Path | None,
        typer.Option("--ladder", help="A ladder file (JSON): its ratings go on from run to run."),
    ] = None,
    as_json: JsonArg = False,
    backend: BackendArg = "local",
    address: AddressArg = None,
    jobs: JobsArg = 1,
    results: ResultsArg = None,
) -> None:
    """Round robin between bots (every combination, seats rotated), rated with
    OpenSkill (Plackett-Luce): a table best first, or --json."""
    try:
        game = get_game(game_slug)
        values = build_options(game, option, ctx.args)
        plan = Tournament.plan(game_slug, bot_names(game_slug, bots), games, 0, values, players)
        kept = None
        if ladder is not None:
            kept = Ladder.open(ladder, plan.about())
            seed = _ladder_seed(kept, seed, ladder)
        plan = dataclasses.replace(plan, seed=seed or 0)
        runner = runner_of(backend, jobs, address)
        stored = results_of(results, plan.run_params())
        total = len(plan.lineups()) * plan.games
        with progress_bar(err_console, err_console.is_terminal and not as_json) as bar:
            task = bar.add_task("playing", total=total)
            start = kept.ratings if kept is not None else None
            outcome = run_tournament(plan, runner, stored, lambda _: bar.advance(task), start)
        if kept is not None:
            kept.runs.append({"seed": plan.seed, "bots": list(plan.bots), "games": total})
            kept.save()
    except GladiatoriumError as err:
        raise fail(err) from err
    if as_json:
        print(json.dumps(outcome.to_json(), indent=2))
        return
    show_ratings(outcome, ladder)


def _ladder_seed(ladder: Ladder, seed: int | None, path: Path) -> int:
    """The seed of a ladder's next run: the one given, if the ladder has not played it
    (the same games again would count twice), else one past the last."""
    played = ladder.seeds()
    if seed is None:
        return max(played, default=-1) + 1
    if seed in played:
        raise OptionsError(
            f"--ladder {path}: seed {seed} was played already (the same games would count "
            f"twice); leave --seed out for the next one ({max(played) + 1})"
        )
    return seed


def show_ratings(outcome: TournamentResult, ladder: Path | None) -> None:
    t = outcome.tournament
    table = Table("#", "bot", "rating", "mu ± sigma", "games", "W-D-L", "win rate (95%)")
    table.title = f"{t.game}: OpenSkill ratings (mu - 3 sigma)"
    for rank, (bot, s) in enumerate(outcome.ratings.table(), start=1):
        low, high = wilson_interval(s.wins, s.games)
        rate = f"{s.wins / s.games:.0%} ({low:.0%}-{high:.0%})" if s.games else "-"
        table.add_row(
            str(rank),
            Text(bot),
            f"{s.ordinal:.1f}",
            f"{s.mu:.1f} ± {s.sigma:.1f}",
            str(s.games),
            f"{s.wins}-{s.draws}-{s.losses}",
            rate,
        )
    console.print(table)
    where = f", ladder {ladder}" if ladder is not None else ""
    console.print(
        Text(
            f"{len(outcome.results)} games ({len(t.lineups())} line-ups x {t.games}), "
            f"{outcome.draws} draws, {len(t.sides)} sides, seed {t.seed}{where}"
        )
    )


def register(app: typer.Typer) -> None:
    """Add ``lab`` and its sub-commands to the main CLI."""
    app.add_typer(lab_app, name="lab")
