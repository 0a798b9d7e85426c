"""The Marshal bot's judgement in set positions, the terminal picture and the move
notation (docs/rules/gladiator-chess.md, "Notation")."""

from __future__ import annotations

from gc_helpers import GAME, act, position, with_royals

from gladiatorium.core import GladiatoriumError, Observation, Rng
from gladiatorium.core.errors import IllegalAction
from gladiatorium.games.gladiator_chess.actions import Let, Move
from gladiatorium.games.gladiator_chess.board import parse_square
from gladiatorium.games.gladiator_chess.bots import Marshal

ROYALS = {"f1": "K", "c1": "KK", "l1": "Q", "f10": "k", "c10": "kk"}


def choice(state: object, seed: int = 1) -> str:
    seat = state.awaiting()[0]  # type: ignore[attr-defined]
    return str(Marshal(Rng(seed)).choose(Observation.of(state, seat)))  # type: ignore[arg-type]


def test_bot_r24_black_knight_3_overrides_to_take_the_enemy_queen() -> None:
    """At the Queen's slot the King overrides so the Black Knight takes the black
    Queen at once (a footman on f5 keeps the f-file shut once her King turns queen)."""
    state = position(
        {**ROYALS, "e3": "BK", "d5": "q", "a1": "W", "a2": "F", "f5": "F"},
        to_move=("white", "queen"),
    )
    assert {choice(state, seed) for seed in range(3)} == {"king overrides queen: BK e3xd5"}


def test_bot_attacks_with_good_odds_and_avoids_bad_fights() -> None:
    """The warrior on e4 may attack a footman (e5) or a Black Knight (d4); the Queen
    is boxed in by squires. The bot takes the footman."""
    state = position(
        {
            **ROYALS,
            "e4": "W",
            "e5": "f",
            "d4": "bk",
            "k1": "SQ",
            "k2": "SQ",
            "l2": "SQ",
            "l10": "q",
        },
        to_move=("white", "queen"),
    )
    act(state, "let queen")
    assert choice(state) == "queen: W e4xe5"


def test_bot_is_deterministic_for_a_seed_and_plays_a_whole_game() -> None:
    def play(seed: int) -> list[str]:
        state = GAME.start(None, None, seed)
        bot = Marshal(Rng(seed))
        while not state.is_over:
            seat = state.awaiting()[0]
            state.apply(seat, bot.choose(Observation.of(state, seat)))
        return [str(a) for _, a in state.history]

    first = play(4)
    assert first == play(4) and len(first) > 8


def test_render_r29_shows_hit_points_frozen_captives_and_whose_command() -> None:
    state = with_royals(
        {"e4": "W@3", "h8": "s", "e5": "f"}, to_move=("white", "queen"), captive={"white": "h8"}
    )
    text = GAME.terminal.render(state, None)
    assert "W3" in text and "s12" in text and "K30" in text
    assert "captive: the white Queen, held by the S on h8 for 0 turn(s)" in text
    assert "white King: exposed (can be attacked)" in text
    assert "turn 1/100: white queen's move; the white King may override it first" in text
    act(state, "let queen")
    act(state, "queen: W e4xe5", dice=[6, 6, 6, 1])
    text = GAME.terminal.render(state, "black-king")
    assert "last combat: white Warrior attacks black Footman: 6+6+6=18 against 1=1" in text


def test_render_r29_marks_a_queen_holding_a_frozen_piece() -> None:
    layout = {**ROYALS, "e5": "w", "e3": "Q", "l10": "q"}
    del layout["l1"]
    state = position(layout, to_move=("white", "queen"))
    act(state, "let queen")
    act(state, "queen: Q e3xe5", dice=[])
    text = GAME.terminal.render(state, None)
    assert "Q~" in text
    assert "frozen under the white Queen on e5: black W (6 hp)" in text


def test_notation_round_trips_and_names_commander_piece_squares_override() -> None:
    state = GAME.start(None, None, 0)
    act(state, "king: F a2-a4")
    act(state, "king: F a9-a7")
    for action in state.legal_actions("white-king"):
        assert state.parse("white-king", str(action)) == action
        assert GAME.action_from_json(action.to_json()) == action
    move = Move("queen", "BK", "e1", "d3", override="queen")
    assert str(move) == "king overrides queen: BK e1-d3"
    assert str(Move("kings-knight", "SQ", "b9", "c10", takes=True, promote="C")) == (
        "kings-knight: SQ b9xc10=C"
    )
    assert str(Let("queen")) == "let queen"
    assert state.parse("white-king", "  KING OVERRIDES QUEEN:  bk e1-d3 ") == Move(
        "king", "BK", "e1", "d3", override="queen"
    )


def test_illegal_moves_get_a_clear_message() -> None:
    state = GAME.start(None, None, 0)
    act(state, "king: F a2-a4")
    act(state, "king: F a9-a7")
    try:
        state.apply("white-king", Move("queen", "W", "a1", "a5"))
    except IllegalAction as err:
        assert "the white King decides first: 'let queen' or 'king overrides queen: " in str(err)
    else:
        raise AssertionError("an illegal move was accepted")
    assert (
        "commander" in GAME.terminal.notation_help()
        or "white-king" in GAME.terminal.notation_help()
    )


def test_render_general_7_says_when_the_king_must_override() -> None:
    """The white Black Knight's commander has no piece left: the picture tells the
    King's seat that he must override, and 'let' is not offered."""
    state = with_royals({"a2": "F"}, to_move=("white", "black-knight"))
    text = GAME.terminal.render(state, "white-king")
    assert "the black-knight has no move, so the white King must override it" in text
    assert state.view(None)["override_forced"] is True
    assert "let black-knight" not in [str(a) for a in state.legal_actions("white-king")]


def test_champion_3_r24_the_bot_takes_its_queen_out_of_reach_of_queen_takers() -> None:
    """Advice turned into play (R24): the black scout on h8 and Black Knight on d7
    both reach the white Queen on e5. Whatever the seed, after the white Queen's
    slot no black Black Knight, scout or King can take her next."""
    for seed in range(4):
        layout = {"f1": "K", "c1": "KK", "e5": "Q", "h1": "C", "a1": "W"}
        layout |= {"f10": "k", "c10": "kk", "l10": "q", "h8": "s", "d7": "bk"}
        state = position(layout, to_move=("white", "queen"))
        threats = state.pos.reachers(state.pos.board, parse_square("e5"), "black", False)
        assert {p.kind for p in threats} == {"S", "BK"}
        while state.team_to_move == "white" and state.commander_to_move == "queen":
            seat = state.awaiting()[0]
            state.apply(seat, Marshal(Rng(seed)).choose(Observation.of(state, seat)))
        queen = state.pos.royal("white", "Q")
        takers = [
            p.kind
            for p in state.pos.reachers(state.pos.board, queen.sq, "black", False)
            if p.kind in {"BK", "S"}
        ]
        assert takers == [], (seed, queen.sq)


def test_look_general_9_shows_a_piece_its_moves_and_the_odds_of_each_fight() -> None:
    """The warrior on e4 rolls 2d6 + 1d6 against the footman's 1d6; counted here over
    all 6^4 rolls: it kills (wins by 4 or more) in 1090 of 1296, about 84%; a
    footman cannot fell a 6-hit-point warrior in one roll (5 at most)."""
    state = with_royals({"e4": "W", "e5": "f"}, to_move=("white", "queen"))
    rolls = [(a, b, c) for a in range(1, 7) for b in range(1, 7) for c in range(1, 7)]
    kills = sum(1 for a, b, c in rolls for d in range(1, 7) if a + b + c - d >= 4)
    assert kills == 1090
    text = GAME.terminal.look(state, "white-queen", "e4")
    assert text.startswith("e4: the white Warrior, 6/6 hit points, 2d6 (+1d6 attacking)")
    expected = f"e5 (attack the Footman, 4 hp: one roll kills it {kills / 1296:.0%}"
    assert expected in text and "fells the attacker 0%" in text
    assert GAME.terminal.look(state, None, "d6") == "d6 is empty"
    try:
        GAME.terminal.look(state, None, "m3")
    except GladiatoriumError as err:
        assert "no square 'm3'" in str(err)
    else:
        raise AssertionError("a bad square was accepted")


def test_look_queen_2_shows_the_piece_frozen_under_a_queen() -> None:
    layout = {**ROYALS, "e5": "w", "e3": "Q", "l10": "q"}
    del layout["l1"]
    state = position(layout, to_move=("white", "queen"))
    act(state, "let queen")
    act(state, "queen: Q e3xe5", dice=[])
    text = GAME.terminal.look(state, None, "e5")
    assert "holding frozen: the black Warrior (6/6 hit points)" in text
    assert "it may not move again this turn (General 6)" in text
