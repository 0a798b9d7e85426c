"""General 8 and 10, the commanders of the knights (Black Knight 4, Scout 3, King's
Knight 4), and the rulings of docs/rules/gladiator-chess.md that the piece tests do
not already name (R8-R10, R16, R17, R19-R22)."""

from __future__ import annotations

import pytest
from gc_helpers import (
    GAME,
    act,
    code_at,
    legal,
    next_turn_at,
    position,
    targets,
    with_royals,
)

from gladiatorium.core import IllegalAction
from gladiatorium.games.gladiator_chess import GladiatorChessState
from gladiatorium.games.gladiator_chess.pieces import WHITE


def test_general_8_capture_is_by_dice_not_automatic() -> None:
    """A warrior attacking a footman rolls; 4 against 4 is a tie, nothing is taken."""
    state = with_royals({"e4": "W", "e5": "f"}, to_move=("white", "queen"))
    act(state, "let queen")
    events = act(state, "queen: W e4xe5", dice=[1, 2, 1, 4])
    assert any("1+2+1=4 against 4=4" in e for e in events)
    assert code_at(state, "e5") == "f@4" and state.pos.lost == {"white": [], "black": []}


def test_general_10_r26_three_ways_to_win_each_for_the_whole_team() -> None:
    """Checkmate ('checkmate'), killing the King ('king-killed') and holding the
    Queen ('queen-held'; Queen 6) each end the game for the whole team."""
    mate = with_royals({"f5": "w"}, to_move=("white", "queen"), moved=("f1",))
    assert mate.outcome() is not None and mate.outcome().reason == "checkmate"  # type: ignore[union-attr]
    kill = position(
        {"f1": "K@1", "l1": "Q", "f3": "w", "f10": "k", "c10": "kk", "l10": "q"},
        to_move=("black", "queen"),
    )
    act(kill, "let queen")
    act(kill, "queen: W f3xf1", dice=[6, 6, 6, 1, 1, 1, 1, 1])
    outcome = kill.outcome()
    assert outcome is not None and outcome.reason == "king-killed"
    assert outcome.winners == (
        "black-king",
        "black-queen",
        "black-black-knight",
        "black-kings-knight",
    )


def test_black_knight_4_scout_3_kings_knight_4_each_commands_his_own() -> None:
    layout = {"e3": "BK", "h3": "S", "d2": "SQ", "a2": "F", "a1": "W"}
    state = with_royals(layout, to_move=("white", "black-knight"))
    act(state, "let black-knight")
    assert {m.split()[1] for m in legal(state)} == {"BK", "S"}
    state = with_royals(layout, to_move=("white", "kings-knight"))
    act(state, "let kings-knight")
    assert {m.split()[1] for m in legal(state)} == {"KK", "SQ"}


def test_r8_a_pinned_piece_may_not_expose_its_king() -> None:
    """The white warrior on f2 shields its King from a black warrior on f5: it may
    only move along the f-file."""
    state = with_royals({"f2": "W", "f5": "w"}, to_move=("white", "queen"))
    act(state, "let queen")
    assert targets(state, "f2") == {"f3", "f4", "f5"}


def test_r9_a_queen_never_gives_check() -> None:
    state = position(
        {"f1": "K", "c1": "KK", "l1": "Q", "f10": "k", "c10": "kk", "f5": "q"},
        to_move=("white", "king"),
    )
    assert not state.pos.in_check("white")


def test_r10_a_protected_king_never_enters_his_own_queens_square() -> None:
    """The white Queen holds a black warrior frozen on e2, next to her King: the
    King may not attack it (King 5: 'except either queen'); an exposed King may."""
    for layout, allowed in (
        ({"f1": "K", "c1": "KK", "e3": "Q", "f10": "k", "c10": "kk", "l10": "q"}, False),
        ({"f1": "K", "e3": "Q", "f10": "k", "c10": "kk", "l10": "q"}, True),
    ):
        state = position({**layout, "e2": "w"}, to_move=("white", "queen"))
        act(state, "let queen")
        act(state, "queen: Q e3xe2", dice=[])
        state = next_turn_at(state, ("white", "king"))
        assert ("e2" in targets(state, "f1")) is allowed


def warrior_answers_check(**options: object) -> GladiatorChessState:
    """The black warrior on f3 checks the white King on f1; at the white Queen's slot
    the white warrior on a3 attacks it: 2d6 + 1d6 (at most 18) against 2d6 and 6 hit
    points, so the attack can work."""
    state = with_royals({"f3": "w", "a3": "W"}, to_move=("white", "queen"), **options)
    act(state, "let queen")
    return state


def test_r16_king_6_a_failed_answer_to_check_is_checkmate() -> None:
    """The warrior rolls 1+1+1 = 3 against 2+2 = 4 and loses 1 hit point: the King is
    still in check after his team's move, so he is checkmated at once (King 6)."""
    state = warrior_answers_check()
    events = act(state, "queen: W a3xf3", dice=[1, 1, 1, 2, 2])
    assert code_at(state, "a3") == "W@5" and code_at(state, "f3") == "w@6"
    assert "white King checkmated: the answer failed: black wins" in events
    outcome = state.outcome()
    assert outcome is not None and outcome.team == "black" and outcome.reason == "checkmate"


def test_r16_king_6_an_answer_that_works_ends_the_check() -> None:
    """6+6+6 = 18 against 1+1 = 2: the checking warrior loses 16, falls, and the white
    warrior takes f3; the King is out of check and play goes on."""
    state = warrior_answers_check()
    act(state, "queen: W a3xf3", dice=[6, 6, 6, 1, 1])
    assert code_at(state, "f3") == "W@6" and not state.pos.in_check("white")
    assert not state.is_over


def footman_against_black_knight(**options: object) -> GladiatorChessState:
    """The black Black Knight on g3 (20 hit points, 4d6) checks the white King on f1.
    The white footman on f2 reaches g3, but its best roll, 6+6 = 12 against four ones,
    takes only 8 of 20 hit points."""
    return with_royals({"g3": "bk", "f2": "F"}, **options)


def test_r16_an_attack_that_cannot_fell_the_checker_is_no_answer() -> None:
    """No roll lets the footman take g3, so the attack does not answer the check: only
    the King's escapes are legal (one eliminates the footman itself, King 5), and the
    footman's attack is refused with the reason."""
    state = footman_against_black_knight()
    assert state.pos.in_check("white")
    assert legal(state) == ["king: K f1-g1", "king: K f1-e1", "king: K f1xf2", "king: K f1-g2"]
    with pytest.raises(IllegalAction, match="no roll of its can fell the black Black Knight"):
        state.act("white-king", "king: F f2xg3")


def test_r16_option_as_if_won_any_attack_answers_and_the_next_slot_must_answer() -> None:
    """Under ``check_answer=as-if-won`` (before version 3) the footman's attack counts
    as an answer; when the warrior's answer fails (3 against 4), the King is still in
    check, play goes on, and White's next slot must answer: the white Black Knight's
    slot offers only the King's escapes, by override."""
    state = footman_against_black_knight(check_answer="as-if-won")
    assert "king: F f2xg3" in legal(state)
    state = warrior_answers_check(check_answer="as-if-won")
    act(state, "queen: W a3xf3", dice=[1, 1, 1, 2, 2])
    assert code_at(state, "a3") == "W@5" and state.pos.in_check("white")
    assert not state.is_over
    act(state, "let queen")
    act(state, "queen: Q l10-l9")
    moves = legal(state)
    assert moves and all(m.startswith("king overrides black-knight: K f1-") for m in moves)


def test_r17_option_the_king_overrides_only_a_commander_without_a_move() -> None:
    state = with_royals({"a1": "W", "a2": "F"}, to_move=("white", "queen"), king_may_override=False)
    assert state.awaiting() == ("white-queen",)
    assert all(m.startswith("queen: ") for m in legal(state))


def test_r19_a_kings_knight_returned_by_promotion_protects_the_king_again() -> None:
    state = position(
        {"f1": "K", "l1": "Q", "a9": "SQ", "f10": "k", "c10": "kk", "l10": "q"},
        to_move=("white", "kings-knight"),
        lost={"white": ["KK"]},
    )
    assert not state.pos.protected("white")
    if "let kings-knight" in legal(state):
        act(state, "let kings-knight")
    act(state, "kings-knight: SQ a9-a10=KK")
    assert code_at(state, "a10") == "KK@20" and state.pos.protected("white")


def test_r20_the_game_is_drawn_at_the_turn_limit() -> None:
    state = GAME.start({"turn_limit": 1}, None, 0)
    while not state.is_over:
        seat = state.awaiting()[0]
        state.apply(seat, state.legal_actions(seat)[-1])
    outcome = state.outcome()
    assert outcome is not None and outcome.draw and "turn limit of 1" in outcome.reason


def test_r21_the_winner_of_an_exchange_heals_even_if_the_loser_survives() -> None:
    """A 2-hit-point warrior beats a scout 12 against 3; the scout keeps 3 hit points,
    the warrior is whole again (Warrior 3)."""
    state = with_royals({"e4": "W@2", "e5": "s"}, to_move=("white", "queen"))
    act(state, "let queen")
    act(state, "queen: W e4xe5", dice=[4, 4, 4, 1, 1, 1])
    assert code_at(state, "e4") == "W@6" and code_at(state, "e5") == "s@3"


def free_the_black_queen(text: str) -> str:
    """The black Queen, held on h3, is free again and back on l10."""
    return text.replace("captive black h3 1\n", "black Q l10\n")


def test_r22_a_frozen_king_protected_again_cannot_be_attacked() -> None:
    """The black King is exposed while a white scout holds his Queen, and the white
    Queen freezes him on f8. Once his Queen is free again (here: set free directly)
    he is protected again: no white piece may attack him where he lies frozen."""
    state = position(
        {
            "f1": "K",
            "c1": "KK",
            "f7": "Q",
            "f2": "W",
            "h3": "S",
            "f8": "k",
            "c10": "kk",
            "l10": "q",
        },
        to_move=("white", "queen"),
        captive={"black": "h3"},
    )
    act(state, "let queen")
    act(state, "queen: Q f7xf8", dice=[])
    assert state.view(None)["frozen"]["white"]["piece"] == "K"
    state = next_turn_at(state, ("white", "queen"))
    act(state, "let queen")
    assert "f8" in targets(state, "f2")  # exposed: the warrior may attack him
    state = next_turn_at(state, ("white", "queen"), free_the_black_queen)
    act(state, "let queen")
    assert "f8" not in targets(state, "f2")


def test_r8_protected_kings_never_stand_side_by_side() -> None:
    """Each King's step reaches the squares around him, so neither protected King
    may step next to the other (that would be moving into check)."""
    state = position({"f1": "K", "c1": "KK", "l1": "Q", "f3": "k", "c10": "kk", "l10": "q"})
    assert targets(state, "f1") == {"e1", "g1"}


def queens_face_to_face(**options: object) -> GladiatorChessState:
    """The white Queen on e4 and the black Queen on e8 on the same file, at the white
    Queen's slot; a white warrior waits on e2 below her."""
    return position(
        {"f1": "K", "c1": "KK", "e4": "Q", "e2": "W", "f10": "k", "c10": "kk", "e8": "q"},
        to_move=("white", "queen"),
        **options,
    )


def test_r15_queen_3_a_queen_freezes_the_other_queen() -> None:
    """Queen 3 excepts only the King: the white Queen lands on e8 and freezes the black
    Queen, who goes to the tally. Frozen, she cannot move (the black King must override
    her slot) and, being a queen, cannot be attacked: the white warrior on e2 reaches
    e7 but not e8."""
    state = queens_face_to_face()
    act(state, "let queen")
    events = act(state, "queen: Q e4xe8", dice=[])
    assert "the white Queen freezes the black Queen on e8" in events
    assert state.view(None)["frozen"]["white"] == {
        "square": "e8",
        "piece": "Q",
        "team": "black",
        "hp": 0,
    }
    assert state.awaiting() == ("black-king",)
    moves = legal(state)
    assert moves and not any(": Q " in m for m in moves)
    state = next_turn_at(state, (WHITE, "queen"))
    act(state, "let queen")
    reach = targets(state, "e2")
    assert "e7" in reach and "e8" not in reach


def test_r15_a_queen_holding_a_frozen_piece_cannot_be_frozen() -> None:
    """The white Queen steps aside to c2 and the black Queen freezes the white warrior
    on e2 (down the e-file): the white Queen reaches d2 but not e2."""
    state = queens_face_to_face()
    act(state, "let queen")
    act(state, "queen: Q e4-c2")
    act(state, "let queen")
    act(state, "queen: Q e8xe2", dice=[])
    state = next_turn_at(state, (WHITE, "queen"))
    act(state, "let queen")
    reach = targets(state, "c2")
    assert "d2" in reach and "e2" not in reach


def test_r15_option_no_queen_freezes_the_other_queen() -> None:
    """Under ``queen_freezes_queen=false`` (before version 3) e8 is closed to her."""
    state = queens_face_to_face(queen_freezes_queen=False)
    act(state, "let queen")
    reach = targets(state, "e4")
    assert "e7" in reach and "e8" not in reach


def queen_held_on_h5(checker: dict[str, str]) -> GladiatorChessState:
    """The black scout on h5 holds the white Queen; the white King on f1 has his
    warriors on e1 and g1, and a warrior on h2 may attack the scout."""
    state = position(
        {"f1": "K", "c1": "KK", "l1": "Q", "e1": "W", "g1": "W", "h2": "W", "h5": "s"}
        | {"f10": "k", "c10": "kk", "l10": "q"}
        | checker,
        to_move=(WHITE, "queen"),
        captive={"white": "h5"},
    )
    act(state, "let queen")
    return state


def test_r27_check_is_judged_before_the_freed_queen_is_placed() -> None:
    """With the Queen held the King is exposed: the black warrior on f5 does not
    check him. Killing the scout would free her and protect him again, in check from
    f5; she would return on f2 (R11) and block, but the move is judged without her,
    so it is refused. Without the warrior the same attack frees her onto f2."""
    state = queen_held_on_h5({"f5": "w"})
    assert "h5" not in targets(state, "h2") and "h4" in targets(state, "h2")
    state = queen_held_on_h5({})
    events = act(state, "queen: W h2xh5", dice=[6, 6, 6, 1, 1, 1])
    assert "the white Queen returns to f2" in events and code_at(state, "f2") == "Q@0"


def king_in_a_corner(to_move: tuple[str, str], **options: object) -> GladiatorChessState:
    """The white King on a1 is in check from the black warrior on a5; a2, b1 and b2
    are covered (a5, and the warrior on b8). Only the white warrior on h3 can help,
    by blocking on a3; it answers to the Queen, not to the King."""
    return position(
        {"a1": "K", "k1": "KK", "l1": "Q", "h3": "W", "a5": "w", "b8": "w"}
        | {"f10": "k", "c10": "kk", "l10": "q"},
        to_move=to_move,
        **options,
    )


def test_r28_king_6_king_8_in_his_own_slot_only_his_own_pieces_may_answer_check() -> None:
    """In the King's own slot none of his pieces can answer the check, and he may not
    move another commander's piece (King 8): checkmate. In the Queen's slot her
    commander blocks with the warrior on a3 after 'let queen'."""
    state = king_in_a_corner((WHITE, "king"))
    outcome = state.outcome()
    assert outcome is not None and outcome.team == "black" and outcome.reason == "checkmate"
    state = king_in_a_corner((WHITE, "queen"))
    act(state, "let queen")
    assert legal(state) == ["queen: W h3-a3"]


def test_r28_option_king_slot_moves_any_answers_check_with_any_piece() -> None:
    """Under ``king_slot_moves_any`` (before version 3) the King answers in his own
    slot with the Queen's warrior (General 7: the team still makes its move); with
    the warrior gone it is checkmate in either slot."""
    state = king_in_a_corner((WHITE, "king"), king_slot_moves_any=True)
    assert legal(state) == ["king: W h3-a3"]
    act(state, "king: W h3-a3")
    assert not state.pos.in_check("white") and not state.is_over
    for slot in ((WHITE, "king"), (WHITE, "queen")):
        mate = position(
            {"a1": "K", "k1": "KK", "l1": "Q", "a5": "w", "b8": "w"}
            | {"f10": "k", "c10": "kk", "l10": "q"},
            to_move=slot,
            king_slot_moves_any=True,
        )
        outcome = mate.outcome()
        assert outcome is not None and outcome.team == "black" and outcome.reason == "checkmate"


def queen_on_h5_before_a_black_knight(blocker: dict[str, str]) -> GladiatorChessState:
    """The white Black Knight on g3 may take the black Queen on h5 at its slot; the
    two Kings face each other down the open f-file unless ``blocker`` stands on it."""
    state = position(
        {"f1": "K", "c1": "KK", "l1": "Q", "f10": "k", "c10": "kk", "g3": "BK", "h5": "q"}
        | blocker,
        to_move=(WHITE, "black-knight"),
    )
    act(state, "let black-knight")
    return state


def test_r30_r8_taking_the_queen_is_refused_when_her_king_would_then_check_ours() -> None:
    """Taken captive, the black Queen would turn her King into a queen-mover (King
    11.1) who reaches f1 down the open file: the capture would leave the white King in
    check, so it is refused (R8). A white warrior on f5 closes the file: then the
    knight takes her."""
    state = queen_on_h5_before_a_black_knight({})
    assert "h5" not in targets(state, "g3") and "e4" in targets(state, "g3")
    with pytest.raises(IllegalAction, match="would leave its King in check"):
        state.act("white-black-knight", "black-knight: BK g3xh5")
    state = queen_on_h5_before_a_black_knight({"f5": "W"})
    events = act(state, "black-knight: BK g3xh5", dice=[])
    assert "the white Black Knight takes the black Queen captive on h5" in events
