"""Random playouts of every registered game, side by side with python-chess random
playouts in the same run (the anchor). Reports, per game, the median over repeats of
actions per second and games per second, and each game's speed as a ratio of the
anchor's plies per second.

    .venv/bin/python benchmarks/playouts.py [--games N] [--repeats R] [--only SLUG ...]

python-chess comes with the bench extra (``make bench`` installs it).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from gladiatorium.core import games, get_game
from gladiatorium.core.match import make_bots, run_match
from gladiatorium.games import load


def game_playouts(slug: str, n: int) -> Callable[[], int]:
    """A run of ``n`` seeded random-bot games of ``slug``; returns the actions played."""
    game = get_game(slug)

    def run() -> int:
        actions = 0
        for seed in range(n):
            state = game.start(None, None, seed)
            run_match(state, make_bots(game, seed, dict.fromkeys(state.seats, "random")))
            actions += len(state.history)
        return actions

    return run


def chess_playouts(n: int) -> Callable[[], int]:
    """``n`` random games of standard chess with python-chess (200-ply cap)."""
    import chess

    def run() -> int:
        plies = 0
        for seed in range(n):
            rng, board = random.Random(seed), chess.Board()
            while not board.is_game_over() and board.ply() < 200:
                board.push(rng.choice(list(board.legal_moves)))
            plies += board.ply()
        return plies

    return run


def measure(run: Callable[[], int], repeats: int) -> tuple[float, int]:
    """Median seconds of ``repeats`` runs, and the actions of one run."""
    times, actions = [], 0
    for _ in range(repeats):
        start = time.perf_counter()
        actions = run()
        times.append(time.perf_counter() - start)
    return statistics.median(times), actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="playouts per game per repeat")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", nargs="*", default=None, help="game slugs to run")
    args = parser.parse_args()
    load()
    seconds, plies = measure(chess_playouts(args.games), args.repeats)
    anchor = plies / seconds
    print(f"random playouts, {args.games} games per repeat, median of {args.repeats}")
    print(f"{'game':24} {'actions/s':>10} {'games/s':>9} {'actions/game':>13} {'vs chess':>9}")
    print(
        f"{'python-chess (anchor)':24} {anchor:10.0f} {args.games / seconds:9.1f} "
        f"{plies / args.games:13.1f} {1:9.2f}"
    )
    for game in games():
        slug = game.info.slug
        if args.only and slug not in args.only:
            continue
        seconds, actions = measure(game_playouts(slug, args.games), args.repeats)
        rate = actions / seconds
        print(
            f"{slug:24} {rate:10.0f} {args.games / seconds:9.1f} "
            f"{actions / args.games:13.1f} {rate / anchor:9.2f}"
        )


if __name__ == "__main__":
    main()
