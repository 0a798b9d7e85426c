"""Per-game terminal items of issue 18, through the real command."""

from __future__ import annotations

import io

from rich.console import Console
from typer.testing import CliRunner

from gladiatorium.cli.main import app
from gladiatorium.cli.terminal import HumanSeat
from gladiatorium.core import get_game
from gladiatorium.games.gladiator_chess.warnings import warnings_of

runner = CliRunner()


def test_gladiator_chess_enter_lets_and_king_moves_need_no_prefix() -> None:
    result = runner.invoke(
        app, ["play", "gladiator-chess", "--seed", "1"], input="F a2-a3\n\nboard\nquit\n"
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "white king: F a2-a3" in out  # typed without 'king:'
    assert "white King lets the queen move" in out  # Enter at the queen's slot
    assert "is not a legal action" not in out


def test_gladiator_chess_warns_of_check_and_the_queen_countdown() -> None:
    view = {
        "in_check": {"white": True, "black": False},
        "captive_queens": {"black": {"captor": "KK", "square": "e5", "held_turns": 3}},
    }
    assert warnings_of(view, 5) == [
        "white King in check",
        "the black Queen is held by the KK on e5: 2 turns until her captors win",
    ]
    game = get_game("gladiator-chess")
    state = game.start(None, None, 1)
    assert game.terminal.prompt_text(state, "white-king") == "white-king"


def test_electron_gladiators_prompt_says_whose_turn_and_what_is_left() -> None:
    result = runner.invoke(
        app, ["play", "electron-gladiators", "--seed", "1"], input="C1 fwd 1\nquit\n"
    )
    out = " ".join(result.output.split())
    assert "1 turn 1: attack open>" in out
    assert "1 turn 1: C2 3 points left, attack open>" in out


def test_the_board_is_redrawn_only_when_it_changed() -> None:
    game = get_game("pig")
    state = game.start(None, None, 1)
    out = io.StringIO()
    person = HumanSeat(game, Console(file=out, width=80), hot_seat=False)
    person._show(state, "1")
    person._show(state, "1")
    assert out.getvalue().count("╭") == 1
    assert "board unchanged; 'board' shows it" in out.getvalue()
    result = runner.invoke(app, ["play", "pig", "--seed", "1"], input="board\nquit\n")
    assert result.output.count("banked") == 2  # 'board' draws it again


def test_superhero_gladiators_look_gives_the_chance_to_hit_and_double() -> None:
    from fractions import Fraction

    from gladiatorium.games.superhero_gladiators.odds import chances

    assert chances(19) == (Fraction(19, 20), Fraction(9, 20))
    assert chances(25) == (Fraction(19, 20), Fraction(15, 20))  # a 20 always misses
    assert chances(0) == (Fraction(1, 20), 0)  # a 1 always hits
    result = runner.invoke(
        app, ["play", "superhero-gladiators", "--seed", "1"], input="look 2A\nquit\n"
    )
    out = " ".join(result.output.split())
    assert "1A Cowboy attacking 2A: hits on a d20 of 19 or less (95%)" in out
    assert "doubles the damage on 9 or less (45%)" in out


def test_a_legend_under_the_board() -> None:
    eg = runner.invoke(app, ["play", "electron-gladiators", "--seed", "1"], input="quit\n")
    assert "X a 3D obstacle" in " ".join(eg.output.split())
    gc = runner.invoke(app, ["play", "gladiator-chess", "--seed", "1"], input="quit\n")
    assert "MK Mounted Knight" in " ".join(gc.output.split())


def test_super_dice_heroes_ends_with_honor_by_location() -> None:
    # house rules: dice may be left unspent, and a solo game short of 80 honor is lost
    house = {"may_waste_dice": True, "solo_target": 80}
    choose = str(get_game("super-dice-heroes").start(house, 1, 3).legal_actions("1")[0])
    typed = f"{choose}\n" + "done\n" * 12
    args = ["play", "super-dice-heroes", "--players", "1", "--seed", "3"]
    args += ["-o", "may_waste_dice=true", "-o", "solo_target=80"]
    result = runner.invoke(app, args, input=typed)
    out = " ".join(result.output.split())
    assert "final board, seat 1" in out
    assert "You lose: 0 honor" in out
    assert "Your honor, 0, by location: City Hall 0, Hospital 0" in out


def test_a_roll_line_never_claims_a_20_can_hit() -> None:
    from gladiatorium.games.superhero_gladiators.combat import to_hit_text

    assert (
        to_hit_text(20, 25) == "d20 = 20, needs 19 or less (15 or less doubles) (20 always misses)"
    )
    assert to_hit_text(5, 35).startswith("d20 = 5, needs 19 or less (19 or less doubles)")
