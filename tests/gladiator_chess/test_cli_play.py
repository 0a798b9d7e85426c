"""`gladiatorium play gladiator-chess` driven as a user would (issue 4): any mix of
people and bots at the eight commander seats, one person holding several."""

from __future__ import annotations

from gc_helpers import GAME
from typer.testing import CliRunner

from gladiatorium.cli.main import app
from gladiatorium.core import Observation, Rng
from gladiatorium.games.gladiator_chess.bots import Marshal
from gladiatorium.games.gladiator_chess.pieces import SEATS

runner = CliRunner()


def test_a_human_king_overrides_and_lets_against_bots_for_a_whole_turn() -> None:
    """The white King's seat is a person, black's Queen a named bot, every other seat
    the best bot. The person moves a footman, overrides the Queen to move another,
    lets the two knights' commanders move; the one-turn game ends in a draw."""
    args = ["play", "gladiator-chess", "--seat", "white-king=human", "--seat", "black-queen=bot"]
    typed = "king: F a2-a4\nking overrides queen: F c2-c4\nlet black-knight\nlet kings-knight\n"
    result = runner.invoke(app, [*args, "--option", "turn_limit=1"], input=typed)
    assert result.exit_code == 0, result.output
    assert "white King overrides the queen's move" in result.output
    assert "white King lets the black-knight move" in result.output
    assert "turn 1/1: white queen's move; the white King may override it first" in result.output
    assert "Draw: turn limit of 1 reached" in result.output


def test_one_person_at_all_eight_seats_plays_a_game_to_its_end() -> None:
    """Hot seat: every commander is held by people at one terminal. The moves typed
    are a Marshal's for the same seed, so the dice (and fights) are the same."""
    state = GAME.start({"turn_limit": 3}, None, 0)
    bot = Marshal(Rng(7))
    typed = []
    while not state.is_over:
        seat = state.awaiting()[0]
        action = bot.choose(Observation.of(state, seat))
        typed.append(str(action))
        state.apply(seat, action)
    args = ["play", "gladiator-chess", "--option", "turn_limit=3"]
    for seat in SEATS:
        args += ["--seat", f"{seat}=human"]
    result = runner.invoke(app, args, input="\n".join(typed) + "\n")
    assert result.exit_code == 0, result.output
    assert "is not a legal" not in result.output
    for seat in SEATS:
        assert f"seat {seat} (others look away)" in result.output
    outcome = state.outcome()
    assert outcome is not None and outcome.reason in result.output


def test_a_mistyped_move_is_explained_and_the_person_tries_again() -> None:
    args = ["play", "gladiator-chess", "--seat", "white-king=human", "--option", "turn_limit=1"]
    typed = "king: F a2-a5\nking: F a2-a4\nquit\n"
    result = runner.invoke(app, args, input=typed)
    assert result.exit_code == 0, result.output
    assert "the Footman on a2 cannot go to a5; it can go to a3, a4" in result.output
    assert "white king: F a2-a4" in result.output
