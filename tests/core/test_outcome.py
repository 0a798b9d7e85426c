"""Outcomes: a win, a draw, and a match that every seat lost, counted apart in the lab;
the typed reason of each, and its words."""

import json

import pytest

from contract import play_random
from gladiatorium.core import Ending, Outcome, Reason, Termination, games
from gladiatorium.core.batches import GameResult, Summary
from gladiatorium.core.jobs import Job, play
from gladiatorium.core.outcome import side_places

MOST_POINTS = Ending(Termination.SCORE, "most points ({points})")
TURN_LIMIT = Ending(Termination.TURN_LIMIT, "turn limit of {limit} reached")
SHORT = Ending(Termination.TARGET, "short of the target")


def test_win_draw_and_all_lost_are_told_apart() -> None:
    won = Outcome.win(["1"], MOST_POINTS(points=5), scores={"1": 5})
    drawn = Outcome.drawn(TURN_LIMIT(limit=3))
    lost = Outcome.all_lost(SHORT(), scores={"1": 40})
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
        Outcome.win([], SHORT())


def test_summary_counts_draws_and_all_lost_apart() -> None:
    summary = Summary()
    summary.add(GameResult(0, ("1",), None, 10, None))
    summary.add(GameResult(1, (), None, 20, None))
    summary.add(GameResult(2, (), None, 30, None, all_lost=True))
    assert (summary.games, summary.draws, summary.all_lost) == (3, 1, 1)
    assert summary.wins["1"] == 1 and summary.mean_length == 20


def test_the_words_are_made_from_the_ending_and_the_values_kept() -> None:
    why = TURN_LIMIT(limit=40)
    assert (why.text, str(why), why.termination) == (
        "turn limit of 40 reached",
        "turn limit of 40 reached",
        Termination.TURN_LIMIT,
    )
    assert (why.value("limit"), why.value("turn")) == (40, None)
    outcome = Outcome.drawn(why)
    assert (outcome.reason, outcome.termination) == (
        "turn limit of 40 reached",
        Termination.TURN_LIMIT,
    )
    assert Reason.from_json(json.loads(json.dumps(why.to_json()))) == why


def test_an_outcome_shows_its_reason_in_words() -> None:
    assert repr(Outcome.win(["1"], MOST_POINTS(points=5), team="a")) == (
        "Outcome(winners=('1',), reason='most points (5)', team='a', scores=(), lost=False)"
    )


def test_every_game_ends_with_a_typed_reason_whose_words_are_its_reason() -> None:
    for game in games():
        outcome = play_random(game, 3).outcome()
        assert outcome is not None
        assert isinstance(outcome.termination, Termination)
        assert outcome.to_json()["reason"] == outcome.why.text != ""


def test_a_game_result_keeps_the_typed_reason_through_its_results_line() -> None:
    job = Job(0, "superhero-gladiators", {}, 2, 5, {"1": "random", "2": "random"})
    result = play(job)
    assert result.why is not None and result.why.text == result.reason
    turn = result.why.value("turn")
    assert isinstance(turn, int) and turn >= 1
    again = GameResult.from_json(json.loads(json.dumps(result.to_json())))
    assert again.why == result.why
    old = {k: v for k, v in result.to_json().items() if k != "why"}  # written without it
    assert GameResult.from_json(old).why is None


def test_side_places_rank_winners_then_scores_and_share_ties() -> None:
    sides = [("1",), ("2",), ("3",), ("4",)]
    assert side_places(["2"], {"1": 5.0, "2": 1.0, "3": 5.0, "4": 9.0}, sides) == [3, 1, 3, 2]
    assert side_places([], {"1": 5.0, "2": 1.0}, sides) == [1, 1, 1, 1]  # a draw: level
    teams = [("a1", "a2"), ("b1", "b2")]
    assert side_places(["b2"], {}, teams) == [2, 1]


def test_hero_battle_places_players_by_order_of_death() -> None:
    from gladiatorium.core import get_game

    game = get_game("hero-battle")
    for seed in range(4):
        state = play_random(game, seed)
        places = {side[0]: place for side, place in game.places(state)}
        assert set(places) == set(state.player_seats)  # type: ignore[attr-defined]
        out = {}
        for report in state.reports:  # type: ignore[attr-defined]
            for death in report["deaths"]:
                out[death["player"]] = report["round"]
        for seat in state.outcome().winners:  # type: ignore[union-attr]
            assert places[seat] == 1
        dead = [s for s in out if s not in state.outcome().winners]  # type: ignore[union-attr]
        for one in dead:
            for two in dead:
                if out[one] > out[two]:  # died later: placed better
                    assert places[one] < places[two], (seed, places, out)
                elif out[one] == out[two]:
                    assert places[one] == places[two]
