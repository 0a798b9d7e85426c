"""What the contract costs: Pig random playouts through the engine (legal actions,
checked apply, events, history) against a bare loop playing the same rules, in the
same run. Reports medians of several repeats and their ratio."""

from __future__ import annotations

import random
import statistics
import time

from gladiatorium.core import get_game
from gladiatorium.core.match import make_bots, run_match
from gladiatorium.games import load

GAMES = 2000
REPEATS = 5


def engine_playouts() -> None:
    game = get_game("pig")
    for seed in range(GAMES):
        state = game.start(None, 2, seed)
        run_match(state, make_bots(game, seed, {"1": "random", "2": "random"}))


def bare_playouts() -> None:
    for seed in range(GAMES):
        rng, dice = random.Random(seed), random.Random(seed + 1)
        banked, turn, to_move = [0, 0], 0, 0
        while max(banked) < 30:
            if turn and rng.random() < 0.5:
                banked[to_move] += turn
                turn, to_move = 0, 1 - to_move
                continue
            face = dice.randint(1, 6)
            if face == 1:
                turn, to_move = 0, 1 - to_move
            else:
                turn += face


def median_seconds(run: object) -> float:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        run()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return statistics.median(times)


if __name__ == "__main__":
    load()
    engine = median_seconds(engine_playouts)
    bare = median_seconds(bare_playouts)
    print(f"pig playouts: {GAMES} games, median of {REPEATS}")
    print(f"  engine: {GAMES / engine:10.0f} games/s")
    print(f"  bare:   {GAMES / bare:10.0f} games/s")
    print(f"  engine is {engine / bare:.1f}x the bare loop's time")
