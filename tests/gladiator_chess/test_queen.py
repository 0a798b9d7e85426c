"""The Queen: Queen 1-13 (freezing, who may take her, captivity and the three ways
back, the swap, her return beside her King, the frozen piece when she is taken, the
bonus die against a frozen piece, her command and her healing) with forced dice."""

from __future__ import annotations

from gc_helpers import act, code_at, legal, next_turn_at, position, targets

from gladiatorium.games.gladiator_chess import GladiatorChessState
from gladiatorium.games.gladiator_chess.pieces import WHITE

#: both Kings and King's Knights; the white Queen is placed by each test
BASE = {"f1": "K", "c1": "KK", "f10": "k", "c10": "kk", "l10": "q"}


def queen_holding_black_knight(**options: object) -> GladiatorChessState:
    """The white Queen has just frozen the black Black Knight on e7; it is the white
    Queen's slot of the next turn, so she (or her warriors) may move again."""
    state = position(
        {**BASE, "e4": "Q", "e7": "bk", "c5": "s", "e2": "W", "f9": "f"},
        to_move=("white", "queen"),
        **options,
    )
    act(state, "let queen")
    act(state, "queen: Q e4xe7", dice=[])
    return next_turn_at(state, (WHITE, "queen"))


def test_queen_2_3_she_freezes_a_piece_onto_the_tally_and_releases_it_on_leaving() -> None:
    state = queen_holding_black_knight()
    assert state.view(None)["frozen"] == {
        "white": {"square": "e7", "piece": "BK", "team": "black", "hp": 20}
    }
    assert code_at(state, "e7") == "Q@0"
    act(state, "let queen")
    events = act(state, "queen: Q e7-h7", dice=[])
    assert "the black Black Knight is released on e7" in events
    assert code_at(state, "e7") == "bk@20" and state.view(None)["frozen"] == {}


def test_queen_2_a_frozen_commander_still_commands_his_minions() -> None:
    """The black Black Knight is frozen; his seat still moves the black scout."""
    state = position({**BASE, "e4": "Q", "e7": "bk", "a7": "s"}, to_move=("white", "queen"))
    act(state, "let queen")
    act(state, "queen: Q e4xe7", dice=[])
    act(state, "let queen")
    act(state, "queen: Q l10-l9")
    act(state, state.legal_actions(state.awaiting()[0])[0].__str__())  # white BK slot
    assert state.awaiting() == ("black-king",)
    act(state, "let black-knight")
    moves = legal(state)
    assert moves and all(m.startswith("black-knight: S a7-") for m in moves)


def test_queen_3_she_freezes_any_piece_but_a_protected_king() -> None:
    state = position({**BASE, "f5": "Q", "f8": "kk", "c5": "w"}, to_move=("white", "queen"))
    act(state, "let queen")
    reach = targets(state, "f5")
    assert {"f8", "c5", "c8"} <= reach  # King's Knight, warrior, the other knight
    assert "f10" not in reach  # the protected black King behind: blocked, never frozen
    state = position({**BASE, "f8": "Q"}, to_move=("white", "queen"))
    act(state, "let queen")
    assert "f10" not in targets(state, "f8") and "f9" in targets(state, "f8")


def test_queen_4_an_exposed_king_can_be_frozen_and_still_commands() -> None:
    """The black King has lost his King's Knight: the white Queen freezes him; at
    black's next slot he still decides on overrides."""
    state = position(
        {"f1": "K", "c1": "KK", "f8": "Q", "f10": "k", "l10": "q", "a9": "f"},
        to_move=("white", "queen"),
    )
    act(state, "let queen")
    assert "f10" in targets(state, "f8")
    act(state, "queen: Q f8xf10", dice=[])
    assert state.view(None)["frozen"]["white"]["piece"] == "K"
    assert state.awaiting() == ("black-king",)
    assert "let queen" in legal(state)
    assert "king overrides queen: F a9-a8" in legal(state)


def test_queen_5_r13_only_black_knight_scout_or_exposed_king_take_her_without_dice() -> None:
    """A black warrior may not enter the white Queen's square; the scout and the
    Black Knight may, and taking her rolls no dice (R13)."""
    state = position(
        {**BASE, "e5": "Q", "e8": "w", "c3": "s", "d7": "bk", "g6": "mk"},
        to_move=("black", "queen"),
    )
    act(state, "let queen")
    assert "e5" not in targets(state, "e8")  # a warrior cannot
    act(state, "queen: W e8-e7")
    act(state, state.legal_actions(state.awaiting()[0])[0].__str__())  # white BK slot
    act(state, "let black-knight")
    assert {"e5"} <= targets(state, "c3") and "e5" in targets(state, "d7")
    events = act(state, "black-knight: S c3xe5", dice=[])
    assert "the black Scout takes the white Queen captive on e5" in events
    assert code_at(state, "e5") == "s@12"
    assert state.view(None)["captive_queens"]["white"] == {
        "captor": "S",
        "square": "e5",
        "held_turns": 0,
    }


def test_queen_5_a_protected_king_cannot_take_her_an_exposed_one_can() -> None:
    state = position(
        {"f1": "K", "c1": "KK", "c10": "kk", "g2": "Q", "f3": "k", "l9": "q"},
        to_move=("black", "king"),
    )
    assert "g2" not in targets(state, "f3")
    state = position(
        {"f1": "K", "c1": "KK", "g2": "Q", "f3": "k", "l9": "q"}, to_move=("black", "king")
    )
    assert "g2" in targets(state, "f3")
    act(state, "king: K f3xg2", dice=[])
    assert state.pos.queen_captive("white")


def test_queen_6_r14_held_for_five_turns_the_captors_win() -> None:
    """Taken on turn 1 and still held when turn 6 ends: Black wins; at the end of
    turn 5 the game goes on."""
    for turn, over in ((5, False), (6, True)):
        state = position(
            {**BASE, "l1": "Q", "h8": "s", "a9": "sq", "f9": "f"},
            to_move=("black", "kings-knight"),
            turn=turn,
            captive={"white": "h8 1"},
        )
        if "let kings-knight" in legal(state):
            act(state, "let kings-knight")
        act(state, "kings-knight: SQ a9-a8")
        outcome = state.outcome()
        assert (outcome is not None) is over
        if outcome is not None:
            assert outcome.team == "black" and outcome.reason == "queen-held"
        else:
            assert state.turn == turn + 1


def test_queen_7_1_8_r11_scout_4_killing_the_abductor_frees_her_beside_her_king() -> None:
    """A white warrior (2d6 + 1d6 = 18) kills the scout holding the Queen (3d6 = 3,
    15 damage against 12 hit points): she returns beside her King on f1, on e1
    (Queen 8, R11: an empty neighbour on her home rank, nearest file, then file a)."""
    state = position(
        {**BASE, "l1": "Q", "h5": "s", "h2": "W"},
        to_move=("white", "queen"),
        captive={"white": "h5"},
    )
    moves = legal(state)
    assert "king overrides queen: W h2xh5" in moves
    events = act(state, "king overrides queen: W h2xh5", dice=[6, 6, 6, 1, 1, 1])
    assert code_at(state, "h5") == "W@6" and not state.pos.queen_captive("white")
    assert "the white Queen returns to e1" in events
    assert code_at(state, "e1") == "Q@0"


def test_queen_7_2_taking_the_enemy_queen_swaps_the_queens() -> None:
    """Black holds the white Queen with a scout on h8; the white Black Knight takes
    the black Queen on k8: both queens go back beside their Kings (Queen 8)."""
    layout = {**BASE, "l1": "Q", "h8": "s", "k8": "q", "j6": "BK"}
    del layout["l10"]
    state = position(layout, to_move=("white", "black-knight"), captive={"white": "h8"})
    if "let black-knight" in legal(state):
        act(state, "let black-knight")
    events = act(state, "black-knight: BK j6xk8", dice=[])
    assert "the queens are swapped" in events
    assert not state.pos.queen_captive("white") and not state.pos.queen_captive("black")
    assert code_at(state, "k8") == "BK@20" and code_at(state, "h8") == "s@12"
    assert code_at(state, "e1") == "Q@0" and code_at(state, "e10") == "q@0"


def test_queen_7_3_killing_the_king_ends_the_game_while_she_is_held() -> None:
    """White's Queen is captive; White kills the exposed black King: White wins."""
    state = position(
        {"f1": "K", "c1": "KK", "l1": "Q", "h8": "s", "f10": "k@1", "l10": "q", "e8": "BK"},
        to_move=("white", "black-knight"),
        captive={"white": "h8"},
    )
    if "let black-knight" in legal(state):
        act(state, "let black-knight")
    act(state, "black-knight: BK e8xf10", dice=[6, 6, 6, 6, 6, 1, 1, 1, 1, 1])
    outcome = state.outcome()
    assert outcome is not None and outcome.team == "white" and outcome.reason == "king-killed"


def test_queen_9_r25_taken_while_freezing_the_frozen_piece_goes_to_its_back_row() -> None:
    """The black scout takes the white Queen standing on the frozen Black Knight
    (e7): the scout stays on e7, the knight goes to e10, its own back row. (The
    black footman on f9 shields its King from the white King, who moves as a queen
    once his Queen is taken.)"""
    state = queen_holding_black_knight()
    act(state, "let queen")
    act(state, "queen: W e2-e3")
    act(state, "let queen")
    act(state, "queen: Q l10-l9")
    act(state, "king overrides black-knight: KK c1-d3")
    act(state, "let black-knight")
    events = act(state, "black-knight: S c5xe7", dice=[])
    assert "the black Black Knight goes back to e10" in events
    assert code_at(state, "e7") == "s@12" and code_at(state, "e10") == "bk@20"
    assert state.view(None)["frozen"] == {} and state.pos.queen_captive("white")


def frozen_fight(dice: list[int]) -> tuple[GladiatorChessState, list[str]]:
    """The white warrior on e2 attacks the Black Knight frozen under its Queen on e7."""
    state = queen_holding_black_knight()
    act(state, "let queen")
    return state, act(state, "queen: W e2xe7", dice=dice)


def test_queen_10_a_bonus_die_against_the_piece_she_froze() -> None:
    """The warrior rolls 2d6 + 1d6 + 1d6 (four dice, all used) against 4d6."""
    _, events = frozen_fight([6, 6, 6, 6, 1, 1, 1, 1])
    assert any("6+6+6+6=24 against 1+1+1+1=4" in e for e in events)


def test_queen_11_the_victor_holds_the_square_and_the_queen_goes_to_her_king() -> None:
    """24 against 4 kills the frozen knight: the warrior stands on e7, the Queen
    returns beside her King (e1)."""
    state, events = frozen_fight([6, 6, 6, 6, 1, 1, 1, 1])
    assert code_at(state, "e7") == "W@6" and code_at(state, "e1") == "Q@0"
    assert "the white Queen returns to e1" in events


def test_queen_11_the_frozen_piece_wins_and_holds_the_square() -> None:
    """4 against 24: the warrior falls, the Black Knight is released on e7."""
    state, events = frozen_fight([1, 1, 1, 1, 6, 6, 6, 6])
    assert "the black Black Knight holds e7" in events
    assert code_at(state, "e7") == "bk@20" and code_at(state, "e2") == "."
    assert code_at(state, "e1") == "Q@0"


def test_queen_11_and_r23_a_surviving_loser_leaves_the_freeze_in_place() -> None:
    """12 against 4 takes 8 of the knight's 20: it stays frozen under the Queen."""
    state, _ = frozen_fight([3, 3, 3, 3, 1, 1, 1, 1])
    assert code_at(state, "e7") == "Q@0"
    assert state.view(None)["frozen"]["white"]["hp"] == 12


def test_queen_12_she_commands_herself_her_champion_and_her_warriors() -> None:
    state = position(
        {**BASE, "l1": "Q", "h1": "C", "a1": "W", "a2": "F", "d2": "SQ", "e3": "S", "j1": "MK"},
        to_move=("white", "queen"),
    )
    act(state, "let queen")
    assert {m.split()[1] for m in legal(state)} == {"Q", "C", "W"}


def test_queen_13_r7_she_heals_adjacent_friends_at_the_start_of_her_slot() -> None:
    """Fully by default: the warrior beside her goes 2 -> 6, the King's Knight 5 ->
    20; a warrior two squares away stays at 2. With queen_heal_amount=3: 2 -> 5."""
    layout = {**BASE, "e4": "Q", "e5": "W@2", "d3": "KK@5", "e6": "W@2"}
    layout.pop("c1")
    state = position(layout, to_move=("white", "queen"))
    assert [code_at(state, s) for s in ("e5", "d3", "e6")] == ["W@6", "KK@20", "W@2"]
    state = position(layout, to_move=("white", "queen"), queen_heal_amount=3)
    assert [code_at(state, s) for s in ("e5", "d3", "e6")] == ["W@5", "KK@8", "W@2"]
    state = position(layout, to_move=("white", "king"))
    assert code_at(state, "e5") == "W@2"  # only at her slot
