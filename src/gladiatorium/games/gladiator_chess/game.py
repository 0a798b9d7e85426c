"""Gladiator Chess: the game definition (info, options, bots, rendering)."""

from __future__ import annotations

from collections.abc import Mapping

from gladiatorium.core import (
    Action,
    BotFactory,
    Channel,
    Game,
    GameInfo,
    GladiatoriumError,
    Seat,
    State,
    standing,
)
from gladiatorium.core.channels import public_channels, team_channel
from gladiatorium.games.gladiator_chess.actions import ACTION_TYPES, Let, Move
from gladiatorium.games.gladiator_chess.diagram import read_diagram
from gladiatorium.games.gladiator_chess.look import LOOK_HELP, look
from gladiatorium.games.gladiator_chess.options import GladiatorChessOptions
from gladiatorium.games.gladiator_chess.pieces import COMMANDERS, SEAT_ROLES, TEAMS, seat_of
from gladiatorium.games.gladiator_chess.render import LEGEND, render_view
from gladiatorium.games.gladiator_chess.state import GladiatorChessState
from gladiatorium.games.gladiator_chess.web import web_picture

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


class GladiatorChess(Game[GladiatorChessOptions]):
    info = GameInfo(
        slug="gladiator-chess",
        name="Gladiator Chess",
        summary="Chess on 12x10 with dice combat: two teams of four commanders, "
        "freezing queens, overrides.",
        min_players=2,
        max_players=8,
        default_players=8,
        hidden_information=False,
        simultaneous=False,
        version="3",
    )
    options_type = GladiatorChessOptions
    action_types = ACTION_TYPES
    search_iterations = 40  # measured: 16 lost a game in ten to random, 40 none

    def new_state(
        self, options: GladiatorChessOptions, players: int, seed: int
    ) -> GladiatorChessState:
        """The eight commander seats exist whatever ``players`` is: a person may hold
        several commanders (``--seat`` maps each seat to a person or a bot)."""
        return GladiatorChessState(options, players, seed)

    def load_position(
        self, options: GladiatorChessOptions, players: int, seed: int, text: str, source: str
    ) -> GladiatorChessState:
        """A match from a written position (docs/rules/gladiator-chess.md, "Positions")."""
        return GladiatorChessState(options, players, seed, read_diagram(text, source))

    def evaluate(self, state: State[GladiatorChessOptions]) -> dict[Seat, float]:
        """Each team's pieces on the board, by the Marshal's worth and their health,
        against the other team's; every commander of a team stands as the team."""
        from gladiatorium.games.gladiator_chess.bots import VALUE

        assert isinstance(state, GladiatorChessState)
        teams: dict[str, float] = {}
        for piece in state.pos.pieces:
            if piece.alive:
                worth = VALUE[piece.kind] * (0.6 + 0.4 * piece.hp / max(1, piece.max_hp))
                teams[piece.team] = teams.get(piece.team, 0.0) + worth
        by_team = standing(teams, 15.0)
        return {s: by_team.get(SEAT_ROLES[s][0], 0.0) for s in state.seats}

    def bots(self) -> Mapping[str, BotFactory]:
        from gladiatorium.games.gladiator_chess.bots import Marshal

        return {"marshal": Marshal, "bot": Marshal}

    def sides(self, state: State[GladiatorChessOptions]) -> tuple[tuple[Seat, ...], ...]:
        """White's four commanders, then Black's: a team wins or loses together."""
        return tuple(tuple(seat_of(team, c) for c in COMMANDERS) for team in TEAMS)

    def channels(
        self, state: State[GladiatorChessOptions], seat: Seat | None, over: bool
    ) -> list[Channel]:
        """The public thread and spectators' talk, and for a commander the channel of
        his colour's four commanders, where the King and his commanders plan together
        (the other side and spectators never read it)."""
        found = public_channels(seat, over)
        if seat in SEAT_ROLES:
            found.append(team_channel(SEAT_ROLES[seat][0]))
        return found

    def render(self, state: State[GladiatorChessOptions], seat: Seat | None) -> str:
        return render_view(state.view(seat))

    def web_picture(self, state: State[GladiatorChessOptions], seat: Seat | None) -> str | None:
        """The board, tally and controls for the web page (all public information)."""
        if not isinstance(state, GladiatorChessState):
            return None
        legal = [str(a) for a in state.legal_actions(seat)] if seat is not None else []
        return web_picture(state.view(seat), legal, lambda square: look(state, square))

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
