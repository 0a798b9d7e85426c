"""Playing in the terminal: a person at a seat, hot-seat for several."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markdown import Markdown
from rich.panel import Panel
from rich.text import Text

from gladiatorium.core import Action, Game, GladiatoriumError, IllegalAction, Seat, State

#: how many legal actions ``legal`` prints before it counts the rest
LEGAL_SHOWN = 60


#: how many of a person's earlier prompts are kept for ``undo``
UNDO_KEPT = 20


class QuitMatch(Exception):
    """The person typed ``quit`` (or input ended)."""


def show_rules(game: Game[Any], console: Console) -> bool:
    """The game's rules text, paged on a terminal; False when the game has none."""
    text = game.terminal.rules_text()
    if text is None:
        return False
    with console.pager(styles=False):  # a plain pager (less without -R) shows no codes
        console.print(Markdown(text))
    return True


def is_picture_row(line: Text) -> bool:
    """A row of a picture, such as a board (runs of spaces between its cells), rather
    than a sentence."""
    return "  " in line.plain.strip()


def print_unfolded(console: Console, text: str) -> None:
    """``text`` (markup) with the rows of its pictures never folded (folded rows
    scramble a board; the terminal cuts or wraps them at its edge) and its sentences
    wrapped."""
    for line in Text.from_markup(text).split("\n"):
        console.print(line, soft_wrap=is_picture_row(line) and line.cell_len > console.width)


def show_board(console: Console, board: str, title: str) -> None:
    """The board in a titled panel; on a terminal too narrow for the panel, the board
    alone, its rows unfolded, with a word on how wide it is."""
    rows = [line for line in Text.from_markup(board).split("\n") if is_picture_row(line)]
    width = max((row.cell_len for row in rows), default=0)
    if width + 4 <= console.width:
        console.print(Panel(board, title=title))
        return
    console.rule(title)
    print_unfolded(console, board)
    console.print(
        Text(f"(the board is {width} columns wide; widen the terminal to see it whole)"),
        style="dim",
    )


def with_note(action: str, notes: dict[str, str]) -> str:
    """An action as listed, with the game's note on it (an attack's odds) if any."""
    return f"{action} ({notes[action]})" if action in notes else action


#: the ``help`` line on ``undo``, where it is offered (a match played here)
UNDO_HELP = "'undo' takes back your last action (against bots, while no die was rolled since), "


def print_help(game: Game[Any], console: Console, undo: str = "") -> None:
    """The prompt's ``help``: the game's notation, the commands, the game's ``look``."""
    console.print(game.terminal.notation_help(), highlight=False)
    console.print(
        "Also: 'legal' (or '?') lists your actions, 'legal WORDS' only those that "
        "contain the words, 'board' redraws the board, 'rules' shows the rules, "
        f"{undo}'quit' stops."
    )
    look = game.terminal.look_help()
    if look:
        console.print(f"'look ...': {look}", highlight=False)


def print_legal(console: Console, legal: list[str], notes: dict[str, str], words: str) -> None:
    """The prompt's ``legal``: the actions (with the game's notes), those containing
    every word of ``words`` when given; a long list is cut at :data:`LEGAL_SHOWN` with
    a count of the rest."""
    wanted = words.lower().split()
    shown = [a for a in legal if all(w in a.lower() for w in wanted)]
    if not shown:
        console.print(Text(f"no legal action contains '{words}'"), highlight=False)
        return
    listed = (with_note(a, notes) for a in shown[:LEGAL_SHOWN])
    console.print(Text("  ".join(listed)), highlight=False)
    if len(shown) > LEGAL_SHOWN:
        console.print(
            f"... and {len(shown) - LEGAL_SHOWN} more of {len(shown)}: "
            "narrow them with 'legal WORDS'",
            style="dim",
            highlight=False,
        )


def dice_state(state: State[Any]) -> Any:
    """What tells whether a die was rolled (or a card dealt) since: the dice stream."""
    return (state.rng.generator().getstate(), state.rng.forced_left)


class HumanSeat:
    """A controller that shows the seat its view and new events, then reads an action.

    ``hot_seat``: several people share the keyboard; in a game with hidden information
    the screen is cleared and the next player must press Enter before anything private
    of their seat is shown. ``undo`` (one person against bots) takes back the person's
    last action and the bots' replies while no die was rolled since."""

    def __init__(self, game: Game[Any], console: Console, hot_seat: bool) -> None:
        self.game = game
        self.console = console
        self.hot_seat = hot_seat
        self.seen: dict[Seat, int] = {}
        #: the seat shown last (hot-seat hand-over)
        self.shown: Seat | None = None
        #: the board each seat saw last (redrawn only when it changed)
        self.shown_board: dict[Seat, str] = {}
        #: the match as it stood at each of this person's prompts, oldest first
        self.marks: list[tuple[Seat, State[Any]]] = []

    def hand_over(self, seat: Seat) -> None:
        """Between two people's seats of a hidden-information game: clear the screen and
        wait until the next player presses Enter."""
        if self.hot_seat and self.game.info.hidden_information and self.shown != seat:
            self.console.clear()
            try:
                self.console.input(
                    f"[bold]Press Enter, player {seat}[/bold] (everyone else looks away) "
                )
            except EOFError:
                raise QuitMatch from None
            self.console.clear()
            self.shown_board.clear()  # a cleared screen shows no board
        self.shown = seat

    def show_new_events(self, state: State[Any], seat: Seat) -> None:
        events = state.events_for(seat)
        for event in events[self.seen.get(seat, 0) :]:
            self.console.print(Text.assemble("  ", ("·", "dim"), " ", event.text), highlight=False)
        self.seen[seat] = len(events)

    def decide(self, state: State[Any], seat: Seat) -> Action:
        self.hand_over(seat)
        if self.hot_seat:
            self.console.rule(f"[bold]seat {seat}[/bold] (others look away)")
        if not self.hot_seat:
            self.marks = [*self.marks[-(UNDO_KEPT - 1) :], (seat, state.clone())]
        self._show(state, seat)
        while True:
            try:
                prompt = self.game.terminal.prompt_text(state, seat)
                text = self.console.input(Text.assemble((f"{prompt}>", "bold cyan"), " "))
            except EOFError:
                raise QuitMatch from None
            command = text.strip().lower()
            if command in {"quit", "exit"}:
                raise QuitMatch
            if not command:
                enter = self.game.terminal.enter_action(state, seat)
                if enter is not None:
                    return enter
                continue
            if command == "board":
                self.shown_board.pop(seat, None)
                self._show(state, seat)
                continue
            if command == "help":
                print_help(self.game, self.console, UNDO_HELP)
                continue
            if command == "rules":
                if not show_rules(self.game, self.console):
                    self.console.print(f"{self.game.info.name} has no rules text")
                continue
            if command == "undo":
                if self._undo(state, seat):
                    self._show(state, seat)
                continue
            if command == "look" or command.startswith("look "):
                self._look(state, seat, text.strip()[4:].strip())
                continue
            if command in self.game.terminal.look_shortcuts:
                self._look(state, seat, command)
                continue
            if command in {"legal", "?"} or command.startswith(("legal ", "? ")):
                self._legal(state, seat, command.partition(" ")[2].strip())
                continue
            try:
                return state.parse(seat, text)
            except GladiatoriumError as err:
                why = None
                reading = self.game.terminal.typed_reading(state, seat, text)
                if reading is not None:
                    return reading
                if isinstance(err, IllegalAction):
                    why = self.game.terminal.explain_refusal(state, seat, text)
                self.console.print(
                    Text.assemble((str(err), "red"), " (type 'legal' or 'help')"), highlight=False
                )
                if why:
                    self.console.print(Text.assemble(("why: ", "yellow"), why), highlight=False)

    def _show(self, state: State[Any], seat: Seat) -> None:
        """New events, then the board unless it is the one this seat saw last."""
        self.show_new_events(state, seat)
        board = self.game.terminal.render(state, seat)
        if self.shown_board.get(seat) == board:
            self.console.print(Text("(board unchanged; 'board' shows it)", style="dim"))
        else:
            legend = self.game.terminal.legend()
            show_board(self.console, board, f"seat {seat}")
            if legend:
                self.console.print(Text(" ".join(legend.split()), style="dim"), highlight=False)
            self.shown_board[seat] = board
        choices = state.legal_actions(seat)
        if len(choices) <= 12:
            notes = self.game.terminal.action_notes(state, seat)
            listed = (with_note(str(a), notes) for a in choices)
            self.console.print(Text("  ".join(listed), style="dim"))

    def _undo(self, state: State[Any], seat: Seat) -> bool:
        """Put ``state`` back to this person's previous prompt, if no die was rolled
        since then; says why not otherwise."""
        if self.hot_seat:
            self.console.print("undo is for one person against bots, not for hot-seat play")
            return False
        # the last mark is this prompt; the one before it is the action to take back
        if len(self.marks) < 2:
            self.console.print("nothing to undo yet")
            return False
        back_seat, before = self.marks[-2]
        if dice_state(before) != dice_state(state):
            self.console.print(
                "cannot undo: dice were rolled (or cards dealt) since your last action"
            )
            return False
        undone = len(state.history) - len(before.history)
        restored = before.clone()
        state.__dict__.clear()
        state.__dict__.update(restored.__dict__)
        self.marks.pop()
        self.shown_board.pop(seat, None)
        self.seen = {s: state.count_events_for(s) for s in self.seen}
        self.console.print(
            Text(f"undone: your last action and {undone - 1} bot action(s) after it"),
            style="yellow",
        )
        return back_seat == seat

    def _legal(self, state: State[Any], seat: Seat, words: str) -> None:
        """The seat's legal actions, those containing every word of ``words`` when given;
        a long list is cut at :data:`LEGAL_SHOWN` with a count of the rest."""
        legal = [str(a) for a in state.legal_actions(seat)]
        print_legal(self.console, legal, self.game.terminal.action_notes(state, seat), words)

    def _look(self, state: State[Any], seat: Seat, query: str) -> None:
        """The game's extra information on request, or why there is none."""
        try:
            text = self.game.terminal.look(state, seat, query)
        except GladiatoriumError as err:
            self.console.print(Text(str(err), style="red"), highlight=False)
            return
        print_unfolded(self.console, text)  # Electron Gladiators' reach is a board


def show_end(
    game: Game[Any], state: State[Any], console: Console, person: HumanSeat, humans: list[Seat]
) -> None:
    """The end of a match: the final board and the summary in players' words, as the
    one person at the keyboard may see them (several people sharing it: as a spectator,
    so nobody's secrets show)."""
    if not state.is_over:
        return
    seat = humans[0] if len(humans) == 1 else None
    if seat is not None:
        person.show_new_events(state, seat)
    title = "final board" if seat is None else f"final board, seat {seat}"
    show_board(console, game.terminal.render(state, seat), title)
    console.print(Text(game.terminal.summary(state, seat), style="bold"), highlight=False)
