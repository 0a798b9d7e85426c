"""Set-up positions for scenario tests: a few pieces, a chosen slot, exact dice."""

from __future__ import annotations

from typing import Any

from gladiatorium.games.gladiator_chess import GladiatorChess, GladiatorChessState
from gladiatorium.games.gladiator_chess.board import parse_square
from gladiatorium.games.gladiator_chess.pieces import BLACK, WHITE, Piece
from gladiatorium.games.gladiator_chess.state import new_position

GAME = GladiatorChess()

#: both royal pairs and both King's Knights, far from the action
ROYALS = {"f1": "K", "c1": "KK", "l1": "Q", "f10": "k", "c10": "kk", "l10": "q"}


def position(
    layout: dict[str, str],
    to_move: tuple[str, str] = (WHITE, "king"),
    turn: int = 1,
    moved: tuple[str, ...] = (),
    **options: Any,
) -> GladiatorChessState:
    """A match with only the pieces of ``layout`` (square -> code; upper case white,
    lower case black; ``F@2`` sets 2 hit points), waiting on ``to_move``'s slot."""
    state = GAME.start(options, None, 0)
    pieces = []
    for name, code in layout.items():
        kind, _, hp = code.partition("@")
        team = WHITE if kind.isupper() else BLACK
        kind = kind.upper()
        full = state.options.hit_points.get(kind, 0)
        pieces.append(
            Piece(len(pieces), kind, team, int(hp) if hp else full, full, parse_square(name))
        )
    state.pos = new_position(pieces, state.options)
    state.pos.moved = {state.pos.board[parse_square(s)].pid for s in moved}  # type: ignore[union-attr]
    state.turn = turn
    state.slot = state.order.index(to_move)
    state.events.clear()
    state._legal = {}
    state._enter_slot()
    return state


def with_royals(extra: dict[str, str], **kwargs: Any) -> GladiatorChessState:
    return position({**ROYALS, **extra}, **kwargs)


def piece_at(state: GladiatorChessState, name: str) -> Piece | None:
    return state.pos.board[parse_square(name)]


def code_at(state: GladiatorChessState, name: str) -> str:
    """``W@6`` style code of the piece on a square, ``.`` when empty."""
    piece = piece_at(state, name)
    if piece is None:
        return "."
    kind = piece.kind if piece.team == WHITE else piece.kind.lower()
    return f"{kind}@{piece.hp}"


def legal(state: GladiatorChessState) -> list[str]:
    seat = state.awaiting()[0]
    return [str(a) for a in state.legal_actions(seat)]


def act(state: GladiatorChessState, text: str, dice: list[int] | None = None) -> list[str]:
    """Play ``text`` for the awaited seat with exactly ``dice``; returns event texts."""
    if dice is not None:
        state.rng.force(dice)
    seat = state.awaiting()[0]
    events = state.act(seat, text)
    if dice is not None:
        assert state.rng.forced_left == 0, "the move used fewer dice than forced"
    return [e.text for e in events]


def targets(state: GladiatorChessState, origin: str) -> set[str]:
    """Squares the piece on ``origin`` may move to in the current decision."""
    out = set()
    for text in legal(state):
        if ":" not in text:
            continue
        body = text.split(": ", 1)[1].split()[1]
        start, _, rest = body.replace("x", "-").partition("-")
        if start == origin:
            out.add(rest.split("=")[0])
    return out


def hold_queen(state: GladiatorChessState, team: str, captor: str, taken_on: int = 1) -> None:
    """Make ``team``'s queen a captive of the piece on ``captor`` (Queen 5), then
    reopen the current slot."""
    pos = state.pos
    queen = pos.royal(team, "Q")
    if queen.sq >= 0 and pos.board[queen.sq] is queen:
        pos.board[queen.sq] = None
    queen.sq = -1
    holder = piece_at(state, captor)
    assert holder is not None
    pos.captor[team] = holder.pid
    pos.taken_on[team] = taken_on
    reopen(state)


def reopen(state: GladiatorChessState) -> None:
    """Recompute the current decision after a test changed the position."""
    state._legal = {}
    state._enter_slot()
