"""``gladiatorium lab ...``: tournaments and ratings, rule-option sweeps, and the games'
own lab reports (found through the registry)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from gladiatorium.core import GladiatoriumError, OptionsError, bots_for, get_game, registry
from gladiatorium.core.batches import wilson_interval
from gladiatorium.core.terminal import (
    AddressArg,
    BackendArg,
    JobsArg,
    ResultsArg,
    build_options,
    check_output,
    error_text,
    parse_pairs,
    progress_bar,
    results_of,
    runner_of,
)
from gladiatorium.games import load
from gladiatorium.lab.ratings import Ladder
from gladiatorium.lab.sweep import Sweep, SweepResult, option_values, run_sweep
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
    pairs = outcome.pairs()
    if pairs:
        heads = Table("bot", "against", "games", "W-D-L", "win rate (95%)")
        heads.title = "head to head (the games only the two played)"
        for pair in pairs:
            low, high = pair.interval
            heads.add_row(
                Text(pair.bot),
                Text(pair.against),
                str(pair.games),
                f"{pair.wins}-{pair.draws}-{pair.losses}",
                f"{pair.wins / pair.games:.0%} ({low:.0%}-{high:.0%})",
            )
        console.print(heads)
    where = f", ladder {ladder}" if ladder is not None else ""
    console.print(
        Text(
            f"{len(outcome.results)} games ({len(t.lineups())} line-ups x {t.games}), "
            f"{outcome.draws} draws, {len(t.sides)} sides, seed {t.seed}{where}"
        )
    )


@lab_app.command("sweep", context_settings=EXTRA)
def sweep_command(
    ctx: typer.Context,
    game_slug: GameArg,
    option: Annotated[
        list[str],
        typer.Option("--option", "-o", help="KEY=v1,v2,...: the values to try (one value: fixed)."),
    ] = [],  # noqa: B006
    bots: Annotated[
        str | None,
        typer.Option("--bots", help="Bots taking the sides in turn (default: the best on all)."),
    ] = None,
    games: Annotated[
        int,
        typer.Option("--games", "-n", min=1, max=MAX_GAMES, help="Games per combination."),
    ] = 100,
    players: PlayersArg = None,
    seed: Annotated[int, typer.Option(min=0, max=2**63 - 1, help="Run seed.")] = 0,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Folder for sweep.json and the plot (sweep.png, sweep.svg)."),
    ] = None,
    as_json: JsonArg = False,
    backend: BackendArg = "local",
    address: AddressArg = None,
    jobs: JobsArg = 1,
    results: ResultsArg = None,
) -> None:
    """How rule options move first-player advantage, game length and the draw rate:
    every combination of the values given, each figure with a 95% interval."""
    try:
        game = get_game(game_slug)
        pairs = parse_pairs(option, "option")
        axes = {key: option_values(key, text) for key, text in pairs.items()}
        base = build_options(game, [], ctx.args)
        names = bot_names(game_slug, bots)[:1] if bots is None else bot_names(game_slug, bots)
        plan = Sweep.plan(game_slug, axes, names, games, seed, base, players)
        if out is not None:
            check_output(out, "--out", folder=True)
        runner = runner_of(backend, jobs, address)
        stored = results_of(results, plan.run_params())
        total = len(plan.combinations) * games
        with progress_bar(err_console, err_console.is_terminal and not as_json) as bar:
            task = bar.add_task("sweeping", total=total)
            outcome = run_sweep(plan, runner, stored, lambda _: bar.advance(task))
        written = _write_sweep(outcome, out) if out is not None else []
    except GladiatoriumError as err:
        raise fail(err) from err
    if as_json:
        print(json.dumps(outcome.to_json(), indent=2))
        return
    show_sweep(outcome, written)


def _write_sweep(outcome: SweepResult, out: Path) -> list[Path]:
    from gladiatorium.lab.plots import sweep_plot

    try:
        out.mkdir(exist_ok=True)
        data = out / "sweep.json"
        data.write_text(json.dumps(outcome.to_json(), indent=2) + "\n", encoding="utf-8")
        return [data, *sweep_plot(outcome, out)]
    except OSError as err:
        raise OptionsError(f"--out {out}: cannot write there ({err.strerror})") from err


def show_sweep(outcome: SweepResult, written: list[Path]) -> None:
    s = outcome.sweep
    has_rounds = all(f.rounds is not None for _, f in outcome.rows)
    columns = ["options", "first side [95%] (fair)", "draws [95%]", "mean actions [95%]"]
    table = Table(*columns, *(["mean rounds [95%]"] if has_rounds else []))
    table.columns[0].overflow = "fold"
    table.title = f"{s.game}: {s.games} games per combination, 95% intervals"
    for combo, f in outcome.rows:
        share, low, high = f.first_share
        cells: list[Text | str] = [
            Text(combo.label),
            f"{share:.0%} [{low:.0%}-{high:.0%}] ({1 / len(combo.sides):.0%})",
            "{:.0%} [{:.0%}-{:.0%}]".format(*f.draw_rate),
            "{:.1f} [{:.1f}-{:.1f}]".format(*f.length),
        ]
        if f.rounds is not None and has_rounds:
            cells.append("{:.1f} [{:.1f}-{:.1f}]".format(*f.rounds))
        table.add_row(*cells)
    console.print(table)
    console.print(
        Text(
            f"bots {', '.join(s.bots)}, seed {s.seed}; first side: its share of the games "
            "someone won"
        )
    )
    for path in written:
        console.print(Text(f"wrote {path}"))


def register(app: typer.Typer) -> None:
    """Add ``lab`` and its sub-commands to the main CLI: its own, then every registered
    game's lab reports (``core.lab_commands``: Superhero Gladiators' ``balance`` and
    ``cost``). A name taken by a lab command or another game is refused."""
    load()
    taken = {command.name for command in lab_app.registered_commands}
    for game in registry.games():
        for name, command in registry.lab_commands(game).items():
            if name in taken:
                raise GladiatoriumError(f"{game.info.slug}: the lab command {name!r} is taken")
            taken.add(name)
            if isinstance(command, typer.Typer):
                lab_app.add_typer(command, name=name)
            elif callable(command):
                lab_app.command(name)(command)
            else:
                raise GladiatoriumError(
                    f"{game.info.slug}: the lab command {name!r} is neither a typer app nor "
                    "a function"
                )
    app.add_typer(lab_app, name="lab")
