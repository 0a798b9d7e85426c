"""How each piece moves (the piece sections' rule 1) and rulings R4-R5, R12."""

from __future__ import annotations

from gc_helpers import act, code_at, legal, piece_at, position, targets, with_royals


def test_queen_1_moves_as_a_chess_queen() -> None:
    """37 squares from e5 on an otherwise empty board (20 straight, 17 diagonal)."""
    state = position(
        {"l1": "K", "k1": "KK", "e5": "Q", "l10": "k", "k10": "kk", "a10": "q"},
        to_move=("white", "queen"),
    )
    assert len(targets(state, "e5")) == 37


def test_champion_1_moves_three_or_five_with_one_turn() -> None:
    """From e5: every square 3 or 5 steps away counting files plus ranks (12 + 18 on
    an open board); the square under the white King (f1) is the one missing."""
    state = with_royals({"e5": "C"}, to_move=("white", "queen"))
    reach = targets(state, "e5")
    assert len(reach) == 29
    assert {"h5", "e8", "f7", "d3", "j5", "e10", "g2"} <= reach
    assert "f8" not in reach  # 4 steps: neither 3 nor 5
    assert "e6" not in reach and "e9" not in reach


def test_r4_champion_does_not_leap_unless_the_option_says_so() -> None:
    layout = {"e5": "C", "e6": "F"}
    blocked = targets(with_royals(layout, to_move=("white", "queen")), "e5")
    assert "e8" not in blocked and "e10" not in blocked
    assert "d7" in blocked  # round the footman: d5, d6, d7
    leaping = targets(with_royals(layout, to_move=("white", "queen"), champion_leaps=True), "e5")
    assert {"e8", "e10"} <= leaping


def test_warrior_1_moves_as_a_rook_blocked_as_in_chess() -> None:
    state = with_royals({"e4": "W", "e6": "F", "b4": "s"}, to_move=("white", "queen"))
    reach = targets(state, "e4")
    assert "e5" in reach and "e6" not in reach and "e7" not in reach
    assert "b4" in reach and "a4" not in reach
    assert "e4xb4" in " ".join(legal(state))


def test_scout_1_moves_as_a_bishop() -> None:
    state = with_royals({"e4": "S", "g6": "f"}, to_move=("white", "black-knight"))
    reach = targets(state, "e4")
    assert {"d5", "c6", "b7", "a8", "f5", "g6", "d3", "f3", "g2", "h1"} <= reach
    assert "h7" not in reach and "e5" not in reach


def test_knights_leap_mounted_knight_1_black_knight_1_kings_knight_1() -> None:
    state = with_royals(
        {"e4": "MK", "d4": "F", "f4": "F", "e3": "F", "e5": "F", "d5": "SQ", "f5": "SQ"},
    )
    assert targets(state, "e4") == {"d6", "f6", "c5", "g5", "c3", "g3", "d2", "f2"}
    state = GAME_START()
    assert targets_of_override(state, "e1") == {"d3", "f3"}
    assert targets_of_override(state, "c1") == {"a2", "b3", "d3"}


def GAME_START():
    from gc_helpers import GAME

    state = GAME.start(None, None, 0)
    act(state, "king: F a2-a3")
    act(state, "king: F a9-a8")
    return state


def targets_of_override(state: object, origin: str) -> set[str]:
    return targets(state, origin)  # type: ignore[arg-type]


def test_king_1_moves_one_square() -> None:
    state = position({"e5": "K", "c1": "KK", "l1": "Q", "l10": "k", "a10": "kk", "j10": "q"})
    assert targets(state, "e5") == {"d4", "e4", "f4", "d5", "f5", "d6", "e6", "f6"}


def test_footman_1_steps_one_or_two_forward_all_game_and_attacks_diagonally() -> None:
    state = with_royals({"e5": "F", "d6": "w", "e8": "F"})
    assert targets(state, "e5") == {"e6", "e7", "d6"}
    state = with_royals({"e5": "F", "e6": "w"})
    assert targets(state, "e5") == set()


def test_squire_1_moves_as_a_pawn_two_only_from_its_start() -> None:
    state = with_royals({"e2": "SQ", "h5": "SQ", "i6": "f"}, to_move=("white", "kings-knight"))
    assert targets(state, "e2") == {"e3", "e4"}
    assert targets(state, "h5") == {"h6", "i6"}
    state = with_royals({"e9": "sq"}, to_move=("black", "kings-knight"))
    assert targets(state, "e9") == {"e8", "e7"}


def test_r5_no_castling_no_en_passant_no_diagonal_step_onto_empty() -> None:
    state = with_royals({"d5": "F", "e5": "f"})
    act(state, "let queen") if "let queen" in legal(state) else None
    assert "e6" not in targets(state, "d5")


def test_footman_3_promotes_to_a_captured_warrior_or_scout_kings_choice() -> None:
    state = with_royals({"a9": "F"}, lost={"white": ["W", "S", "F", "C"]})
    moves = [m for m in legal(state) if "a9-a10" in m]
    assert moves == ["king: F a9-a10=S", "king: F a9-a10=W"]
    act(state, "king: F a9-a10=W")
    assert code_at(state, "a10") == "W@6"
    assert sorted(state.pos.lost["white"]) == ["C", "F", "S"]


def test_r12_footman_with_nothing_to_return_stays_a_footman() -> None:
    state = with_royals({"a9": "F"})
    assert [m for m in legal(state) if "a9" in m] == ["king: F a9-a10"]
    act(state, "king: F a9-a10")
    assert code_at(state, "a10") == "F@4"


def test_squire_3_promotes_to_any_captured_piece() -> None:
    state = with_royals(
        {"a9": "SQ"}, to_move=("white", "kings-knight"), lost={"white": ["BK", "F", "C"]}
    )
    act(state, "let kings-knight")
    moves = [m for m in legal(state) if "a9-a10" in m]
    assert moves == [
        "kings-knight: SQ a9-a10=BK",
        "kings-knight: SQ a9-a10=C",
        "kings-knight: SQ a9-a10=F",
    ]
    act(state, "kings-knight: SQ a9-a10=BK")
    piece = piece_at(state, "a10")
    assert piece is not None and (piece.kind, piece.hp) == ("BK", 20)
