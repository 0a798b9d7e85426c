"""Bad input at the terminal or over JSON: each refusal names what is wrong and where,
and changes nothing; '-' and 'x' are not held against a player."""

from __future__ import annotations

import pytest
from gc_helpers import GAME, act, position, with_royals

from gladiatorium.core import GladiatoriumError, IllegalAction, NotYourTurn
from gladiatorium.games.gladiator_chess import GladiatorChessState
from gladiatorium.games.gladiator_chess.actions import Let, Move


def opening() -> GladiatorChessState:
    return GAME.start(None, None, 0)


def queen_slot() -> GladiatorChessState:
    """After F a2-a4 and F a9-a7: the white King decides on the Queen's slot."""
    state = opening()
    act(state, "king: F a2-a4")
    act(state, "king: F a9-a7")
    return state


def refusal(state: GladiatorChessState, seat: str, text: str) -> str:
    before = state.fingerprint()
    with pytest.raises(GladiatoriumError) as err:
        state.act(seat, text)
    assert state.fingerprint() == before
    return str(err.value)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("king: F a2-a5", "the Footman on a2 cannot go to a5; it can go to a3, a4"),
        ("queen: W a1-a2", "it is the white King's move (General 4)"),
        ("king: W a1-a2", "the Warrior is moved by the Queen's commander"),
        ("king: S d1-e2", "the Scout is moved by the Black Knight's commander"),
        ("king: K f1-f2", "the King on f1 has no legal move"),
        ("king: F a10-a9", "the Warrior on a10 is black's"),
        ("king: F d5-d6", "there is no piece on d5"),
        ("king: F z2-a3", "no square 'z2' (files a-l, ranks 1-10)"),
        ("king: MK e1-d3", "the piece on e1 is a Black Knight (BK)"),
        ("king: F a2-a3=W", "nothing returns on a3: write the move without '=W'"),
        ("let queen", "nothing to let: the king moves now"),
        ("king overrides queen: F a2-a3", "the King cannot override his own move (King 8)"),
        ("hello", "'hello' is not a move; write 'queen: C h1-h4'"),
    ],
)
def test_a_refused_move_says_why_and_changes_nothing(text: str, why: str) -> None:
    assert why in refusal(opening(), "white-king", text)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("queen: W a1-a2", "the white King decides first: 'let queen' or 'king overrides queen: "),
        ("let king", "this is the queen's slot: 'let queen'"),
        ("king overrides black-knight: BK e1-d3", "write 'king overrides queen: ...'"),
        ("king overrides queen: F a4-a6", "the Footman on a4 has already moved this turn"),
    ],
)
def test_general_5_6_override_window_refusals_name_the_slot(text: str, why: str) -> None:
    assert why in refusal(queen_slot(), "white-king", text)


def test_the_commander_waiting_on_his_king_is_told_whose_turn_it_is() -> None:
    state = queen_slot()
    before = state.fingerprint()
    with pytest.raises(NotYourTurn, match="waiting for white-king"):
        state.act("white-queen", "queen: W a1-a2")
    assert state.fingerprint() == before


def test_r8_a_move_into_check_is_refused_with_the_reason() -> None:
    """The white warrior on f2 shields its King from the black warrior on f5."""
    state = with_royals({"f2": "W", "f5": "w"}, to_move=("white", "queen"))
    act(state, "let queen")
    why = refusal(state, "white-queen", "queen: W f2-a2")
    assert "the Warrior on f2 may not go to a2: it would leave its King in check (R8)" in why


def test_footman_3_a_promotion_must_name_what_returns() -> None:
    state = with_royals({"a9": "F"}, lost={"white": ["W", "S"]})
    why = refusal(state, "white-king", "king: F a9-a10")
    assert "the Footman on a9 reaches the far side: name what returns, =S or =W" in why


def test_dash_or_x_and_letter_case_are_forgiven() -> None:
    state = with_royals({"e4": "W", "e5": "f"}, to_move=("white", "queen"))
    assert state.parse("white-king", "LET  Queen") == Let("queen")
    act(state, "let queen")
    assert state.parse("white-queen", "queen: w e4-e5") == Move("queen", "W", "e4", "e5", True)
    assert state.parse("white-queen", "queen: W e4xe3") == Move("queen", "W", "e4", "e3")


def test_an_illegal_json_action_gets_the_same_reason() -> None:
    state = opening()
    before = state.fingerprint()
    why = "the Footman on a2 cannot go to a6; it can go to a3, a4"
    with pytest.raises(IllegalAction, match=why):
        state.apply("white-king", Move("king", "F", "a2", "a6"))
    assert state.fingerprint() == before


def test_queen_2_the_queen_square_is_not_a_target_for_a_warrior() -> None:
    state = position(
        {"f1": "K", "c1": "KK", "l1": "Q", "f10": "k", "c10": "kk", "e5": "q", "e2": "W"},
        to_move=("white", "queen"),
    )
    act(state, "let queen")
    why = refusal(state, "white-queen", "queen: W e2xe5")
    assert "the Warrior on e2 cannot go to e5; it can go to" in why


@pytest.mark.parametrize("text", ["let black-knight", "let queen", "black-knight: F a2-a3"])
def test_general_7_when_the_king_must_override_the_refusal_says_so(text: str) -> None:
    state = with_royals({"a2": "F"}, to_move=("white", "black-knight"))
    why = refusal(state, "white-king", text)
    assert "the black-knight has no move, so the King must override (General 7)" in why


def test_general_9_options_change_one_pieces_dice_and_name_a_bad_code() -> None:
    """``dice={"K": 6}`` keeps the rest of the table; a code that is not a fighting
    piece, or fewer than 1 die or hit point, is refused naming it."""
    options = GAME.make_options({"dice": {"k": 6}, "hit_points": {"W": 9}})
    assert options.dice["K"] == 6 and options.dice["W"] == 2
    assert options.hit_points["W"] == 9 and options.hit_points["K"] == 30
    with pytest.raises(GladiatoriumError, match=r"dice: .*no fighting piece Q"):
        GAME.make_options({"dice": {"Q": 2}})
    with pytest.raises(GladiatoriumError, match=r"hit_points: .*must be at least 1 for W"):
        GAME.make_options({"hit_points": {"W": 0}})
