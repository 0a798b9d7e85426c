"""``gladiatorium position``: the written position of a saved match at any ply, the
whole truth or what one seat may know, to load with ``--position`` (a puzzle, a bug
report, an analysis to go on with) or to start a server match from."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.text import Text

from gladiatorium.core import GladiatoriumError, RecordError, get_game
from gladiatorium.core.record import load_record, replay

err_console = Console(stderr=True)


def write_position(record_path: Path, ply: int | None, seat: str | None) -> str:
    """The position after ``ply`` actions of the record (None: all of them), for
    ``seat`` (None: the whole truth); errors name the file."""
    record = load_record(record_path)
    played = len(record.actions)
    if ply is not None and not 0 <= ply <= played:
        raise RecordError(f"--ply {ply}: the record {record_path} has {played} actions")
    kept = record.actions if ply is None else record.actions[:ply]
    try:
        state = replay(record.model_copy(update={"actions": kept}))
        if seat is not None and seat not in state.seats:
            raise GladiatoriumError(f"--seat {seat}: seats are {', '.join(state.seats)}")
        return get_game(record.game).write_position(state, seat)
    except GladiatoriumError as err:
        raise RecordError(f"{record_path}: {err}") from err


def position_command(
    record: Annotated[Path, typer.Argument(help="A match record (JSON).")],
    ply: Annotated[
        int | None, typer.Option(help="The position after this many actions (default: all).")
    ] = None,
    seat: Annotated[
        str | None,
        typer.Option(help="Write only what this seat may know (default: the whole truth)."),
    ] = None,
    out: Annotated[Path | None, typer.Option(help="Write the position to this file.")] = None,
) -> None:
    """Write the position of a saved match at any ply: load it again with --position in
    play, legal and simulate, or give it to the server's match creation."""
    try:
        text = write_position(record, ply, seat)
        if out is not None:
            try:
                out.write_text(text, encoding="utf-8")
            except OSError as err:
                raise GladiatoriumError(f"--out {out}: {err.strerror or err}") from err
    except GladiatoriumError as err:
        err_console.print(Text(str(err), style="red"), highlight=False)
        raise typer.Exit(2) from err
    if out is None:
        print(text, end="" if text.endswith("\n") else "\n")
