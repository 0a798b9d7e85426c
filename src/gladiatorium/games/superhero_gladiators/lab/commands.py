"""``gladiatorium lab balance`` and ``lab cost``: Superhero Gladiators reports that say
whether a hero or a power's cost is fair (named by the package's ``lab_commands()``,
which the loader registers, and mounted on the ``lab`` group by cli/lab.py)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from gladiatorium.core import GladiatoriumError, OptionsError, register_game, terminal
from gladiatorium.core.batches import GameResult
from gladiatorium.core.terminal import check_output, error_text
from gladiatorium.games.superhero_gladiators import GAME

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
    """The lab's progress bar on stderr; the callback advances it by a game."""
    err = Console(stderr=True)
    with terminal.progress_bar(err, err.is_terminal and not quiet) as progress:
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


def balance(
    heroes: Annotated[list[str], typer.Argument(help="Sample names or hero files.")],
    games: Games = 20,
    maps: Maps = None,
    seed: Seed = 0,
    jobs: Jobs = 1,
    out: Annotated[Path, typer.Option(help="Folder for the report.")] = Path("balance"),
    force: Force = False,
    bot: Annotated[
        str | None,
        typer.Option(help="Bot on both sides, e.g. mcts or mcts:iterations=64 (default: best)."),
    ] = None,
) -> None:
    """Every ordered pair of HEROES on several arenas, played by the best bot (or
    ``--bot``): a win-rate matrix with 95% intervals, each hero's strength against its
    cost, lopsided pairings and draws, written to OUT/index.html, balance.json,
    balance.png and balance.svg."""
    from gladiatorium.games.superhero_gladiators.lab.balance import (
        arenas,
        load_entrants,
        run_balance,
    )
    from gladiatorium.games.superhero_gladiators.lab.balance_report import write_balance_report

    register_game(GAME)  # the main command has registered every game and bot
    try:
        entrants = load_entrants(heroes)
        chosen = arenas(split_list(maps))
        check_folder(out, BALANCE_FILES, force)
        total = len(entrants) * (len(entrants) - 1) * len(chosen) * games
        with progress_bar(total, quiet=False) as advance:
            result = run_balance(entrants, chosen, games, seed, jobs, advance, bot=bot)
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


COST_FILES = ("index.html", "cost.json", "cost.png", "cost.svg")


def parse_levels(given: str) -> list[int]:
    """``1,2,3`` or ``2-5``: power levels 1-8."""
    levels: list[int] = []
    for part in filter(None, (p.strip() for p in given.split(","))):
        low, _, high = part.partition("-")
        if not low.isdigit() or (high and not high.isdigit()):
            raise OptionsError(f"--levels {given!r}: {part!r} is not a level or a range (2-5)")
        levels += range(int(low), int(high or low) + 1)
    if len(levels) < 2 or any(not 1 <= lv <= 8 for lv in levels) or len(set(levels)) < len(levels):
        raise OptionsError(f"--levels {given!r}: give two or more different levels from 1 to 8")
    return levels


def cost(
    specs: Annotated[
        list[str],
        typer.Argument(
            help="POWER[:KEY=VALUE,...] on the hero (KEY: type, styles, flaws, gizmo, uses; "
            "lists joined with +); several specs are compared with the first."
        ),
    ],
    hero: Annotated[str, typer.Option(help="Reference hero (sample name or file).")] = "cowboy",
    field: Annotated[
        list[str] | None,
        typer.Option(help="Heroes to fight, comma-separated (default: the samples)."),
    ] = None,
    levels: Annotated[str, typer.Option(help="Power levels to play, e.g. 1-5 or 2,4,6.")] = "1-5",
    games: Games = 10,
    maps: Maps = None,
    seed: Seed = 0,
    jobs: Jobs = 1,
    out: Annotated[Path, typer.Option(help="Folder for the report.")] = Path("cost"),
    force: Force = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the JSON only.")] = False,
) -> None:
    """What a power is worth in points: the power at several levels on the reference hero
    against a field (both sides, several arenas); win rate fitted against points. With
    several specs (the same power hidden and not, say), the later ones are priced against
    the first: the factor that fits, with its 95% interval, beside what the table charges."""
    from gladiatorium.games.superhero_gladiators.hero_files import hero_data, sample_files
    from gladiatorium.games.superhero_gladiators.lab.balance import arenas, entrant, load_entrants
    from gladiatorium.games.superhero_gladiators.lab.cost import parse_spec, run_cost, worth
    from gladiatorium.games.superhero_gladiators.lab.cost_report import (
        worth_text,
        write_cost_report,
    )

    register_game(GAME)  # the main command has registered every game and bot
    try:
        parsed = [parse_spec(s) for s in specs]
        chosen_levels = parse_levels(levels)
        reference = entrant(hero_data(hero), hero)
        foes = load_entrants(split_list(field) or [str(p) for p in sample_files()], least=1)
        chosen = arenas(split_list(maps))
        check_folder(out, COST_FILES, force)
        total = len(parsed) * len(chosen_levels) * 2 * len(chosen) * games * len(foes)
        with progress_bar(total, quiet=as_json) as advance:
            study = run_cost(
                reference, parsed, foes, chosen_levels, chosen, games, seed, jobs, advance
            )
    except GladiatoriumError as error:
        raise fail(error) from error
    write_cost_report(study, out)
    if as_json:
        print(json.dumps(study.to_json()))
        return
    console = Console()
    for s in study.series:
        shown = Table("level", "power points", "hero points", "win rate", "95% interval", "draws")
        shown.title = Text(s.spec.text)
        for lv in s.levels:
            low, high = lv.record.interval
            shown.add_row(
                str(lv.level),
                str(lv.power_points),
                str(lv.hero_points),
                f"{lv.record.win_rate:.1%}",
                f"{low:.1%}-{high:.1%}",
                str(lv.record.draws),
            )
        console.print(shown)
    for i, s in enumerate(study.series):
        line = f"{s.spec.text}: {s.fit.per_ten_points:+.1%} win rate per 10 points"
        if i:
            line += (
                f"; worth {worth_text(worth(study.series[0], s))} over {study.series[0].spec.text}"
            )
        console.print(Text(line))
    console.print(Text(f"report: {out / 'index.html'}"))


GAUNTLET_FILES = ("gauntlet.json",)


def gauntlet(
    hero: Annotated[str, typer.Argument(help="The hero's file (YAML or JSON) or a sample name.")],
    seed: Seed = 0,
    games: Annotated[
        str, typer.Option("--games", "-n", help="Games per pairing by bot: BOT=N,...")
    ] = "greedy=10,mcts=1",
    maps: Maps = None,
    jobs: terminal.JobsArg = 1,
    backend: terminal.BackendArg = "local",
    address: terminal.AddressArg = None,
    out: Annotated[Path | None, typer.Option(help="Folder for gauntlet.json.")] = None,
    force: Force = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the JSON only.")] = False,
) -> None:
    """A hero's gauntlet: HERO against every sample hero, both sides of every arena, for
    each bot: its record against each sample and overall with 95% intervals, and its
    fairness badge (strength in points against its cost). The server's gauntlet of a
    published hero is this command with the seed it shows: the same games, the same
    figures."""
    from gladiatorium.core.files import FileRefused, flag_error, read_text
    from gladiatorium.core.gauntlet import GauntletSize, parse_games
    from gladiatorium.core.jobs import run_jobs
    from gladiatorium.games.superhero_gladiators.hero_files import (
        MAX_HERO_FILE_BYTES,
        resolve_hero_path,
    )
    from gladiatorium.games.superhero_gladiators.lab.gauntlet import HeroGauntlet

    register_game(GAME)  # the main command has registered every game and bot
    try:
        path = resolve_hero_path(hero)
        try:
            text = read_text(path, MAX_HERO_FILE_BYTES)
        except FileRefused as err:
            raise OptionsError(flag_error("HERO", err)) from err
        size = GauntletSize(parse_games(games, "--games"), tuple(split_list(maps)))
        plan = HeroGauntlet(text, seed, size, str(path))
        if out is not None:
            check_folder(out, GAUNTLET_FILES, force)
        runner = terminal.runner_of(backend, jobs, address)
        planned = plan.jobs()
        with progress_bar(len(planned), quiet=as_json) as advance:
            played = run_jobs(planned, runner, on_done=lambda r: advance(0, r))
    except GladiatoriumError as error:
        raise fail(error) from error
    summary = plan.summary("".join(plan.mark(r) for r in played))
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / "gauntlet.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    if as_json:
        print(json.dumps(summary))
        return
    show_gauntlet(summary)


def show_gauntlet(data: dict[str, Any]) -> None:
    """The gauntlet's records as a table, then the badge."""
    bots = list(data["games"])
    shown = Table("against", "points", *(f"{bot}" for bot in bots), "all", "95% interval")
    shown.title = Text(f"{data['hero']} ({data['points']} points)")

    def rate(record: dict[str, Any]) -> str:
        return f"{record['win_rate']:.0%} of {record['games']}"

    rows = [(o["name"], str(o["points"]), o["by_bot"], o["overall"]) for o in data["opponents"]]
    rows.append(("every sample", "", data["by_bot"], data["overall"]))
    for name, points, by_bot, overall in rows:
        low, high = overall["interval"]
        cells = [rate(by_bot[bot]) for bot in bots]
        shown.add_row(Text(name), points, *cells, rate(overall), f"{low:.1%}-{high:.1%}")
    console = Console()
    console.print(shown)
    console.print(Text(f"badge: {data['badge'].get('words', data['badge']['verdict'])}"))
    console.print(Text(f"same games: {data['command']}"))
