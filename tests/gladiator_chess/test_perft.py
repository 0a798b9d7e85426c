"""Golden move counts ("perft") for set-up positions: depth 1 and 2 counted by hand
in the docstrings; deeper figures are regression numbers (an attack on the way rolls
the state's seeded dice, so a count is exact only for a fixed seed)."""

from __future__ import annotations

from gc_helpers import legal, position
from test_setup_and_turns import perft

#: a middle game: both sides with a few pieces of every commander
MIDDLE = {
    "f1": "K",
    "c1": "KK",
    "h2": "Q",
    "e5": "C",
    "a1": "W",
    "j3": "MK",
    "e3": "BK",
    "h4": "S",
    "a2": "F",
    "b3": "SQ",
    "f10": "k",
    "c10": "kk",
    "l10": "q",
    "a10": "w",
    "e7": "f",
    "d8": "s",
    "i7": "bk",
    "g6": "c",
    "k9": "sq",
}


def test_perft_middle_game_king_slot() -> None:
    """White King's slot: the King 3 (g1 and f2 are reached by the black Champion on
    g6, five squares away), the Mounted Knight 6 of 8 (h2, h4 are his own), the
    footman 2: 11. Each is answered by 5 black King's moves: the King 4 (f9 is
    reached by the white Champion: f5-f8 then f9), the footman 1 (e5 is occupied)."""
    state = position(MIDDLE)
    assert len(legal(state)) == 11
    assert perft(state, 2) == 55
    assert perft(state, 3) == 3986


def test_perft_middle_game_queen_slot_overrides() -> None:
    """At the white Queen's slot the King decides: 'let queen' plus 77 overrides,
    one for every move of an unmoved white piece: the Queen's own 43 (Champion 22,
    Queen 20, warrior b1) and scout 13, Black Knight 7 (f1 is his King), Mounted
    Knight 6, King 3, King's Knight 2 (d3, e2), footman 2, squire 1. After 'let
    queen' the Queen's commander has exactly her 43. At depth 2, 5491: two white
    Queen moves (to l2 and l6) give the black King one more override each, his
    Queen freezing hers (Queen 3, R15; 5489 before version 3)."""
    state = position(MIDDLE, to_move=("white", "queen"))
    moves = legal(state)
    assert moves[0] == "let queen" and len(moves) == 78
    pieces = [m.split(": ")[1].split()[0] for m in moves[1:]]
    counts = {kind: pieces.count(kind) for kind in sorted(set(pieces))}
    assert counts == {
        "BK": 7,
        "C": 22,
        "F": 2,
        "K": 3,
        "KK": 2,
        "MK": 6,
        "Q": 20,
        "S": 13,
        "SQ": 1,
        "W": 1,
    }
    let = state.clone()
    let.act("white-king", "let queen")
    assert len(legal(let)) == 43
    assert perft(state, 2) == 5491


def test_perft_captive_queen_king_11_1_moves_as_a_queen() -> None:
    """The black Black Knight on h8 holds the white Queen; in the white King's slot
    the King has 27 queen-moves (King 11.1: 8 up the f-file to f9 beside the black
    King, whom he cannot enter, 2 + 6 along rank 1, 5 + 6 diagonally) and the
    footman on a2 two: 29."""
    state = position(
        {
            "f1": "K",
            "c1": "KK",
            "l1": "Q",
            "a2": "F",
            "h8": "bk",
            "f10": "k",
            "c10": "kk",
            "l10": "q",
        },
        captive={"white": "h8"},
    )
    assert len(legal(state)) == 27 + 2
