"""The interactive menu that ``make run`` starts: pick a game, play the bots."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.prompt import IntPrompt, Prompt
from rich.text import Text

from gladiatorium.cli.terminal import HumanSeat, QuitMatch, show_end
from gladiatorium.core import (
    Bot,
    Game,
    GladiatoriumError,
    Seat,
    State,
    best_bot,
    entropy_seed,
    games,
    is_number,
)
from gladiatorium.core.match import Person, make_bots, run_match
from gladiatorium.core.terminal import build_options

SEED_MAX = 2**63 - 1


def run_menu(console: Console) -> None:
    """Loop: choose a game and a seat, play it against the best bots, again."""
    while True:
        listed = games()
        console.rule("[bold]Gladiatorium[/bold]")
        for number, game in enumerate(listed, 1):
            console.print(f"  {number}. [bold]{game.info.name}[/bold]  {game.info.summary}")
        console.print("  0. quit  (or q)")
        try:
            pick = _pick_game(console, len(listed))
        except EOFError:
            return
        if pick is None:
            return
        game = listed[pick - 1]
        try:
            state, seed = _start(console, game)
            seat = Prompt.ask(
                "Your seat", console=console, choices=list(state.seats), default=state.seats[0]
            )
        except EOFError:
            return
        person = HumanSeat(game, console, hot_seat=False)
        names = {s: best_bot(game) for s in state.seats if s != seat}
        controllers: dict[Seat, Bot | Person] = {**make_bots(game, seed, names), seat: person}
        _play(console, state, controllers, person, seat)


def _pick_game(console: Console, count: int) -> int | None:
    """A game's number, or None to quit (``0``, ``q``, ``quit`` or an empty stream)."""
    while True:
        answer = Prompt.ask("Play which game", console=console, default="1").strip().lower()
        if answer in {"0", "q", "quit", "exit"}:
            return None
        if is_number(answer) and 1 <= int(answer) <= count:
            return int(answer)
        console.print(f"[red]type a number from 1 to {count}, or q to quit[/red]")


def _start(console: Console, game: Game[Any]) -> tuple[State[Any], int]:
    """A match of the chosen game and its seed; players are asked again while the game
    refuses them (the menu refuses what the command line refuses, with its message)."""
    info = game.info
    seed: int | None = None
    while True:
        players = info.default_players
        if info.min_players != info.max_players:
            players = _ask_players(console, info.min_players, info.max_players, players)
        seed = _ask_seed(console) if seed is None else seed
        try:
            values = build_options(game, _ask_options(console, game), _ask_flags(console, game))
            return game.start(values, players, seed), seed
        except GladiatoriumError as err:
            console.print(Text(str(err), style="red"))


def _ask_flags(console: Console, game: Game[Any]) -> list[str]:
    """The game-specific choices the command line takes as flags (heroes and map,
    set-up, names), as ``--flag value`` arguments; several values are split by ';'."""
    args: list[str] = []
    for flag, about in game.terminal.cli_flags.items():
        choices = game.terminal.menu_choices(flag)
        default = game.terminal.menu_default(flag)
        console.print(Text(f"{flag}: {about}", style="dim"), highlight=False)
        if choices:
            console.print(Text(f"  shipped: {', '.join(choices)}", style="dim"), highlight=False)
        answer = Prompt.ask(
            f"{flag.capitalize()} (several: split by ';'; empty: {default or 'default'})",
            console=console,
            default="",
            show_default=False,
        ).strip()
        for value in (answer or default).split(";"):
            if value.strip():
                args += [f"--{flag}", value.strip()]
    return args


def _ask_options(console: Console, game: Game[Any]) -> list[str]:
    """Rule options as ``KEY=VALUE`` pairs split by ';' (empty: the defaults); the
    options are listed with their defaults first when asked for with '?'."""
    while True:
        answer = Prompt.ask(
            "Options KEY=VALUE; ... ('?' lists them, empty: defaults)",
            console=console,
            default="",
            show_default=False,
        ).strip()
        if answer != "?":
            return [pair.strip() for pair in answer.split(";") if pair.strip()]
        for name, field in game.options_type.model_fields.items():
            default = field.default
            shown = (
                "..."
                if isinstance(default, str | tuple | list | dict) and len(str(default)) > 30
                else repr(default)
            )
            about = field.description or ""
            console.print(Text(f"  {name} = {shown}  {about}"), highlight=False)


def _ask_seed(console: Console) -> int:
    """A seed for reproducible dice, or (empty) one from the operating system's entropy."""
    while True:
        answer = Prompt.ask(
            "Seed (empty: unpredictable)", console=console, default="", show_default=False
        ).strip()
        if not answer:
            return entropy_seed()
        if is_number(answer, 19) and int(answer) <= SEED_MAX:
            return int(answer)
        console.print(f"[red]a seed is a whole number from 0 to {SEED_MAX}, or empty[/red]")


def _ask_players(console: Console, low: int, high: int, default: int) -> int:
    """How many players, within the game's range; asks again until it is."""
    while True:
        players = IntPrompt.ask(f"Players ({low}-{high})", console=console, default=default)
        if low <= players <= high:
            return players
        console.print(f"[red]this game takes {low} to {high} players[/red]")


def _play(
    console: Console,
    state: Any,
    controllers: dict[Seat, Bot | Person],
    person: HumanSeat,
    seat: Seat,
) -> None:
    try:
        run_match(state, controllers, game=person.game)
    except QuitMatch:
        console.print("[yellow]match stopped[/yellow]")
        return
    show_end(person.game, state, console, person, [seat])
