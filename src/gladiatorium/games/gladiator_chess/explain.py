"""Reading typed moves forgivingly and saying exactly why a move is refused.

A person at the terminal types ``queen: W a1-a5``; when that is not legal the
answer names what is wrong (whose slot it is, what stands on the square, where the
piece may go) instead of only listing legal moves. Pure rules code: no I/O.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from gladiatorium.games.gladiator_chess.actions import Let, Move
from gladiatorium.games.gladiator_chess.board import parse_square
from gladiatorium.games.gladiator_chess.pieces import (
    COMMANDER_NAMES,
    COMMANDER_OF,
    COMMANDS,
    KIND_NAMES,
    KINDS,
    KING_CMD,
    other,
)
from gladiatorium.games.gladiator_chess.position import NAMES, STEP

if TYPE_CHECKING:
    from gladiatorium.games.gladiator_chess.state import GladiatorChessState

_MOVE = re.compile(
    r"^(?:king\s+overrides\s+(?P<over>[a-z-]+)|(?P<cmd>[a-z-]+))\s*:\s*"
    r"(?P<piece>[a-z]+)\s+(?P<origin>[a-z]\d+)\s*(?P<sep>[-x])\s*(?P<target>[a-z]\d+)"
    r"(?:\s*=\s*(?P<promote>[a-z]+))?$"
)
_LET = re.compile(r"^let\s+(?P<cmd>[a-z-]+)$")

SHAPES = "'queen: C h1-h4', 'let queen' or 'king overrides queen: BK e1-f3'"


def read(text: str) -> Move | Let | None:
    """The action ``text`` spells, legal or not ('-' and 'x' both accepted), or
    None when it does not have the shape of a move or a 'let'."""
    plain = " ".join(text.split()).lower()
    let = _LET.match(plain)
    if let:
        return Let(let["cmd"])
    move = _MOVE.match(plain)
    if move is None:
        return None
    return Move(
        commander=KING_CMD if move["over"] else move["cmd"],
        piece=move["piece"].upper(),
        origin=move["origin"],
        target=move["target"],
        takes=move["sep"] == "x",
        promote=(move["promote"] or "").upper(),
        override=move["over"] or "",
    )


def why_not(state: GladiatorChessState, action: Move | Let) -> str:
    """What makes ``action`` illegal for the awaited seat now, in the game's words."""
    team, commander = state.order[state.slot]
    deciding = state.phase == "override"
    if isinstance(action, Let):
        return _why_not_let(state, commander, deciding)
    if deciding:
        if not action.override:
            if not state.commander_moves:
                return _why_not_let(state, commander, deciding)
            return (
                f"the {team} King decides first: 'let {commander}' or "
                f"'king overrides {commander}: PIECE FROM-TO'"
            )
        if action.override != commander:
            return f"this is the {commander}'s slot: write 'king overrides {commander}: ...'"
        return _why_not_piece(state, action, team, None)
    if action.override:
        if commander == KING_CMD:
            return "the King cannot override his own move (King 8)"
        return f"the King has let the {commander} move; the {team} {commander} moves now"
    if action.commander != commander:
        return f"it is the {team} {COMMANDER_NAMES[commander]}'s move (General 4)"
    kinds = COMMANDS[commander] if state.commander_moves else None  # General 7, R3, R28
    return _why_not_piece(state, action, team, kinds)


def _why_not_let(state: GladiatorChessState, commander: str, deciding: bool) -> str:
    if not deciding:
        return f"nothing to let: the {commander} moves now"
    if not state.commander_moves:
        return (
            f"the {commander} has no move, so the King must override "
            f"(General 7): 'king overrides {commander}: PIECE FROM-TO'"
        )
    return f"this is the {commander}'s slot: 'let {commander}'"


def _why_not_piece(
    state: GladiatorChessState, move: Move, team: str, kinds: frozenset[str] | None
) -> str:
    pos = state.pos
    try:
        origin, target = parse_square(move.origin), parse_square(move.target)
    except ValueError as err:
        return str(err)
    piece = pos.board[origin]
    if piece is None:
        return f"there is no piece on {move.origin}"
    name = f"the {KIND_NAMES[piece.kind]} on {move.origin}"
    if piece.team != team:
        return f"{name} is {other(team)}'s"
    if move.piece not in KINDS:
        return f"no piece code {move.piece!r}; codes: {', '.join(KINDS)}"
    if piece.kind != move.piece:
        return f"the piece on {move.origin} is a {KIND_NAMES[piece.kind]} ({piece.kind})"
    if kinds is not None and piece.kind not in kinds:
        boss = COMMANDER_NAMES[COMMANDER_OF[piece.kind]]
        return f"the {KIND_NAMES[piece.kind]} is moved by the {boss}'s commander"
    if piece.pid in pos.moved:
        return f"{name} has already moved this turn (General 6)"
    in_check = pos.in_check(team)
    steps = pos.steps(piece, in_check)
    there = [s for s in steps if s.target == target]
    if not there:
        hopeless = _hopeless_attack(state, origin, target)
        if hopeless:
            return f"{name} may not attack {move.target}: {hopeless}"
        if _pattern_reaches(state, origin, target):
            return f"{name} may not go to {move.target}: it would leave its King in check (R8)"
        reach = [NAMES[t] for t in sorted({s.target for s in steps})]
        if not reach:
            check = " while its King is in check" if in_check else ""
            return f"{name} has no legal move{check}"
        return f"{name} cannot go to {move.target}; it can go to {', '.join(reach)}"
    choices = sorted(s.promote for s in there if s.promote)
    if choices and move.promote not in choices:
        return f"{name} reaches the far side: name what returns, ={' or ='.join(choices)}"
    if move.promote and not choices:
        return f"nothing returns on {move.target}: write the move without '={move.promote}'"
    entry = there[0].entry
    if (entry != STEP) != move.takes:
        return f"write {'x' if entry != STEP else '-'} between the squares"
    return f"{move} is not legal now"


def _hopeless_attack(state: GladiatorChessState, origin: int, target: int) -> str:
    """Why an attack reaching ``target`` is no answer to check (R16), or ''."""
    pos = state.pos
    piece = pos.board[origin]
    assert piece is not None
    in_check = pos.in_check(piece.team)
    for t, how in pos.targets(piece, in_check):
        defender = pos.defender(piece, t, how)
        if t == target and defender is not None and not pos.attack_can_work(piece, t, how):
            return (
                f"its King is in check and no roll of its can fell the {defender.label} "
                f"({defender.hp} hit points), so the attack cannot answer the check (R16)"
            )
    return ""


def _pattern_reaches(state: GladiatorChessState, origin: int, target: int) -> bool:
    pos = state.pos
    piece = pos.board[origin]
    assert piece is not None
    return any(t == target for t, _ in pos.targets(piece, pos.in_check(piece.team)))


__all__ = ["SHAPES", "read", "why_not"]
