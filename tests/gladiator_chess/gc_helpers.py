"""Set-up positions for scenario tests: a few pieces, a chosen slot, exact dice."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gladiatorium.games.gladiator_chess import GladiatorChess, GladiatorChessState
from gladiatorium.games.gladiator_chess.board import parse_square
from gladiatorium.games.gladiator_chess.diagram import write_position
from gladiatorium.games.gladiator_chess.pieces import BLACK, WHITE, Piece

GAME = GladiatorChess()

#: both royal pairs and both King's Knights, far from the action
ROYALS = {"f1": "K", "c1": "KK", "l1": "Q", "f10": "k", "c10": "kk", "l10": "q"}


def position(
    layout: dict[str, str],
    to_move: tuple[str, str] = (WHITE, "king"),
    turn: int = 1,
    moved: tuple[str, ...] = (),
    captive: dict[str, str] | None = None,
    lost: dict[str, list[str]] | None = None,
    **options: Any,
) -> GladiatorChessState:
    """A match with only the pieces of ``layout`` (square -> code; upper case white,
    lower case black; ``F@2`` sets 2 hit points), waiting on ``to_move``'s slot;
    ``captive`` maps a team to the square of the piece holding its Queen (and, after
    a space, the turn she was taken); ``lost`` lists a team's captured pieces. Built
    from the written position format."""
    text = diagram(layout, to_move, turn, moved, captive or {})
    text += "".join(f"lost {team} {' '.join(kinds)}\n" for team, kinds in (lost or {}).items())
    state = GAME.start(options, None, 0, position=text, source="test position")
    assert isinstance(state, GladiatorChessState)
    return state


def diagram(
    layout: dict[str, str],
    to_move: tuple[str, str],
    turn: int,
    moved: tuple[str, ...],
    captive: dict[str, str],
) -> str:
    """The written position (docs/rules/gladiator-chess.md, "Positions") of a layout."""
    lines = [f"turn {turn}", f"slot {to_move[0]} {to_move[1]}"]
    for name, code in layout.items():
        kind, _, hp = code.partition("@")
        team = WHITE if kind.isupper() else BLACK
        if kind.upper() == "Q" and team in captive:
            continue  # a captive Queen is off the board
        lines.append(f"{team} {kind.upper()} {name} {hp} {'moved' if name in moved else ''}")
    lines += [f"captive {team} {where}" for team, where in captive.items()]
    return "\n".join(lines) + "\n"


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


def next_turn_at(
    state: GladiatorChessState, slot: tuple[str, str], edit: Callable[[str], str] | None = None
) -> GladiatorChessState:
    """The same position at ``slot`` of the next turn, no piece moved yet: written out
    and read back (``edit`` may change the text first); same options."""
    text = write_position(state.pos, state.turn + 1, slot).replace(" moved\n", "\n")
    if edit is not None:
        text = edit(text)
    again = GAME.start(state.options, None, 0, position=text, source="next turn")
    assert isinstance(again, GladiatorChessState)
    return again
