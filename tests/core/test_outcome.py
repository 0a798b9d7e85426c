"""Outcomes: a win, a draw, and a match that every seat lost, counted apart in the lab."""

import pytest

from gladiatorium.core import Outcome
from gladiatorium.core.batches import GameResult, Summary


def test_win_draw_and_all_lost_are_told_apart() -> None:
    won = Outcome.win(["1"], "most points", scores={"1": 5})
    drawn = Outcome.drawn("turn limit")
    lost = Outcome.all_lost("short of the target", scores={"1": 40})
    assert (won.draw, won.lost, won.winners) == (False, False, ("1",))
    assert (drawn.draw, drawn.lost) == (True, False)
    assert (lost.draw, lost.lost, lost.winners) == (False, True, ())
    assert lost.to_json() == {
        "winners": [],
        "team": None,
        "draw": False,
        "lost": True,
        "reason": "short of the target",
        "scores": {"1": 40},
    }


def test_a_win_needs_a_winner() -> None:
    with pytest.raises(ValueError, match="at least one"):
        Outcome.win([], "nobody")


def test_summary_counts_draws_and_all_lost_apart() -> None:
    summary = Summary()
    summary.add(GameResult(0, ("1",), None, 10, None))
    summary.add(GameResult(1, (), None, 20, None))
    summary.add(GameResult(2, (), None, 30, None, all_lost=True))
    assert (summary.games, summary.draws, summary.all_lost) == (3, 1, 1)
    assert summary.wins["1"] == 1 and summary.mean_length == 20
