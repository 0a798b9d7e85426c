"""The search bot ``mcts``: it plays every game, beats random, and is deterministic for
a seed. Small budgets and short matches; benchmarks/mcts_strength.py measures it."""

from __future__ import annotations

from typing import Any

import pytest

from gladiatorium.bots.mcts import MctsBot, outcome_values
from gladiatorium.core import (
    Ending,
    Observation,
    Outcome,
    Rng,
    Termination,
    derive_seed,
    get_bot,
    get_game,
)
from gladiatorium.core.match import make_bots, run_match

#: short matches of each game, so that whole games against random stay quick
QUICK: dict[str, dict[str, Any]] = {
    "pig": {"target": 30},
    "super-dice-heroes": {"rounds": 3},
    "hero-battle": {"starting_hp": 8},
    "superhero-gladiators": {"map": "small"},
}

#: the default budget in Pig, whose decisions are cheap; more in the Battles of eight
BUDGET = {"pig": "mcts", "hero-battle": "mcts:iterations=24,rollout=6"}


def play(slug: str, seed: int, seat_index: int) -> tuple[bool, list[str]]:
    """One short match of ``mcts`` (small budget) in one seat against random in the rest:
    whether it won, and the actions played."""
    game = get_game(slug)
    options = dict(QUICK[slug])
    if "map" in options:
        options.update(game.terminal.cli_options({"map": [options.pop("map")]}))
    state = game.start(options, None, seed)
    seats = [s for s in state.seats if s != "moderator"]
    me = seats[seat_index % len(seats)]
    mcts = BUDGET.get(slug, "mcts:iterations=8,rollout=6")
    names = {s: mcts if s == me else "random" for s in state.seats}
    run_match(state, make_bots(game, seed, names), game=game)
    outcome = state.outcome()
    assert outcome is not None
    return me in outcome.winners, [f"{s} {a}" for s, a in state.history]


@pytest.mark.parametrize("slug", sorted(QUICK))
def test_mcts_beats_random_in_short_matches(slug: str) -> None:
    won = [play(slug, derive_seed("mcts-test", slug, i), i)[0] for i in range(5)]
    # eight players in a Battle: a seat of random wins one in eight, so two wins in five
    # (three times chance) is the bar there
    assert sum(won) >= (2 if slug == "hero-battle" else 4)


def test_the_same_seed_plays_the_same_match() -> None:
    assert play("pig", 5, 0) == play("pig", 5, 0)


@pytest.mark.parametrize("slug", ["gladiator-chess", "electron-gladiators"])
def test_mcts_chooses_alike_for_a_seed_in_the_long_games(slug: str) -> None:
    game = get_game(slug)
    state = game.start(None, None, 3)
    bots = make_bots(game, 3, dict.fromkeys(state.seats, "random"))
    for _ in range(12):
        seat = state.awaiting()[0]
        state.apply(seat, bots[seat].choose(Observation(game, state, seat)))
    seat = state.awaiting()[0]
    observation = Observation(game, state, seat)
    factory = get_bot(game, "mcts:iterations=6,rollout=4")
    choice = factory(Rng(9)).choose(observation)
    assert choice in observation.legal_actions
    assert factory(Rng(9)).choose(Observation(game, state, seat)) == choice


def test_a_time_budget_gives_a_legal_action() -> None:
    game = get_game("pig")
    state = game.start(None, None, 1)
    state.apply("1", state.legal_actions("1")[0])
    observation = Observation(game, state, state.awaiting()[0])
    assert MctsBot(Rng(1), ms=5).choose(observation) in observation.legal_actions


def test_a_finished_match_scores_one_for_winners_a_half_each_in_a_draw() -> None:
    seats = ("1", "2", "3")
    x = Ending(Termination.SCORE, "x")()
    assert outcome_values(Outcome.win(["2"], x), seats) == {"1": 0.0, "2": 1.0, "3": 0.0}
    assert outcome_values(Outcome.drawn(x), seats) == dict.fromkeys(seats, 0.5)
    assert outcome_values(Outcome.all_lost(x), seats) == dict.fromkeys(seats, 0.0)


def test_the_rollout_is_by_default_the_games_own() -> None:
    """Hero Battle scores the round its tree step closed (0); Pig plays ten random
    actions, as ``rollout=10`` named does, to the same choice for a seed."""
    assert get_game("hero-battle").search_rollout == 0
    game = get_game("pig")
    state = game.start(None, None, 1)
    state.apply("1", state.legal_actions("1")[0])
    seat = state.awaiting()[0]
    assert game.search_rollout == 10
    default = MctsBot(Rng(4), iterations=30).choose(Observation(game, state, seat))
    named = MctsBot(Rng(4), iterations=30, rollout=10).choose(Observation(game, state, seat))
    assert default == named
