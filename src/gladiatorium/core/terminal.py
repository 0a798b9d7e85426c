"""What the terminal's commands share, the main command's and a game's own (its
``commands`` module): parsing options, seats and game-specific flags, checking an output
path, the one-line error, and the flags of every batch command (where its games run,
where they are kept) with its progress bar."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from gladiatorium.core import Game, OptionsError, Seat, best_bot, get_bot, kept
from gladiatorium.core.files import check_depth
from gladiatorium.core.jobs import BACKENDS, Backend, ResultsFile, Runner


def parse_pairs(values: Sequence[str], what: str) -> dict[str, str]:
    """``["K=V", ...]`` to a dict; a pair without ``=`` is an error naming it."""
    out: dict[str, str] = {}
    for item in values:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise OptionsError(f"--{what} {item!r}: expected KEY=VALUE")
        if key.strip() in out:
            raise OptionsError(f"--{what} {item!r}: {key.strip()} is given twice")
        out[key.strip()] = value.strip()
    return out


def option_value(text: str) -> Any:
    """An option value: JSON if it parses (numbers, true, lists), else the text."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return text
    except (RecursionError, ValueError) as err:  # 3,000 brackets, 5,000 digits
        raise OptionsError(f"option value {text[:30]!r}...: too deep or too long a number") from err
    check_depth(value, "option value")
    return value


def parse_extra_flags(args: Sequence[str]) -> dict[str, list[str]]:
    """Game-specific ``--flag value`` pairs left over by the common parser."""
    flags: dict[str, list[str]] = {}
    items = list(args)
    while items:
        flag = items.pop(0)
        if not flag.startswith("--") or len(flag) < 3:
            raise OptionsError(f"unexpected argument {flag!r}")
        name, sep, value = flag[2:].partition("=")
        if not sep:
            if not items or items[0].startswith("--"):
                raise OptionsError(f"--{name} needs a value")
            value = items.pop(0)
        flags.setdefault(name, []).append(value)
    return flags


def build_options(game: Game[Any], option: Sequence[str], extra: Sequence[str]) -> dict[str, Any]:
    values = {k: option_value(v) for k, v in parse_pairs(option, "option").items()}
    values.update(game.terminal.cli_options(parse_extra_flags(extra)))
    return values


def seat_controllers(
    game: Game[Any], seats: Sequence[Seat], given: Sequence[str], default: str
) -> dict[Seat, str]:
    """``--seat N=human|BOT`` for each seat; others get ``default`` (``best``: the
    game's best bot). Unknown seats and bots are errors that list the known ones."""
    chosen = parse_pairs(given, "seat")
    for seat in chosen:
        if seat not in seats:
            raise OptionsError(f"--seat {seat}: no such seat; seats are {', '.join(seats)}")
    out = {}
    for seat in seats:
        name = chosen.get(seat, default)
        if name == "best":
            name = best_bot(game)
        if name != "human":
            get_bot(game, name)
        out[seat] = name
    return out


def check_output(path: Path, flag: str, force: bool = False, folder: bool = False) -> None:
    """Refuse, before any work starts, a path that could not be written at the end:
    a missing or read-only folder, a folder where a file is wanted (or the reverse),
    or an existing file unless ``force`` or a person at a terminal says to overwrite."""
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise OptionsError(f"{flag} {path}: the folder {parent} does not exist")
    if folder:
        if path.exists() and not path.is_dir():
            raise OptionsError(f"{flag} {path}: a file of that name is in the way")
        if not os.access(path if path.exists() else parent, os.W_OK):
            raise OptionsError(f"{flag} {path}: the folder is not writable")
        return
    if path.is_dir():
        raise OptionsError(f"{flag} {path}: is a folder; give a file name")
    if path.exists() and not path.is_file():
        raise OptionsError(f"{flag} {path}: not a regular file")
    if not os.access(path if path.exists() else parent, os.W_OK):
        raise OptionsError(f"{flag} {path}: cannot write there (permission denied)")
    if path.exists() and not force and not _confirm_overwrite(path):
        raise OptionsError(f"{flag} {path}: the file exists; add --force to overwrite it")


def _confirm_overwrite(path: Path) -> bool:
    """Ask a person at a terminal; with no terminal (scripts, pipes) the answer is no."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return False
    return bool(typer.confirm(f"{path} exists. Overwrite?", default=False))


def error_text(error: object) -> Text:
    """``error: MESSAGE`` as plain text (markup in a message is printed as typed); print
    it with ``soft_wrap=True`` so that it stays one line."""
    return Text.assemble(("error:", "red"), " ", str(error))


#: the most worker processes (or local Ray CPUs) a batch may ask for
MAX_JOBS = 64

BackendArg = Annotated[
    str,
    typer.Option(
        "--backend",
        help="Where games run: local (worker processes) or ray (a local Ray, or --address).",
    ),
]
AddressArg = Annotated[
    str | None, typer.Option("--address", help="A Ray cluster to run on (with --backend ray).")
]
JobsArg = Annotated[
    int, typer.Option("--jobs", min=1, max=MAX_JOBS, help="Worker processes (or Ray CPUs).")
]
ResultsArg = Annotated[
    Path | None,
    typer.Option(
        "--results",
        help="Append each finished game to this JSON-lines file; a rerun resumes from it.",
    ),
]


KeptArg = Annotated[
    bool,
    typer.Option(
        "--kept",
        help="Play in this process (one core) and then show what it kept: each table's "
        "entries, hits, misses and approximate memory.",
    ),
]


def kept_runner(runner: Runner) -> Runner:
    """The runner of a ``--kept`` run: the tables read are this process's, so the games
    play here; another backend or more jobs are refused."""
    if runner.backend != "local" or runner.workers != 1:
        raise OptionsError("--kept shows what this process kept: give --jobs 1 (local)")
    return runner


def kept_rows(owner: str) -> list[dict[str, Any]]:
    """The tables of ``owner`` and the core's, as :func:`kept.report` finds them (JSON)."""
    return [
        {
            "table": row.name,
            "owner": row.owner,
            "bound": row.bound,
            "entries": row.entries,
            "hits": row.hits,
            "misses": row.misses,
            "bytes": row.bytes,
        }
        for row in kept.report(owner)
    ]


def kept_table(rows: Sequence[dict[str, Any]]) -> Table:
    """:func:`kept_rows` for the terminal (memory in KiB; bound "-": the game's data; a
    game's tables named without the game's package)."""
    table = Table(title="kept by the process (KiB: what the entries reach)")
    table.add_column("table", no_wrap=True)
    for heading in ("bound", "entries", "hits", "misses", "KiB"):
        table.add_column(heading, justify="right")
    for row in rows:
        bound = "-" if row["bound"] is None else str(row["bound"])
        counts = (str(row[k]) for k in ("entries", "hits", "misses"))
        game = row["owner"].replace("-", "_") + "." if row["owner"] != "core" else ""
        name = row["table"].removeprefix(game)
        table.add_row(name, bound, *counts, f"{row['bytes'] / 1024:.0f}")
    total = sum(row["bytes"] for row in rows)
    table.add_row("all", "", str(sum(r["entries"] for r in rows)), "", "", f"{total / 1024:.0f}")
    return table


def runner_of(backend: str, jobs: int, address: str | None) -> Runner:
    if backend not in BACKENDS:
        raise OptionsError(f"--backend {backend!r}: choose one of {', '.join(BACKENDS)}")
    chosen: Backend = "ray" if backend == "ray" else "local"
    return Runner(chosen, jobs, address)


def results_of(path: Path | None, run: dict[str, Any]) -> ResultsFile | None:
    """The ``--results`` file for a run described by ``run``, checked before any game."""
    if path is None:
        return None
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise OptionsError(f"--results {path}: the folder {parent} does not exist")
    if path.exists() and not path.is_file():
        raise OptionsError(f"--results {path}: not a regular file")
    return ResultsFile(path, run)


def progress_bar(console: Console, show: bool) -> Progress:
    """A bar with the games done, the time taken and the time left (hidden when
    ``show`` is false: JSON output, or no terminal)."""
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
    )
    return Progress(*columns, console=console, disable=not show, transient=True)
