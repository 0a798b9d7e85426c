"""``gladiatorium``: one entry point, a sub-command per job."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any
from urllib.parse import urlsplit

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text
from typer.models import CommandInfo

from gladiatorium.cli import lab
from gladiatorium.cli import ratings as ratings_cli
from gladiatorium.cli.positions import position_command
from gladiatorium.cli.terminal import HumanSeat, QuitMatch, show_end, show_rules
from gladiatorium.core import (
    Bot,
    Game,
    GladiatoriumError,
    RecordError,
    Seat,
    State,
    entropy_seed,
    games,
    get_game,
)
from gladiatorium.core.batches import (
    Batch,
    GameResult,
    Summary,
    batch_run,
    run_batch,
    wilson_interval,
)
from gladiatorium.core.files import FileRefused, flag_error, read_text
from gladiatorium.core.jobs import ResultsFile, Runner
from gladiatorium.core.match import MatchTooLong, Person, make_bots, run_match
from gladiatorium.core.record import MatchRecord, record_of, replay_file, save_record, verify
from gladiatorium.core.terminal import (
    AddressArg,
    BackendArg,
    JobsArg,
    KeptArg,
    ResultsArg,
    build_options,
    check_output,
    error_text,
    kept_rows,
    kept_runner,
    kept_table,
    parse_pairs,
    progress_bar,
    results_of,
    runner_of,
    seat_controllers,
)
from gladiatorium.games import load

if TYPE_CHECKING:
    from gladiatorium.server.config import Settings

EXTRA = {"allow_extra_args": True, "ignore_unknown_options": True}

app = typer.Typer(
    help="Gladiatorium: design heroes, play, simulate and replay hero and gladiator games.",
    no_args_is_help=False,
    add_completion=False,
)
console = Console()
err_console = Console(stderr=True)


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print a one-line error (its text never read as markup) and give the exit."""
    err_console.print(error_text(message), highlight=False, soft_wrap=True)
    return typer.Exit(code)


def start_state(
    slug: str,
    option: list[str],
    extra: list[str],
    players: int | None,
    seed: int,
    position: Path | None = None,
) -> tuple[Game[Any], State[Any]]:
    game = get_game(slug)
    options = build_options(game, option, extra)
    if position is None:
        return game, game.start(options, players, seed)
    return game, game.start(options, players, seed, read_position(position), str(position))


def read_position(path: Path) -> str:
    """The text of a ``--position`` file; the game's reader names its lines."""
    try:
        return read_text(path, MAX_POSITION_BYTES)
    except FileRefused as err:
        raise GladiatoriumError(flag_error("--position", err)) from err


OptionArg = Annotated[list[str], typer.Option("--option", "-o", help="Rule option KEY=VALUE.")]
SeatArg = Annotated[list[str], typer.Option("--seat", help="SEAT=human or SEAT=BOT name.")]
PlayersArg = Annotated[int | None, typer.Option("--players", "-p", help="Number of players.")]
SEED_MAX = 2**63 - 1
SeedArg = Annotated[int, typer.Option("--seed", min=0, max=SEED_MAX, help="Seed for the dice.")]
MatchSeedArg = Annotated[
    int | None,
    typer.Option(
        "--seed",
        min=0,
        max=SEED_MAX,
        help="Seed for reproducible dice and deals (default: unpredictable).",
    ),
]
JsonArg = Annotated[bool, typer.Option("--json", help="Print JSON for machines.")]
ForceArg = Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")]
#: the most games a batch may ask for
MAX_GAMES = 10_000_000
#: the largest position file read (a full board is a few kilobytes)
MAX_POSITION_BYTES = 256 * 1024
PositionArg = Annotated[
    Path | None, typer.Option("--position", help="Start from the position written in FILE.")
]


@app.callback(invoke_without_command=True)
def main(ctx: typer.Context) -> None:
    load()
    play_command = getattr(ctx.command, "commands", {}).get("play")
    if play_command is not None:
        play_command.epilog = _flag_help()
    if ctx.invoked_subcommand is None:
        from gladiatorium.cli.menu import run_menu

        run_menu(console)


@app.command("games")
def list_games(as_json: JsonArg = False) -> None:
    """The registered games with players and a one-line description."""
    rows = [
        {
            "slug": g.info.slug,
            "name": g.info.name,
            "players": [g.info.min_players, g.info.max_players],
            "hidden_information": g.info.hidden_information,
            "simultaneous": g.info.simultaneous,
            "version": g.info.version,
            "summary": g.info.summary,
        }
        for g in games()
    ]
    if as_json:
        print(json.dumps(rows, indent=2))
        return
    table = Table("game", "players", "about")
    for g in games():
        table.add_row(g.info.slug, f"{g.info.min_players}-{g.info.max_players}", g.info.summary)
    console.print(table)


def _flag_help() -> str:
    """The game-specific flags of every game, for ``play --help``."""
    lines = [
        f"{g.info.slug}: "
        + "; ".join(f"--{flag} {text}" for flag, text in g.terminal.cli_flags.items())
        for g in games()
        if g.terminal.cli_flags
    ]
    if not lines:
        return ""
    return "Game-specific flags:\n\n" + "\n\n".join(lines)


@app.command("play", context_settings=EXTRA)
def play(
    ctx: typer.Context,
    game_slug: Annotated[
        str | None, typer.Argument(metavar="[GAME]", help="A game (none: the menu).")
    ] = None,
    seat: SeatArg = [],  # noqa: B006 - typer reads the default
    seed: MatchSeedArg = None,
    option: OptionArg = [],  # noqa: B006
    players: PlayersArg = None,
    save: Annotated[Path | None, typer.Option(help="Write the match record here.")] = None,
    position: PositionArg = None,
    force: ForceArg = False,
    resume: Annotated[
        Path | None,
        typer.Option(
            help="Continue the match saved in this record (saved back to it unless --save)."
        ),
    ] = None,
) -> None:
    """Play in the terminal: any mix of people and bots (hot-seat for several people).
    Unnamed seats are the game's best bot, except the first seat, which is a person
    unless it is named or another seat is a person. Without --seed the dice and deals
    come from the operating system's entropy; the seed is kept in a saved record only.
    At the prompt: 'help', 'legal', 'rules', 'undo' (against bots), 'quit'.
    Without a game, the menu picks one."""
    if game_slug is None and resume is None:
        from gladiatorium.cli.menu import run_menu

        run_menu(console)
        return
    try:
        if resume is not None:
            game, state, seed, given = _resumed(resume, game_slug, seat, option, players, ctx)
            position = None
            if save is None:
                save, force = resume, True
        else:
            seed = entropy_seed() if seed is None else seed
            given = seat
        if save is not None:
            check_output(save, "--save", force)
        if resume is None:
            assert game_slug is not None  # the menu took the other case
            game, state = start_state(game_slug, option, ctx.args, players, seed, position)
        chosen = seat_controllers(game, state.seats, with_a_person(given, state.seats[0]), "best")
    except GladiatoriumError as err:
        raise fail(str(err)) from err
    humans = [s for s, name in chosen.items() if name == "human"]
    person = HumanSeat(game, console, hot_seat=len(humans) > 1)
    controllers: dict[Seat, Bot | Person] = {
        **make_bots(game, seed, {s: n for s, n in chosen.items() if n != "human"}),
        **{s: person for s in humans},
    }
    if state.is_over:
        console.print(Text("this match is already over"))
    try:
        run_match(state, controllers, game=game)
    except QuitMatch:
        console.print("[yellow]match stopped[/yellow]")
        if save is not None:
            again = f"gladiatorium play {game.info.slug} --resume {save}"
            console.print(Text(f"continue it with: {again}"), soft_wrap=True)
    except MatchTooLong as err:
        raise fail(str(err)) from err  # the record is still saved (finally)
    finally:
        if save is not None:
            _save(record_of(game, state, chosen), save)
    show_end(game, state, console, person, humans)


def _resumed(
    path: Path,
    slug: str | None,
    seat: list[str],
    option: list[str],
    players: int | None,
    ctx: typer.Context,
) -> tuple[Game[Any], State[Any], int, list[str]]:
    """The match of a saved record, replayed and checked, its seed, and its seats with
    the ``--seat`` pairs given now laid over them."""
    if option or players is not None or ctx.args:
        raise GladiatoriumError(
            "--resume: the record holds the options, players and flags; give only --seat"
        )
    record, state = replay_file(path)
    if slug is not None and record.game != slug:
        raise GladiatoriumError(f"--resume {path}: a {record.game} record, not {slug}")
    problems = verify(record, state)
    if problems:
        raise RecordError(f"--resume {path}: does not reproduce: {'; '.join(problems)}")
    given = {**record.seats, **parse_pairs(seat, "seat")}
    return get_game(record.game), state, record.seed, [f"{k}={v}" for k, v in given.items()]


@app.command("connect")
def connect_command(
    url: Annotated[
        str,
        typer.Argument(help="An invitation link, or a match's link (http://HOST/matches/ID)."),
    ],
    seat: Annotated[
        str | None, typer.Option(help="The seat to play (or ?seat=S in a match's link).")
    ] = None,
    user: Annotated[
        str | None, typer.Option(envvar="GLADIATORIUM_USER", help="Log in as this user.")
    ] = None,
    password: Annotated[
        str | None,
        typer.Option(
            envvar="GLADIATORIUM_PASSWORD", help="The password (asked for when not given)."
        ),
    ] = None,
) -> None:
    """Play a seat of a match on a Gladiatorium server at the terminal: an invitation
    link (as the account given by --user, else as a guest), or a match's link with a
    seat and a login (an open seat is joined). The same board, prompt and commands as
    'play' ('legal', 'help', 'board', 'rules', 'quit'); it waits for the others between
    turns and ends with the result."""
    from getpass import getpass

    from gladiatorium.cli.connect import ConnectError, Login, Quit, connect

    try:
        result = connect(url, seat, Login(user, password), console, console.input, getpass)
    except ConnectError as err:
        raise fail(str(err), 1) from None
    except Quit:
        console.print("[yellow]left the match[/yellow] (it goes on: connect again to play on)")
        return
    console.print(Text(result, style="bold"), highlight=False)


@app.command("rules")
def rules_command(game_slug: Annotated[str, typer.Argument(metavar="GAME")]) -> None:
    """The game's rules and rulings, paged on a terminal."""
    try:
        game = get_game(game_slug)
    except GladiatoriumError as err:
        raise fail(str(err)) from err
    if not show_rules(game, console):
        raise fail(f"{game.info.name} has no rules text")


def _save(record: MatchRecord, path: Path) -> None:
    """Save the record; if that fails at the end, print it, so the match is not lost."""
    try:
        save_record(record, path)
    except GladiatoriumError as err:
        print(record.model_dump_json(indent=2))
        raise fail(f"{err}; the record is printed on standard output") from err
    console.print(Text(f"record saved to {path}"), soft_wrap=True)


def with_a_person(given: list[str], first: Seat) -> list[str]:
    """The ``--seat`` pairs, with ``FIRST=human`` added when no seat is a person and the
    first seat is not named (so ``play GAME --seat 2=random`` still seats you)."""
    chosen = parse_pairs(given, "seat")
    return given if "human" in chosen.values() or first in chosen else [*given, f"{first}=human"]


def describe_outcome(outcome: dict[str, Any]) -> str:
    if outcome["draw"]:
        return f"Draw: {outcome['reason']}"
    if outcome.get("lost"):
        return f"Nobody won: {outcome['reason']}"
    who = outcome["team"] or ", ".join(outcome["winners"])
    return f"Won by {who}: {outcome['reason']}"


@app.command("simulate", context_settings=EXTRA)
def simulate(
    ctx: typer.Context,
    game_slug: Annotated[str, typer.Argument(metavar="GAME")],
    n_games: Annotated[
        int, typer.Option("--games", "-n", min=1, max=MAX_GAMES, help="How many games.")
    ] = 100,
    seed: SeedArg = 0,
    seat: SeatArg = [],  # noqa: B006
    option: OptionArg = [],  # noqa: B006
    players: PlayersArg = None,
    jobs: JobsArg = 1,
    save: Annotated[Path | None, typer.Option(help="Folder for every match record.")] = None,
    as_json: JsonArg = False,
    position: PositionArg = None,
    force: ForceArg = False,
    backend: BackendArg = "local",
    address: AddressArg = None,
    results: ResultsArg = None,
    show_kept: KeptArg = False,
) -> None:
    """Bot-vs-bot batches: wins per seat and team, draws, mean length."""
    try:
        runner = runner_of(backend, jobs, address)
        if show_kept:
            runner = kept_runner(runner)
        game, state = start_state(game_slug, option, ctx.args, players, seed, position)
        bots = seat_controllers(game, state.seats, seat, "best")
        if "human" in bots.values():
            raise GladiatoriumError("simulate plays bots only; a seat is set to human")
        if save is not None:
            check_output(save, "--save", folder=True)
            if not force and any(save.glob(f"{game.info.slug}-*.json")):
                raise GladiatoriumError(
                    f"--save {save}: holds {game.info.slug} records of an earlier batch; "
                    "add --force to overwrite them"
                )
            save.mkdir(exist_ok=True)
        options = state.options.model_dump(mode="json")
        batch = Batch(game.info.slug, options, state.players, seed, bots, state.position)
        kept = results_of(results, batch_run(batch))
        show = console.is_terminal and not as_json
        summary = _run_with_progress(batch, n_games, runner, kept, save, show)
    except GladiatoriumError as err:
        raise fail(str(err)) from err
    result = {"game": game.info.slug, "seats": bots, **summary.to_json()}
    rows = kept_rows(game.info.slug) if show_kept else []
    if as_json:
        print(json.dumps({**result, "kept": rows} if show_kept else result, indent=2))
        return
    table = Table("seat", "bot", "wins", "win rate", "95% interval")
    for s, bot in bots.items():
        wins = summary.wins[s]
        low, high = wilson_interval(wins, summary.games)
        table.add_row(s, bot, str(wins), f"{wins / summary.games:.1%}", f"{low:.1%}-{high:.1%}")
    console.print(table)
    for team, wins in sorted(summary.team_wins.items()):
        console.print(f"team {team}: {wins} wins")
    lost = f"{summary.all_lost} lost by all, " if summary.all_lost else ""
    console.print(
        f"{summary.games} games, {summary.draws} draws, {lost}"
        f"mean length {summary.mean_length:.1f} actions"
    )
    if show_kept:
        console.print(kept_table(rows))


def _run_with_progress(
    batch: Batch,
    n: int,
    runner: Runner,
    results: ResultsFile | None,
    save: Path | None,
    show: bool,
) -> Summary:
    with progress_bar(console, show) as progress:
        task = progress.add_task("simulating", total=n)

        def each(result: GameResult) -> None:
            progress.advance(task)
            if save is not None and result.record is not None:
                path = save / f"{batch.game}-{result.index:05d}.json"
                try:
                    path.write_text(json.dumps(result.record, indent=2) + "\n", encoding="utf-8")
                except OSError as err:
                    raise RecordError(f"{path}: cannot write it ({err.strerror})") from err

        keep = save is not None
        return run_batch(batch, n, 1, keep, each, runner, results)


@app.command("legal", context_settings=EXTRA)
def legal(
    ctx: typer.Context,
    game_slug: Annotated[str, typer.Argument(metavar="GAME")],
    record: Annotated[Path | None, typer.Option(help="Replay this record first.")] = None,
    seed: SeedArg = 0,
    option: OptionArg = [],  # noqa: B006
    players: PlayersArg = None,
    as_json: JsonArg = False,
    position: PositionArg = None,
) -> None:
    """The seats awaited and each one's legal actions, at the start (or at a written
    position) or after a record."""
    try:
        if record is not None:
            loaded, state = replay_file(record)
            if loaded.game != game_slug:
                raise GladiatoriumError(f"{record} is a {loaded.game} record, not {game_slug}")
            problems = verify(loaded, state)
            if problems:
                raise RecordError(f"{record}: does not reproduce: {'; '.join(problems)}")
        else:
            _, state = start_state(game_slug, option, ctx.args, players, seed, position)
    except GladiatoriumError as err:
        raise fail(str(err)) from err
    awaiting = list(state.awaiting())
    table = {s: [str(a) for a in state.legal_actions(s)] for s in awaiting}
    if as_json:
        print(json.dumps({"awaiting": awaiting, "legal": table}))
        return
    if not awaiting:
        console.print("the match is over")
    for s, actions in table.items():
        console.print(Text.assemble((s, "bold"), ": ", "  ".join(actions)), highlight=False)


@app.command("replay")
def replay_command(
    file: Annotated[Path, typer.Argument(help="A match record (JSON).")],
    seat: Annotated[str | None, typer.Option(help="Show only what this seat saw.")] = None,
    as_json: JsonArg = False,
) -> None:
    """Re-run a match record, check that it reproduces, print the event log."""
    try:
        record, state = replay_file(file)
    except GladiatoriumError as err:
        raise fail(str(err)) from err
    problems = verify(record, state)
    events = state.events_for(seat) if seat is not None else state.events
    if as_json:
        print(
            json.dumps(
                {
                    "reproduced": not problems,
                    "problems": problems,
                    "events": [e.to_json() for e in events],
                },
                indent=2,
            )
        )
    else:
        for event in events:
            mark = "" if event.to is None else f" (to {', '.join(sorted(event.to))})"
            console.print(Text.assemble(event.text, (mark, "dim")), highlight=False)
        outcome = state.outcome()
        if outcome is not None:
            console.print(Text(describe_outcome(outcome.to_json()), style="bold"))
        if problems:
            for problem in problems:
                err_console.print(Text(problem, style="red"))
        else:
            console.print(
                f"[green]reproduced: {len(record.actions)} actions, "
                f"{len(state.events)} events[/green]"
            )
    if problems:
        raise typer.Exit(1)


@app.command("serve")
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=1, max=65535)] = 8000,
    database_url: Annotated[
        str | None,
        typer.Option(
            help="SQLAlchemy URL (default: $GLADIATORIUM_DATABASE_URL, else gladiatorium.db here)."
        ),
    ] = None,
    public_url: Annotated[
        str | None,
        typer.Option(
            help="Base of the links the server writes, e.g. https://games.example.org; its "
            "origin is allowed too (default: $GLADIATORIUM_PUBLIC_URL, else each request's own)."
        ),
    ] = None,
    smtp_url: Annotated[
        str | None,
        typer.Option(
            help="Where mail goes out: smtp://[USER:PASSWORD@]HOST[:PORT][?starttls=1] or "
            "smtps://... (default: $GLADIATORIUM_SMTP_URL; none: no mail is sent)."
        ),
    ] = None,
    mail_from: Annotated[
        str | None,
        typer.Option(
            help="The From of the mail the server sends (default: $GLADIATORIUM_MAIL_FROM, "
            "else Gladiatorium <noreply@localhost>)."
        ),
    ] = None,
    allowed_origin: Annotated[
        list[str] | None,
        typer.Option(
            help="An origin allowed besides the server's own, e.g. https://proxy.example.org "
            "(repeatable; default: $GLADIATORIUM_ALLOWED_ORIGINS, separated by commas)."
        ),
    ] = None,
    secure_cookies: Annotated[
        bool | None,
        typer.Option(
            "--secure-cookies/--no-secure-cookies",
            help="Mark cookies Secure, behind HTTPS (default: $GLADIATORIUM_SECURE_COOKIES).",
        ),
    ] = None,
    max_connections: Annotated[
        int | None,
        typer.Option(
            help="Open connections in all, more get 503; 0: no cap (default 2048).", min=0
        ),
    ] = None,
    max_connections_per_address: Annotated[
        int | None,
        typer.Option(
            help="Open connections per client address, more get 429; 0: no cap, e.g. behind "
            "a reverse proxy (default 64).",
            min=0,
        ),
    ] = None,
    header_timeout: Annotated[
        float | None,
        typer.Option(help="Seconds to send a request's headers (default 10).", min=0.01),
    ] = None,
    keep_alive_timeout: Annotated[
        float | None,
        typer.Option(help="Seconds an idle keep-alive connection is held (default 5).", min=0.01),
    ] = None,
    workers: Annotated[
        int,
        typer.Option(
            help="Server processes on the one port, sharing matches through PostgreSQL "
            "(default 1; connection caps are per process).",
            min=1,
        ),
    ] = 1,
    worker_ports: Annotated[
        int | None,
        typer.Option(
            help="With --workers: each process also listens on a port of its own, "
            "WORKER_PORTS + i, for a front that sends a match's connections to one "
            "process (by the match's id).",
            min=1,
            max=65535,
        ),
    ] = None,
    gauntlets: Annotated[
        bool | None,
        typer.Option(
            "--gauntlets/--no-gauntlets",
            help="Play heroes' gauntlets in a runner process beside the server "
            "(default: on, unless $GLADIATORIUM_GAUNTLETS is 0).",
        ),
    ] = None,
    gauntlet_workers: Annotated[
        int | None,
        typer.Option(
            help="Worker processes a gauntlet's games are played on (default 1, or "
            "$GLADIATORIUM_GAUNTLET_WORKERS).",
            min=1,
            max=64,
        ),
    ] = None,
    gauntlet_ray_address: Annotated[
        str | None,
        typer.Option(
            help="A Ray cluster (HOST:PORT) that plays gauntlets' games instead "
            "(default: $GLADIATORIUM_GAUNTLET_RAY_ADDRESS; none: local processes).",
        ),
    ] = None,
) -> None:
    """Run the web server: accounts, lobby, live matches, bots and deadlines."""
    from gladiatorium.server.app import serve as run_server
    from gladiatorium.server.processes import WorkersRefused, check_workers, serve_processes

    given = {
        "database_url": database_url,
        "public_url": None if public_url is None else _url_option(public_url, "--public-url"),
        "smtp_url": smtp_url,
        "mail_from": mail_from,
        "extra_origins": None
        if not allowed_origin
        else tuple(_url_option(o, "--allowed-origin", origin=True) for o in allowed_origin),
        "secure_cookies": secure_cookies,
        "max_connections": max_connections,
        "max_connections_per_address": max_connections_per_address,
        "header_timeout": header_timeout,
        "keep_alive_timeout": keep_alive_timeout,
        "gauntlets": gauntlets,
        "gauntlet_workers": gauntlet_workers,
        "gauntlet_ray_address": gauntlet_ray_address,
    }
    settings = _server_settings(given)
    if worker_ports is not None and workers == 1:
        raise fail("serve: --worker-ports: ports of their own for several processes; add --workers")
    if worker_ports is not None and worker_ports + workers - 1 > 65535:
        raise fail(f"serve: --worker-ports {worker_ports}: {workers} ports from it pass 65535")
    if workers == 1:
        run_server(settings, host, port)
        return
    try:
        check_workers(settings, workers)
    except WorkersRefused as err:
        raise fail(f"serve: {err}") from None
    raise typer.Exit(serve_processes(settings, host, port, workers, worker_ports))


def _server_settings(given: dict[str, Any]) -> Settings:
    """The server's settings: the options given, else the environment, else defaults
    (a URL from the environment is checked as an option's would be)."""
    from gladiatorium.server.config import Settings

    try:
        settings = Settings(**{k: v for k, v in given.items() if v is not None})
        if settings.public_url:
            _url_option(settings.public_url, "GLADIATORIUM_PUBLIC_URL")
        for origin in settings.extra_origins:
            _url_option(origin, "GLADIATORIUM_ALLOWED_ORIGINS", origin=True)
        _mail_options(settings)
        _gauntlet_options(settings)
    except (typer.BadParameter, ValueError) as err:
        raise fail(f"serve: {err}") from None
    return settings


def _mail_options(settings: Settings) -> None:
    """The SMTP URL and the From address, checked before the server starts."""
    from email.utils import parseaddr

    from gladiatorium.server.mail_sender import parse_smtp_url

    if settings.smtp_url:
        try:
            parse_smtp_url(settings.smtp_url)
        except ValueError as err:
            raise typer.BadParameter(f"--smtp-url (or GLADIATORIUM_SMTP_URL): {err}") from None
    if "@" not in parseaddr(settings.mail_from)[1]:
        raise typer.BadParameter(
            f"--mail-from (or GLADIATORIUM_MAIL_FROM): expected an address such as "
            f"'Gladiatorium <games@example.org>', got {settings.mail_from!r}"
        )


def _gauntlet_options(settings: Settings) -> None:
    """A new gauntlet's games per pairing, checked before the server starts."""
    from gladiatorium.core import OptionsError
    from gladiatorium.server.gauntlets import size_of

    try:
        size_of(settings)
    except OptionsError as err:
        raise typer.BadParameter(str(err)) from None


def _url_option(value: str, name: str, origin: bool = False) -> str:
    """An http(s) URL (an origin: no path, query or fragment), without a final slash."""
    parts = urlsplit(value.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise typer.BadParameter(f"{name}: expected an http:// or https:// URL, got {value!r}")
    if origin and (parts.path not in ("", "/") or parts.query or parts.fragment):
        raise typer.BadParameter(
            f"{name}: an origin is scheme://host[:port], without a path, got {value!r}"
        )
    if parts.query or parts.fragment:
        raise typer.BadParameter(f"{name}: no query or fragment, got {value!r}")
    return value.strip().rstrip("/")


def mount_game_commands(target: typer.Typer) -> None:
    """Mount every registered game's own commands (``game.terminal.commands()``): a typer
    app as a group (``gladiatorium hero check ...``), a function as one command (``duel``).
    A name taken by a built-in command or another game is refused."""
    load()
    taken = {_command_name(command) for command in target.registered_commands}
    taken |= {group.name for group in target.registered_groups}
    for game in games():
        for name, command in game.terminal.commands().items():
            if name in taken:
                raise GladiatoriumError(f"{game.info.slug}: the command {name!r} is taken")
            taken.add(name)
            if isinstance(command, typer.Typer):
                target.add_typer(command, name=name)
            elif callable(command):
                target.command(name)(command)
            else:
                raise GladiatoriumError(
                    f"{game.info.slug}: the command {name!r} is neither a typer app nor a function"
                )


def _command_name(command: CommandInfo) -> str | None:
    """The name a command is called by (typer's: the function's, with dashes)."""
    if command.name or command.callback is None:
        return command.name
    return command.callback.__name__.replace("_", "-")


app.command("position")(position_command)
app.add_typer(ratings_cli.app, name="ratings")
lab.register(app)
mount_game_commands(app)


def run() -> None:
    app()
