"""``hero-battle``: the moderator's console and the round post.

Mounted in the main CLI as ``gladiatorium hero-battle`` through
``HeroBattleTerminal.commands()``; it also runs alone:
``python -m gladiatorium.games.hero_battle.commands moderate --players 12``.

``moderate`` is for a moderator running a forum Battle: type each player's move or
private guess as it arrives (``3: hit Captain Comet, Night Heron heal Miss Mirage``,
``5: guess Doctor Paradox=2``, a player by seat or forum name), ``close`` at the
deadline, ``post`` for the forum post.
``post`` prints the round post of a saved match record.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import typer
from rich.console import Console
from rich.text import Text

from gladiatorium.core import GladiatoriumError, entropy_seed, is_number, register_game
from gladiatorium.core.record import record_of, replay_file, save_record
from gladiatorium.core.terminal import check_output, error_text, option_value, parse_pairs
from gladiatorium.games.hero_battle import GAME, HeroBattleState
from gladiatorium.games.hero_battle.actions import MODERATOR
from gladiatorium.games.hero_battle.round_post import round_post

app = typer.Typer(help="Hero Battle: moderator console, round posts.", add_completion=False)
console = Console()

CONSOLE_HELP = """\
  SEAT: MOVE        a player's move, e.g. 3: hit Captain Comet, Night Heron heal Miss Mirage
  SEAT: abstain     a player abstains (a random hit is dealt at the close)
  SEAT: guess H=P   a player's private guess (P: seat or forum name), e.g. 5: guess Doctor Paradox=2
  close             close the round now (the deadline): who has not moved abstains
  post [N] [markdown|bbcode]   the round post (default: last round, BBCode)
  status            everything, as the moderator sees it
  seat N            what seat N sees (N = a player seat, 'moderator' or 'public')
  help, quit"""

Fmt = Literal["bbcode", "markdown"]


def _state(
    record: Path | None, players: int | None, seed: int, option: list[str]
) -> HeroBattleState:
    if record is not None:
        register_game(GAME)  # the main command has registered every game
        state = replay_file(record)[1]
    else:
        values = {k: option_value(v) for k, v in parse_pairs(option, "option").items()}
        state = GAME.start(values, players, seed)
    if not isinstance(state, HeroBattleState):
        raise GladiatoriumError(f"{record} is not a Hero Battle record")
    return state


def _same_file(one: Path, other: Path) -> bool:
    """Resuming a Battle and saving it to the same record is no clobbering."""
    return one.resolve() == other.resolve()


def run_command(state: HeroBattleState, line: str) -> str:
    """One console command; returns the text to show (raises on bad input)."""
    text = line.strip()
    word = text.split(" ", 1)[0].lower() if text else ""
    if word in ("help", "?"):
        return CONSOLE_HELP
    if word == "close":
        state.act(MODERATOR, "close")
        return _after(state)
    if word == "post":
        parts = text.split()[1:]
        fmt: Fmt = "markdown" if "markdown" in parts else "bbcode"
        numbers = [int(p) for p in parts if is_number(p)]
        return round_post(state.view(None), numbers[0] if numbers else None, fmt)
    if word == "status":
        return _plain(GAME.terminal.render(state, MODERATOR))
    if word == "seat":
        who = text.split()[1] if len(text.split()) > 1 else "public"
        if who != "public" and who not in state.seats:
            known = f"1 to {state.players}, moderator or public"
            raise GladiatoriumError(f"seat {who!r}: seats are {known}")
        return _plain(GAME.terminal.render(state, None if who == "public" else who))
    seat, sep, action = text.partition(":")
    if not sep:
        raise GladiatoriumError(f"{text!r}: expected 'SEAT: action' or a command (try help)")
    seat = seat.strip()
    if seat not in state.player_seats:
        raise GladiatoriumError(f"no player seat {seat!r}; seats are 1 to {state.players}")
    before = state.round
    state.act(seat, action)
    return _after(state) if state.round != before or state.is_over else f"seat {seat}: ok"


def _plain(rendered: str) -> str:
    """A rendered view without its console markup (the console prints text as is)."""
    return Text.from_markup(rendered).plain


def _after(state: HeroBattleState) -> str:
    """After a round closed: its summary, and who is awaited now."""
    last = state.reports[-1]
    out = [f"Round {last['round']} compiled. Type 'post' for the forum post."]
    outcome = state.outcome()
    if outcome is not None:
        out.append(f"The Battle is over: {outcome.reason}.")
    return "\n".join(out)


@app.command("moderate")
def moderate(
    players: Annotated[int | None, typer.Option("--players", "-p")] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            min=0,
            max=2**63 - 1,
            help="Seed for assignments and random hits (default: unpredictable).",
        ),
    ] = None,
    option: Annotated[list[str], typer.Option("--option", "-o", help="KEY=VALUE")] = [],  # noqa: B006
    record: Annotated[Path | None, typer.Option(help="Resume from this match record.")] = None,
    save: Annotated[Path | None, typer.Option(help="Save the record here after each step.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")] = False,
) -> None:
    """The moderator's console: enter moves and guesses, close rounds, print posts.
    Without --seed the deal comes from the operating system's entropy."""
    try:
        if save is not None and not (record is not None and _same_file(save, record)):
            check_output(save, "--save", force)
        state = _state(record, players, entropy_seed() if seed is None else seed, option)
    except GladiatoriumError as err:
        console.print(error_text(err), soft_wrap=True)
        raise typer.Exit(2) from err
    console.print(GAME.terminal.render(state, MODERATOR), highlight=False)
    console.print("Type 'help' for commands.", style="dim")
    while not state.is_over:
        try:
            line = console.input("[bold cyan]moderator>[/bold cyan] ")
        except EOFError:
            break
        if line.strip().lower() in ("quit", "exit"):
            break
        if not line.strip():
            continue
        try:
            # soft_wrap: a post must reach the clipboard with its lines unbroken
            console.print(run_command(state, line), highlight=False, markup=False, soft_wrap=True)
        except (GladiatoriumError, ValueError) as err:
            console.print(Text(str(err), style="red"), highlight=False)
            continue
        if save is not None:
            try:
                save_record(record_of(GAME, state), save)
            except GladiatoriumError as err:
                console.print(error_text(err), soft_wrap=True)
    if state.is_over:
        post_text = round_post(state.view(None))
        console.print(post_text, highlight=False, markup=False, soft_wrap=True)


@app.command("post")
def post(
    record: Annotated[Path, typer.Argument(help="A Hero Battle match record (JSON).")],
    round_number: Annotated[
        int | None, typer.Option("--round", help="Round (default: last).")
    ] = None,
    fmt: Annotated[str, typer.Option("--format", help="bbcode or markdown.")] = "bbcode",
) -> None:
    """Print the round post of a saved Battle, ready to paste on the forum."""
    try:
        if fmt not in ("bbcode", "markdown"):
            raise GladiatoriumError(f"--format {fmt!r}: use bbcode or markdown")
        state = _state(record, None, 0, [])
        text = round_post(
            state.view(None), round_number, "markdown" if fmt == "markdown" else "bbcode"
        )
    except GladiatoriumError as err:
        console.print(error_text(err), soft_wrap=True)
        raise typer.Exit(2) from err
    print(text, end="")


if __name__ == "__main__":
    app()
