"""A game that names no presenter plays everywhere but the web: in ``run_match``, a lab
tournament and at the terminal, through the generic presenters."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from bare_game import BarePig, bare_game
from gladiatorium.cli.main import app
from gladiatorium.core import TerminalPresenter, WebPresenter, get_game
from gladiatorium.core.match import make_bots, run_match
from gladiatorium.lab.tournament import Tournament, run_tournament

__all__ = ["bare_game"]

runner = CliRunner()


def test_a_game_without_presenters_gets_the_generic_ones(bare_game: BarePig) -> None:
    assert type(bare_game.terminal) is TerminalPresenter
    assert type(bare_game.web) is WebPresenter
    assert bare_game.terminal.game is bare_game and bare_game.web.game is bare_game


def test_run_match_plays_it_as_the_game_with_presenters(bare_game: BarePig) -> None:
    """The presenters take no part in play: the same seed and bots, the same match."""
    played = []
    for game in (bare_game, get_game("pig")):
        state = game.start(None, 2, seed=11)
        run_match(state, make_bots(game, 11, {"1": "mcts", "2": "random"}), game=game)
        played.append([(seat, str(action)) for seat, action in state.history])
        outcome = state.outcome()
        assert outcome is not None and outcome.reason == "reached the target"
    assert played[0] == played[1] and len(played[0]) > 10


def test_a_lab_tournament_plays_it(bare_game: BarePig) -> None:
    plan = Tournament.plan("bare-pig", ["mcts", "random"], 2, seed=4)
    result = run_tournament(plan).to_json()
    assert result["games"] == 4
    assert sorted(row["bot"] for row in result["ratings"]) == ["mcts", "random"]


def test_it_plays_at_the_terminal(bare_game: BarePig) -> None:
    """``play`` shows the view as JSON, takes actions typed as listed and ends in words."""
    state = bare_game.start(None, 2, seed=2)
    assert bare_game.terminal.render(state, "1") == json.dumps(state.view("1"), indent=2)
    result = runner.invoke(
        app, ["play", "bare-pig", "--seed", "2", "--seat", "2=random"], input="roll\n" * 400
    )
    assert result.exit_code == 0, result.output
    assert '"turn_total": 0,' in result.output
    assert result.output.rstrip().endswith("You lose, seat 2 wins: reached the target")
