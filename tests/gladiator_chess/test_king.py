"""The King: King 1-11 (movement, dice, protection by the King's Knight, instant
elimination, check and checkmate, overrides, the changes after the King's Knight dies
and while the Queen is captive), with forced dice and exact numbers."""

from __future__ import annotations

from gc_helpers import act, code_at, legal, position, targets, with_royals

from gladiatorium.games.gladiator_chess import GladiatorChess, GladiatorChessState

GAME = GladiatorChess()

#: a white King boxed in by his own warriors (queen's pieces: none moves in his slot)
RING = {
    "f1": "K",
    "c1": "KK",
    "l1": "Q",
    "a10": "k",
    "c10": "kk",
    "l10": "q",
    "e1": "W",
    "g1": "W",
    "e2": "W",
    "f2": "W",
    "g2": "W",
}


def test_king_2_rolls_5d6_and_has_30_hit_points() -> None:
    """An exposed King (no King's Knight) attacks a warrior with 5d6 + 1d6: six ones
    (6) against 6+6 (12); he loses 6 of his 30 hit points and stays on f1."""
    state = position({"f1": "K", "l1": "Q", "f10": "k", "c10": "kk", "l10": "q", "f2": "w"})
    assert code_at(state, "f1") == "K@30"
    act(state, "king: K f1xf2", dice=[1, 1, 1, 1, 1, 1, 6, 6])
    assert code_at(state, "f1") == "K@24" and code_at(state, "f2") == "w@6"


def test_king_3_kings_knight_3_no_piece_may_attack_a_protected_king() -> None:
    """A black warrior on f5 bears on the white King (f1) but has no move onto f1."""
    state = with_royals({"f5": "w"}, to_move=("black", "queen"))
    act(state, "let queen")
    assert "f1" not in targets(state, "f5")
    assert targets(state, "f5") >= {"f2", "f4", "a5", "k5"}


def test_king_3_any_piece_can_place_him_in_check() -> None:
    """Check by every kind of piece's movement: footman and squire diagonally ahead,
    the three knights, warrior, scout, Champion (a clear 3-or-5 path)."""
    checkers = {
        "e2": "f",
        "g2": "sq",
        "g3": "bk",
        "e3": "mk",
        "h2": "kk",
        "f7": "w",
        "i4": "s",
        "f4": "c",
    }
    for square, code in checkers.items():
        state = with_royals({square: code}, to_move=("black", "kings-knight"))
        assert state.pos.in_check("white"), f"{code} on {square} should check the King on f1"
    quiet = with_royals({"f3": "f", "f6": "mk"}, to_move=("black", "kings-knight"))
    assert not quiet.pos.in_check("white")


def test_king_4_commands_himself_the_mounted_knight_and_footmen() -> None:
    state = with_royals({"a2": "F", "b2": "SQ", "d2": "W", "j1": "MK", "h4": "S"})
    assert {m.split()[1] for m in legal(state)} == {"K", "MK", "F"}


def test_king_5_instantly_eliminates_an_enemy_without_dice_but_no_queen() -> None:
    """No dice are rolled (none are forced); neither queen's square is open to him."""
    state = position(
        {"f1": "K", "c1": "KK", "e2": "Q", "f10": "k", "c10": "kk", "g2": "q", "f2": "w"}
    )
    assert "e2" not in targets(state, "f1") and "g2" not in targets(state, "f1")
    events = act(state, "king: K f1xf2", dice=[])
    assert "white King eliminates the black Warrior on f2" in events
    assert code_at(state, "f2") == "K@30" and state.pos.lost["black"] == ["W"]


def test_king_5_r3_eliminates_his_own_pieces_only_to_move_out_of_check() -> None:
    """Boxed in by his warriors, the King has no move (no check: no eliminating his
    own), nor have the Mounted Knight or footmen (there are none): his slot passes
    (King 8, R3) and the black King moves. With a black knight on g3 giving check he
    may eliminate his own warriors on the squares the knight does not reach (not e2)."""
    quiet = position(RING)
    assert quiet.awaiting() == ("black-king",)
    assert "white-king has no move; the slot passes" in [e.text for e in quiet.events]
    state = position({**RING, "g3": "bk"})
    assert legal(state) == ["king: K f1xg1", "king: K f1xe1", "king: K f1xf2", "king: K f1xg2"]
    act(state, "king: K f1xg2", dice=[])
    assert code_at(state, "g2") == "K@30" and state.pos.lost["white"] == ["W"]


def test_king_8_r3_option_king_slot_moves_any_moves_another_commanders_piece() -> None:
    """Under ``king_slot_moves_any`` (the rule before version 3) the boxed-in King
    moves another commander's piece in his own slot instead (General 7)."""
    quiet = position(RING, king_slot_moves_any=True)
    moves = legal(quiet)
    assert "king: W e1-d1" in moves
    assert {m.split()[1] for m in moves} == {"KK", "Q", "W"}
    assert "he moves any unmoved piece of his team (General 7)" in GAME.terminal.render(quiet, None)


def check_on_the_f_file() -> GladiatorChessState:
    """A black warrior on f5 checks the white King on f1 at the white Queen's slot;
    a white warrior on a3 can block on f3."""
    return with_royals({"f5": "w", "a3": "W"}, to_move=("white", "queen"))


def test_king_6_1_the_next_commander_must_move_the_king_out_of_check() -> None:
    state = check_on_the_f_file()
    assert state.pos.in_check("white")
    act(state, "let queen")
    assert legal(state) == ["queen: W a3-f3"]
    act(state, "queen: W a3-f3")
    assert not state.pos.in_check("white")


def test_king_6_2_the_king_overrides_to_move_himself_or_a_piece_out_of_check() -> None:
    state = check_on_the_f_file()
    assert legal(state) == [
        "let queen",
        "king overrides queen: K f1-g1",
        "king overrides queen: K f1-e1",
        "king overrides queen: K f1-g2",
        "king overrides queen: K f1-e2",
        "king overrides queen: W a3-f3",
    ]
    act(state, "king overrides queen: K f1-e2")
    assert code_at(state, "e2") == "K@30"


def test_king_6_3_checkmate_when_no_piece_can_save_him_having_moved_already() -> None:
    """The King moved earlier this turn, so he cannot step aside; nothing blocks:
    the game ends at the white Queen's slot."""
    state = with_royals({"f5": "w"}, to_move=("white", "queen"), moved=("f1",))
    outcome = state.outcome()
    assert outcome is not None and outcome.team == "black" and outcome.reason == "checkmate"
    assert len(outcome.winners) == 4


def test_king_10_1_without_his_knight_he_fights_and_may_be_attacked() -> None:
    """No white King's Knight: a black warrior attacks the white King with 2d6 + 1d6
    (6+6+6 = 18 against five ones = 5): the King loses 13 and survives with 17."""
    state = position(
        {"f1": "K", "l1": "Q", "f10": "k", "c10": "kk", "l10": "q", "f5": "w"},
        to_move=("black", "queen"),
    )
    assert not state.pos.in_check("white")
    act(state, "let queen")
    assert "f1" in targets(state, "f5")
    act(state, "queen: W f5xf1", dice=[6, 6, 6, 1, 1, 1, 1, 1])
    assert code_at(state, "f1") == "K@17" and code_at(state, "f5") == "w@6"


def test_king_10_1_r18_only_the_king_in_question_changes_the_other_still_eliminates() -> None:
    """The black King keeps his knight: he eliminates the exposed white King next to
    him without dice (none forced), and that kill wins (General 10)."""
    state = position(
        {"f1": "K", "l1": "Q", "f2": "k", "c10": "kk", "l10": "q"},
        to_move=("black", "king"),
    )
    act(state, "king: K f2xf1", dice=[])
    outcome = state.outcome()
    assert outcome is not None and outcome.team == "black" and outcome.reason == "king-killed"


def test_king_10_2_without_his_knight_he_cannot_be_checked_and_must_be_killed() -> None:
    """A black warrior on the f-file does not check the exposed King, whose team may
    move anything. The warrior rolls 18 against 5: a King with 25 hit points keeps
    12; one with 13 falls, the warrior takes f1 and Black wins."""
    layout = {"f1": "K", "a1": "W", "l1": "Q", "f10": "k", "c10": "kk", "l10": "q", "f5": "w"}
    state = position(layout, to_move=("white", "queen"))
    assert not state.pos.in_check("white") and not state.is_over
    assert "king overrides queen: W a1-a2" in legal(state)
    state = position(
        {**layout, "f1": "K@25"},
        to_move=("black", "queen"),
    )
    act(state, "let queen")
    act(state, "queen: W f5xf1", dice=[6, 6, 6, 1, 1, 1, 1, 1])
    assert code_at(state, "f1") == "K@12"
    state = position({**layout, "f1": "K@13"}, to_move=("black", "queen"))
    act(state, "let queen")
    act(state, "queen: W f5xf1", dice=[6, 6, 6, 1, 1, 1, 1, 1])
    outcome = state.outcome()
    assert outcome is not None and outcome.team == "black" and outcome.reason == "king-killed"
    assert code_at(state, "f1") == "w@6"


def test_king_11_1_while_his_queen_is_captive_the_king_moves_as_a_queen() -> None:
    """The black Black Knight on h8 holds the white Queen: the white King on f1
    (his King's Knight on c1) reaches 8 up the f-file, 2 + 6 along rank 1, 5 + 6
    diagonally: 27 squares; he cannot be checked, so f9 beside the black King is open."""
    state = with_royals({"h8": "bk"}, captive={"white": "h8"})
    reach = targets(state, "f1")
    assert {"f9", "a6", "l7", "d1", "l1"} <= reach and "f10" not in reach
    assert len(reach) == 27


def test_king_11_2_no_elimination_he_attacks_the_abductor_to_recover_her() -> None:
    """The King fights the Black Knight holding his Queen with 5d6 + 1d6 = 36
    against 4: the knight falls, the King takes h8, the Queen returns beside him."""
    state = with_royals({"g2": "bk", "f3": "w"}, captive={"white": "g2"})
    act(state, "king: K f1xg2", dice=[6] * 6 + [1] * 4)
    assert code_at(state, "g2") == "K@30"
    assert not state.pos.queen_captive("white")
    queen = state.pos.royal("white", "Q")
    assert queen.sq >= 0 and max(abs(queen.sq % 12 - 6), abs(queen.sq // 12 - 1)) == 1


def test_king_11_3_while_his_queen_is_captive_he_can_be_attacked_but_not_checked() -> None:
    state = with_royals(
        {"h8": "bk", "f5": "w"}, to_move=("black", "queen"), captive={"white": "h8"}
    )
    assert not state.pos.in_check("white")
    act(state, "let queen")
    assert "f1" in targets(state, "f5")
    act(state, "queen: W f5xf1", dice=[6, 6, 6, 1, 1, 1, 1, 1])
    assert code_at(state, "f1") == "K@17"
