"""The flags every batch command shares: where its games run and where they are kept."""

from __future__ import annotations

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

from gladiatorium.core import OptionsError
from gladiatorium.core.jobs import BACKENDS, Backend, ResultsFile, Runner

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
