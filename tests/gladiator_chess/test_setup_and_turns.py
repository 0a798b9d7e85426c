"""General rules 1-7 and rulings R1-R2: the board, the set-up, the commanders and
their order, overrides, one move per piece per turn."""

from __future__ import annotations

from gc_helpers import GAME, act, legal, position, with_royals

from gladiatorium.games.gladiator_chess.board import file_of, parse_square, rank_of
from gladiatorium.games.gladiator_chess.pieces import SEATS


def codes(state: object, rank: int) -> list[str]:
    from gc_helpers import code_at

    return [code_at(state, f"{f}{rank}").split("@")[0] for f in "abcdefghijkl"]  # type: ignore[arg-type]


def test_general_1_and_r1_board_is_12_files_by_10_ranks_with_symmetric_setup() -> None:
    state = GAME.start(None, None, 0)
    assert codes(state, 1) == ["W", "W", "KK", "S", "BK", "K", "Q", "C", "S", "MK", "W", "W"]
    assert codes(state, 2) == ["F", "SQ"] * 6
    assert codes(state, 10) == [c.lower() for c in codes(state, 1)]
    assert codes(state, 9) == [c.lower() for c in codes(state, 2)]
    assert all(c == "." for r in range(3, 9) for c in codes(state, r))
    for team in ("white", "black"):
        kinds = [p.kind for p in state.pos.pieces if p.team == team]
        assert (kinds.count("W"), kinds.count("S"), kinds.count("F"), kinds.count("SQ")) == (
            4,
            2,
            6,
            6,
        )


def test_scout_1_the_two_scouts_stand_on_different_colours() -> None:
    state = GAME.start(None, None, 0)
    scouts = [p.sq for p in state.pos.pieces if p.team == "white" and p.kind == "S"]
    colours = {(file_of(s) + rank_of(s)) % 2 for s in scouts}
    assert colours == {0, 1}


def test_general_2_eight_commander_seats_two_teams() -> None:
    state = GAME.start(None, None, 0)
    assert state.seats == SEATS
    assert set(SEATS) == {
        f"{t}-{c}"
        for t in ("white", "black")
        for c in ("king", "queen", "black-knight", "kings-knight")
    }
    assert state.awaiting() == ("white-king",)


def play_turn_letting_everyone_move(state: object) -> list[str]:
    """One turn where the Kings never override; returns the seat of each move."""
    movers = []
    for _ in range(20):
        seat = state.awaiting()[0]  # type: ignore[attr-defined]
        actions = [str(a) for a in state.legal_actions(seat)]  # type: ignore[attr-defined]
        let = [a for a in actions if a.startswith("let ")]
        if let:
            state.act(seat, let[0])  # type: ignore[attr-defined]
            continue
        movers.append(seat)
        state.act(seat, actions[0])  # type: ignore[attr-defined]
        if state.turn == 2:  # type: ignore[attr-defined]
            return movers
    raise AssertionError("turn did not end")


def test_general_3_4_and_r2_alternating_order_one_move_per_commander() -> None:
    state = GAME.start(None, None, 0)
    assert play_turn_letting_everyone_move(state) == [
        "white-king",
        "black-king",
        "white-queen",
        "black-queen",
        "white-black-knight",
        "black-black-knight",
        "white-kings-knight",
        "black-kings-knight",
    ]


def test_r2_option_team_blocks_each_team_moves_four_times_in_a_row() -> None:
    state = GAME.start({"order": "team-blocks"}, None, 0)
    assert play_turn_letting_everyone_move(state) == [
        "white-king",
        "white-queen",
        "white-black-knight",
        "white-kings-knight",
        "black-king",
        "black-queen",
        "black-black-knight",
        "black-kings-knight",
    ]


def test_general_5_king_8_king_cannot_override_his_own_move() -> None:
    state = GAME.start(None, None, 0)
    moves = legal(state)
    assert all(m.startswith("king: ") for m in moves)
    assert {m.split()[1] for m in moves} == {"MK", "F"}  # King 4: himself, MK, footmen


def test_perft_initial_position_counts() -> None:
    """Golden move counts: 14 King-commander moves each side; at the white Queen's
    slot after F a2-a4, F a9-a7: 'let queen' plus 31 overrides (W a1 2, MK 2,
    five footmen 10, six squires 12, BK 2, KK 3)."""
    state = GAME.start(None, None, 0)
    assert len(legal(state)) == 14
    act(state, "king: F a2-a4")
    assert len(legal(state)) == 14
    act(state, "king: F a9-a7")
    moves = legal(state)
    assert len(moves) == 32
    assert moves[0] == "let queen"
    act(state, "let queen")
    assert legal(state) == ["queen: W a1-a2", "queen: W a1-a3"]


def perft(state: object, depth: int) -> int:
    if depth == 0:
        return 1
    seat = state.awaiting()[0]  # type: ignore[attr-defined]
    if depth == 1:
        return len(state.legal_actions(seat))  # type: ignore[attr-defined]
    total = 0
    for action in state.legal_actions(seat):  # type: ignore[attr-defined]
        child = state.clone()  # type: ignore[attr-defined]
        child.apply(seat, action)
        total += perft(child, depth - 1)
    return total


def test_perft_depth_two_from_start_and_depth_three_regression() -> None:
    """14 x 14 quiet replies; depth 3 is a regression figure (no combat that early)."""
    state = GAME.start(None, None, 0)
    assert perft(state, 2) == 196
    assert perft(state, 3) == 6142


def test_king_7_9_override_forfeits_the_commanders_move_only() -> None:
    """The King overrides the Queen to move the Black Knight; the Queen loses her
    move, the Black Knight's commander still moves a scout later (King 9), and the
    knight cannot move twice (General 6)."""
    state = GAME.start(None, None, 0)
    act(state, "king: F e2-e4")
    act(state, "king: F a9-a7")
    assert state.awaiting() == ("white-king",)
    events = act(state, "king overrides queen: BK e1-d3")
    assert any("overrides the queen's move" in e for e in events)
    assert state.awaiting() == ("black-king",)  # black's queen slot: her King decides
    act(state, "let queen")
    act(state, "queen: W a10-a9")
    assert state.awaiting() == ("white-king",)
    assert "let black-knight" in legal(state)
    assert not any(" BK d3" in m for m in legal(state))
    act(state, "let black-knight")
    moves = legal(state)
    assert moves and all(m.startswith("black-knight: S ") for m in moves)


def test_general_7_commander_with_no_move_is_overridden() -> None:
    """The white Black Knight and his scouts are gone: at his slot the King must
    override, so the team still makes its move."""
    state = with_royals({"a2": "F"}, to_move=("white", "black-knight"))
    moves = legal(state)
    assert "let black-knight" not in moves
    assert moves and all(m.startswith("king overrides black-knight: ") for m in moves)
    act(state, "king overrides black-knight: F a2-a3")
    assert state.awaiting() == ("black-king",)


def test_r3_slot_passes_when_no_piece_can_move() -> None:
    """Every white piece has moved this turn and none may move again: the slot passes."""
    state = position(
        {"f1": "K", "c1": "KK", "l1": "Q", "f10": "k", "c10": "kk", "l10": "q"},
        to_move=("white", "kings-knight"),
        moved=("f1", "c1", "l1"),
    )
    assert any("has no move; the slot passes" in e.text for e in state.events)
    assert state.awaiting() == ("black-king",)


def test_general_6_override_cannot_move_a_piece_twice() -> None:
    state = with_royals({"a2": "F", "e4": "W"}, to_move=("white", "queen"), moved=("a2",))
    assert not any("a2-" in m for m in legal(state))
    assert any(m.startswith("king overrides queen: W e4-") for m in legal(state))
    assert parse_square("a2") == 12
