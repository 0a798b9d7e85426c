"""``look e4`` at the terminal: the piece on a square, where it may go now and the
odds of each fight it could start (General 9, Queen 10). Everything here is public
(the game has no hidden information); pure text, no I/O."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gladiatorium.core import GladiatoriumError
from gladiatorium.games.gladiator_chess.board import parse_square
from gladiatorium.games.gladiator_chess.combat import odds
from gladiatorium.games.gladiator_chess.pieces import (
    COMMANDER_NAMES,
    COMMANDER_OF,
    KIND_NAMES,
    QUEEN,
    Piece,
)
from gladiatorium.games.gladiator_chess.position import (
    ATTACK,
    ATTACK_FROZEN,
    ELIMINATE,
    FREEZE,
    NAMES,
    TAKE_QUEEN,
    Step,
)

if TYPE_CHECKING:
    from gladiatorium.games.gladiator_chess.state import GladiatorChessState

LOOK_HELP = (
    "'look e4' describes the piece on e4 (hit points, dice, commander, frozen piece "
    "under a queen) and where it may go now, with the odds of each fight"
)


def look(state: GladiatorChessState, query: str) -> str:
    try:
        sq = parse_square(query)
    except ValueError as err:
        raise GladiatoriumError(f"look: {err}") from None
    piece = state.pos.board[sq]
    if piece is None:
        return f"{NAMES[sq]} is empty"
    lines = [f"{NAMES[sq]}: {describe(state, piece)}"]
    held = state.pos.frozen_piece_at(sq)
    if held is not None:
        lines.append(f"  holding frozen: the {held.label} ({held.hp}/{held.max_hp} hit points)")
    lines.append("  " + reach(state, piece))
    return "\n".join(lines)


def describe(state: GladiatorChessState, piece: Piece) -> str:
    moved = "has moved this turn" if piece.pid in state.pos.moved else "has not moved this turn"
    boss = COMMANDER_NAMES[COMMANDER_OF[piece.kind]]
    if piece.kind == QUEEN:
        return f"the {piece.label}, moved by the {boss}'s commander; never fights; {moved}"
    dice = state.options.dice[piece.kind]
    return (
        f"the {piece.label}, {piece.hp}/{piece.max_hp} hit points, {dice}d6 "
        f"(+{state.options.attack_bonus_dice}d6 attacking), moved by the {boss}'s "
        f"commander; {moved}"
    )


def reach(state: GladiatorChessState, piece: Piece) -> str:
    """Every square the piece may enter now, by the rules of its own team's turn."""
    if piece.pid in state.pos.moved:
        return "it may not move again this turn (General 6)"
    steps = state.pos.steps(piece, state.pos.in_check(piece.team))
    if not steps:
        return "it has no legal move now"
    seen: dict[int, str] = {}
    for step in steps:
        seen.setdefault(step.target, _what_happens(state, piece, step))
    return "may go to: " + ", ".join(seen[t] for t in sorted(seen))


def _what_happens(state: GladiatorChessState, piece: Piece, step: Step) -> str:
    pos, name = state.pos, NAMES[step.target]
    occupant = pos.board[step.target]
    if step.entry == ATTACK_FROZEN:
        occupant = pos.frozen_piece_at(step.target)
    if occupant is None:
        return name
    if step.entry == FREEZE:
        return f"{name} (freeze the {KIND_NAMES[occupant.kind]})"
    if step.entry == TAKE_QUEEN:
        return f"{name} (take the Queen captive)"
    if step.entry == ELIMINATE:
        return f"{name} (eliminate the {occupant.label})"
    assert step.entry in (ATTACK, ATTACK_FROZEN)
    extra = state.options.attack_bonus_dice
    if step.entry == ATTACK_FROZEN:
        extra += state.options.frozen_bonus_dice
    kill, fall = odds(
        state.options.dice[piece.kind] + extra,
        state.options.dice[occupant.kind],
        occupant.hp,
        piece.hp,
    )
    return (
        f"{name} (attack the {KIND_NAMES[occupant.kind]}, {occupant.hp} hp: "
        f"one roll kills it {kill:.0%}, fells the attacker {fall:.0%})"
    )
