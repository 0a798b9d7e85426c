"""Random playouts of every registered game, interleaved with python-chess random
playouts (the anchor): after a warm-up, each round times python-chess, then the game,
so both see the same machine load. Reports, per game, the medians over the rounds of
actions per second and games per second, and the game's speed as the ratio of its
median actions/s to the anchor's median plies/s.

    .venv/bin/python benchmarks/playouts.py [--games N] [--rounds R] [--only SLUG ...]

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


def timed(run: Callable[[], int]) -> tuple[float, int]:
    """Seconds of one run, and the actions it played."""
    start = time.perf_counter()
    actions = run()
    return time.perf_counter() - start, actions


def interleaved(
    anchor: Callable[[], int], game: Callable[[], int], rounds: int
) -> tuple[float, float, int, float]:
    """Warm both up, then ``rounds`` of (anchor, game). Returns the median anchor
    plies/s, the median game actions/s, the game's actions in one run and its median
    seconds a run."""
    anchor()
    game()
    anchor_rates, game_rates, game_times, actions = [], [], [], 0
    for _ in range(rounds):
        seconds, plies = timed(anchor)
        anchor_rates.append(plies / seconds)
        seconds, actions = timed(game)
        game_rates.append(actions / seconds)
        game_times.append(seconds)
    return (
        statistics.median(anchor_rates),
        statistics.median(game_rates),
        actions,
        statistics.median(game_times),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="playouts per game per round")
    parser.add_argument("--rounds", type=int, default=11, help="interleaved rounds (median)")
    parser.add_argument("--only", nargs="*", default=None, help="game slugs to run")
    args = parser.parse_args()
    load()
    anchor = chess_playouts(args.games)
    print(
        f"random playouts, {args.games} games a run, python-chess and each game "
        f"interleaved, medians of {args.rounds} rounds after a warm-up"
    )
    print(
        f"{'game':24} {'actions/s':>10} {'games/s':>9} {'actions/game':>13} "
        f"{'chess plies/s':>14} {'vs chess':>9}"
    )
    for game in games():
        slug = game.info.slug
        if args.only and slug not in args.only:
            continue
        plies_rate, rate, actions, seconds = interleaved(
            anchor, game_playouts(slug, args.games), args.rounds
        )
        print(
            f"{slug:24} {rate:10.0f} {args.games / seconds:9.1f} "
            f"{actions / args.games:13.1f} {plies_rate:14.0f} {rate / plies_rate:9.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
