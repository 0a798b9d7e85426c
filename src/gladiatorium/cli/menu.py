"""The interactive menu that ``make run`` starts: pick a game, play the bots."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.prompt import IntPrompt, Prompt

from gladiatorium.cli.terminal import HumanSeat, QuitMatch
from gladiatorium.core import Bot, Seat, best_bot, games
from gladiatorium.core.match import make_bots, run_match


def run_menu(console: Console) -> None:
    """Loop: choose a game and a seat, play it against the best bots, again."""
    while True:
        listed = games()
        console.rule("[bold]Gladiatorium[/bold]")
        for number, game in enumerate(listed, 1):
            console.print(f"  {number}. [bold]{game.info.name}[/bold]  {game.info.summary}")
        console.print("  0. quit")
        try:
            pick = IntPrompt.ask("Play which game", console=console, default=1)
        except EOFError:
            return
        if not 1 <= pick <= len(listed):
            return
        game = listed[pick - 1]
        seed = IntPrompt.ask("Seed", console=console, default=0)
        state = game.start(None, None, seed)
        seat = Prompt.ask(
            "Your seat", console=console, choices=list(state.seats), default=state.seats[0]
        )
        person = HumanSeat(game, console, hot_seat=False)
        names = {s: best_bot(game) for s in state.seats if s != seat}
        controllers: dict[Seat, Bot] = {**make_bots(game, seed, names), seat: person}
        _play(console, state, controllers, person, seat)


def _play(
    console: Console, state: Any, controllers: dict[Seat, Bot], person: HumanSeat, seat: Seat
) -> None:
    try:
        run_match(state, controllers)
    except QuitMatch:
        console.print("[yellow]match stopped[/yellow]")
        return
    person.show_new_events(state, seat)
    outcome = state.outcome()
    console.print(
        f"[bold]{outcome.reason if outcome else ''}[/bold] winners: "
        f"{', '.join(outcome.winners) if outcome and outcome.winners else 'none'}"
    )
