"""Gladiator Chess at the terminal: the board and tally in text, the notation, the
prompt's warnings (check, a held queen), Enter to let a commander move, a move typed
without its commander, ``look e4`` and the victory in words."""

from __future__ import annotations

from gladiatorium.core import Action, GladiatoriumError, Seat, State, TerminalPresenter
from gladiatorium.games.gladiator_chess.actions import Let, Move
from gladiatorium.games.gladiator_chess.look import LOOK_HELP, look
from gladiatorium.games.gladiator_chess.options import GladiatorChessOptions
from gladiatorium.games.gladiator_chess.render import LEGEND, render_view
from gladiatorium.games.gladiator_chess.state import GladiatorChessState

NOTATION = f"""Each of the eight seats is a commander: white-king, white-queen,
white-black-knight, white-kings-knight, and the same for black. Squares are a1-l10.
  queen: C h1-h4                  the commander moves one of his pieces
  king: F a2xb3                   'x': the square entered is occupied (attack,
                                  freeze, take a queen, eliminate)
  kings-knight: SQ b9-b10=BK      a pawn reaching the far side names what returns
  let queen                       the King lets the Queen's commander move
  king overrides queen: BK e1-f3  the King overrides the Queen and moves any unmoved piece
  king: W a1-a3                   (king_slot_moves_any) his own cannot move: another's
A refused move says why; 'look e4' shows a piece, where it may go and its odds.
Pieces: K King, Q Queen, C Champion, MK Mounted Knight, BK Black Knight,
KK King's Knight, W Warrior, S Scout, F Footman, SQ Squire.
{LEGEND}"""


class GladiatorChessTerminal(TerminalPresenter):
    """Gladiator Chess at the terminal."""

    def render(self, state: State[GladiatorChessOptions], seat: Seat | None) -> str:
        return render_view(state.view(seat))

    def notation_help(self) -> str:
        return NOTATION

    def legend(self) -> str | None:
        return LEGEND

    def look_help(self) -> str | None:
        return LOOK_HELP

    def enter_action(self, state: State[GladiatorChessOptions], seat: Seat) -> Action | None:
        """At another commander's slot, Enter lets him move (``let queen``)."""
        lets = [a for a in state.legal_actions(seat) if isinstance(a, Let)]
        return lets[0] if len(lets) == 1 else None

    def typed_reading(
        self, state: State[GladiatorChessOptions], seat: Seat, text: str
    ) -> Action | None:
        """A move typed without its commander (``F a2-a3`` for ``king: F a2-a3``) when
        exactly one legal move reads so."""
        wanted = " ".join(text.split()).lower()
        if ":" in wanted:
            return None
        found = [
            a
            for a in state.legal_actions(seat)
            if isinstance(a, Move) and str(a).lower().partition(": ")[2] == wanted
        ]
        return found[0] if len(found) == 1 else None

    def prompt_text(self, state: State[GladiatorChessOptions], seat: Seat) -> str:
        """The seat, and a warning when a King is in check or a queen is held."""
        warnings = self.warnings(state)
        return f"{seat} ({'; '.join(warnings)})" if warnings else seat

    def warnings(self, state: State[GladiatorChessOptions]) -> list[str]:
        """Check and the captured-queen countdown, from the public view."""
        from gladiatorium.games.gladiator_chess.warnings import warnings_of

        return warnings_of(state.view(None), state.options.queen_hold_turns)

    def outcome_words(self, state: State[GladiatorChessOptions]) -> str:
        """The victory in words ("white held the black Queen for 5 turns"), not its code."""
        for event in reversed(state.events):
            if event.kind == "victory":
                return event.text.rsplit(": ", 1)[0]
        return super().outcome_words(state)

    def look(self, state: State[GladiatorChessOptions], seat: Seat | None, query: str) -> str:
        """Gladiator Chess has no hidden information: every seat may look anywhere."""
        if not isinstance(state, GladiatorChessState):
            raise GladiatoriumError("look: not a Gladiator Chess match")
        return look(state, query)
