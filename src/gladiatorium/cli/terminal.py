"""Playing in the terminal: a person at a seat, hot-seat for several."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from gladiatorium.core import Action, Game, GladiatoriumError, Seat, State

#: how many legal actions ``legal`` prints before it counts the rest
LEGAL_SHOWN = 60


class QuitMatch(Exception):
    """The person typed ``quit`` (or input ended)."""


class HumanSeat:
    """A controller that shows the seat its view and new events, then reads an action."""

    def __init__(self, game: Game[Any], console: Console, hot_seat: bool) -> None:
        self.game = game
        self.console = console
        self.hot_seat = hot_seat
        self.seen: dict[Seat, int] = {}

    def show_new_events(self, state: State[Any], seat: Seat) -> None:
        events = state.events_for(seat)
        for event in events[self.seen.get(seat, 0) :]:
            self.console.print(Text.assemble("  ", ("·", "dim"), " ", event.text), highlight=False)
        self.seen[seat] = len(events)

    def choose(self, state: State[Any], seat: Seat) -> Action:
        if self.hot_seat:
            self.console.rule(f"[bold]seat {seat}[/bold] (others look away)")
        self.show_new_events(state, seat)
        self.console.print(Panel(self.game.render(state, seat), title=f"seat {seat}"))
        choices = state.legal_actions(seat)
        if len(choices) <= 12:
            self.console.print(Text("  ".join(str(a) for a in choices), style="dim"))
        while True:
            try:
                text = self.console.input(f"[bold cyan]{seat}>[/bold cyan] ")
            except EOFError:
                raise QuitMatch from None
            command = text.strip().lower()
            if command in {"quit", "exit"}:
                raise QuitMatch
            if command == "help":
                self.console.print(self.game.notation_help(), highlight=False)
                self.console.print(
                    "Also: 'legal' (or '?') lists your actions, 'legal WORDS' only those that "
                    "contain the words, 'quit' stops."
                )
                look = self.game.look_help()
                if look:
                    self.console.print(f"'look ...': {look}", highlight=False)
                continue
            if command == "look" or command.startswith("look "):
                self._look(state, seat, text.strip()[4:].strip())
                continue
            if command in {"legal", "?"} or command.startswith(("legal ", "? ")):
                self._legal(state, seat, command.partition(" ")[2].strip())
                continue
            try:
                return state.parse(seat, text)
            except GladiatoriumError as err:
                self.console.print(
                    Text.assemble((str(err), "red"), " (type 'legal' or 'help')"), highlight=False
                )

    def _legal(self, state: State[Any], seat: Seat, words: str) -> None:
        """The seat's legal actions, those containing every word of ``words`` when given;
        a long list is cut at :data:`LEGAL_SHOWN` with a count of the rest."""
        wanted = words.lower().split()
        legal = [str(a) for a in state.legal_actions(seat)]
        shown = [a for a in legal if all(w in a.lower() for w in wanted)]
        if not shown:
            self.console.print(Text(f"no legal action contains '{words}'"), highlight=False)
            return
        self.console.print(Text("  ".join(shown[:LEGAL_SHOWN])), highlight=False)
        if len(shown) > LEGAL_SHOWN:
            self.console.print(
                f"... and {len(shown) - LEGAL_SHOWN} more of {len(shown)}: "
                "narrow them with 'legal WORDS'",
                style="dim",
                highlight=False,
            )

    def _look(self, state: State[Any], seat: Seat, query: str) -> None:
        """The game's extra information on request, or why there is none."""
        try:
            self.console.print(self.game.look(state, seat, query), highlight=False)
        except GladiatoriumError as err:
            self.console.print(Text(str(err), style="red"), highlight=False)
