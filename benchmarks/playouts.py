"""Random playouts of every registered game, interleaved with python-chess random
playouts (the anchor): after a warm-up, each round times python-chess, then the game,
so both see the same machine load. Reports, per game, the medians over the rounds of
actions per second and games per second, and the game's speed: the median over the
rounds of its actions/s over the anchor's plies/s in the same round.

Each game is measured twice in the same run, against the same anchor: COLD, the
process's tables (``gladiatorium.core.kept``) emptied before each timed run, as a fresh
``gladiatorium simulate`` starts; then WARM, the tables kept from run to run (the
warm-up's and the earlier rounds' games, other seeds, met alike).

    .venv/bin/python benchmarks/playouts.py [--games N] [--rounds R] [--only SLUG ...]

OpenSpiel's C++ chess (``pyspiel``) plays the same random playouts, interleaved with the
anchor likewise, as a second yardstick (skipped, saying so, when it is not installed).
Then ``clone()`` of each game at mid-game (half its mean playout length) against
python-chess's ``Board.copy()`` at ply 40 of a random game: medians of many copies.
python-chess and OpenSpiel come with the bench extra (``make bench`` installs it).
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from gladiatorium.core import Rng, State, games, get_game, kept
from gladiatorium.core.match import make_bots, run_match
from gladiatorium.games import load


def game_playouts(slug: str, n: int) -> Callable[[], int]:
    """A run of ``n`` seeded random-bot games of ``slug``; returns the actions played.
    Each run plays the next ``n`` seeds, so no run replays a game an earlier one played
    (a cache kept across games helps only as far as different games meet alike)."""
    game, seeds = get_game(slug), itertools.count()

    def run() -> int:
        actions = 0
        for seed in itertools.islice(seeds, n):
            state = game.start(None, None, seed)
            run_match(state, make_bots(game, seed, dict.fromkeys(state.seats, "random")))
            actions += len(state.history)
        return actions

    return run


def chess_playouts(n: int) -> Callable[[], int]:
    """``n`` random games of standard chess with python-chess (200-ply cap), the next
    ``n`` seeds each run."""
    import chess

    seeds = itertools.count()

    def run() -> int:
        plies = 0
        for seed in itertools.islice(seeds, n):
            rng, board = random.Random(seed), chess.Board()
            while not board.is_game_over() and board.ply() < 200:
                board.push(rng.choice(list(board.legal_moves)))
            plies += board.ply()
        return plies

    return run


def openspiel_playouts(n: int) -> Callable[[], int] | None:
    """``n`` random games of chess with OpenSpiel's C++ rules (200-ply cap), or None
    when OpenSpiel is not installed."""
    try:
        import pyspiel  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return None
    chess_game, seeds = pyspiel.load_game("chess"), itertools.count()

    def run() -> int:
        plies = 0
        for seed in itertools.islice(seeds, n):
            rng, state = random.Random(seed), chess_game.new_initial_state()
            while not state.is_terminal() and state.move_number() < 200:
                state.apply_action(rng.choice(state.legal_actions()))
            plies += state.move_number()
        return plies

    return run


def timed(run: Callable[[], int]) -> tuple[float, int]:
    """Seconds of one run, and the actions it played."""
    start = time.perf_counter()
    actions = run()
    return time.perf_counter() - start, actions


def interleaved(
    anchor: Callable[[], int],
    game: Callable[[], int],
    rounds: int,
    before: Callable[[], None] | None = None,
) -> tuple[float, float, int, float, float]:
    """Warm both up, then ``rounds`` of (anchor, game). Returns the median anchor
    plies/s, the median game actions/s, the game's actions in one run, its median
    seconds a run and the median over the rounds of its rate over the anchor's (each
    round's pair ran back to back, so this ratio holds best when the load changes).
    ``before`` is called before each timed run of the game, untimed (``kept.empty``:
    the cold figure)."""
    anchor()
    game()
    anchor_rates, game_rates, game_times, ratios, actions = [], [], [], [], 0
    for _ in range(rounds):
        seconds, plies = timed(anchor)
        anchor_rates.append(plies / seconds)
        if before is not None:
            before()
        seconds, actions = timed(game)
        game_rates.append(actions / seconds)
        game_times.append(seconds)
        ratios.append(game_rates[-1] / anchor_rates[-1])
    return (
        statistics.median(anchor_rates),
        statistics.median(game_rates),
        actions,
        statistics.median(game_times),
        statistics.median(ratios),
    )


def cold_and_warm(
    anchor: Callable[[], int], game: Callable[[], int], rounds: int
) -> dict[str, tuple[float, float, int, float, float]]:
    """:func:`interleaved` twice in a row, against the same anchor: ``cold``, the
    process's tables emptied before each timed run (as a fresh process starts), then
    ``warm``, the tables kept from run to run (a batch in a scope of its own: the lab's
    batches within it share its tables)."""
    cold = interleaved(anchor, game, rounds, before=kept.empty)
    kept.empty()
    with kept.scope():
        warm = interleaved(anchor, game, rounds)
    return {"cold": cold, "warm": warm}


def median_seconds(work: Callable[[], Any], repeat: int, rounds: int = 7) -> float:
    """Median over ``rounds`` of the seconds one call of ``work`` takes (``repeat``
    calls a round)."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(repeat):
            work()
        times.append((time.perf_counter() - start) / repeat)
    return statistics.median(times)


def chess_mid_game() -> Any:
    """A python-chess board 40 random plies into a game."""
    import chess

    rng, board = random.Random(1), chess.Board()
    while board.ply() < 40 and not board.is_game_over():
        board.push(rng.choice(list(board.legal_moves)))
    return board


def game_mid_game(slug: str, actions: int) -> State[Any]:
    """A random-bot game of ``slug`` stopped after ``actions`` actions (or its end)."""
    game = get_game(slug)
    state = game.start(None, None, 1)
    rng = Rng(2)
    while state.awaiting() and len(state.history) < actions:
        seat = state.awaiting()[0]
        state.apply(seat, rng.choice(list(state.legal_actions(seat))))
    return state


def report_clones(mid_game: dict[str, float], only: list[str] | None) -> None:
    """Each game's clone() at mid-game against python-chess's Board.copy()."""
    board = chess_mid_game()
    print(f"\nclone() at mid-game against python-chess Board.copy() at ply {board.ply()}")
    print(f"{'game':24} {'actions in':>10} {'clone us':>9} {'copy us':>8} {'ratio':>6}")
    for game in games():
        slug = game.info.slug
        if only and slug not in only:
            continue
        state = game_mid_game(slug, int(mid_game.get(slug, 40)))
        copy_s = median_seconds(board.copy, 200)
        clone_s = median_seconds(state.clone, 200)
        print(
            f"{slug:24} {len(state.history):10d} {clone_s * 1e6:9.1f} {copy_s * 1e6:8.1f} "
            f"{clone_s / copy_s:6.2f}",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="playouts per game per round")
    parser.add_argument("--rounds", type=int, default=11, help="interleaved rounds (median)")
    parser.add_argument("--only", nargs="*", default=None, help="game slugs to run")
    parser.add_argument("--no-clone", action="store_true", help="skip the clone() table")
    args = parser.parse_args()
    load()
    anchor = chess_playouts(args.games)
    print(
        f"random playouts, {args.games} games a run, python-chess and each game "
        f"interleaved, medians of {args.rounds} rounds after a warm-up"
    )
    print(
        f"{'game':24} {'tables':>6} {'actions/s':>10} {'games/s':>9} {'actions/game':>13} "
        f"{'chess plies/s':>14} {'vs chess':>9}"
    )
    spiel = openspiel_playouts(args.games)
    if spiel is None:
        print(f"{'open_spiel chess (C++)':24} skipped: OpenSpiel is not installed (make bench)")
    else:
        plies_rate, rate, plies, seconds, ratio = interleaved(anchor, spiel, args.rounds)
        print(
            f"{'open_spiel chess (C++)':24} {'-':>6} {rate:10.0f} {args.games / seconds:9.1f} "
            f"{plies / args.games:13.1f} {plies_rate:14.0f} {ratio:9.2f}",
            flush=True,
        )
    mid_game: dict[str, float] = {}
    for game in games():
        slug = game.info.slug
        if args.only and slug not in args.only:
            continue
        figures = cold_and_warm(anchor, game_playouts(slug, args.games), args.rounds)
        for tables, (plies_rate, rate, actions, seconds, ratio) in figures.items():
            mid_game[slug] = actions / args.games / 2
            print(
                f"{slug:24} {tables:>6} {rate:10.0f} {args.games / seconds:9.1f} "
                f"{actions / args.games:13.1f} {plies_rate:14.0f} {ratio:9.2f}",
                flush=True,
            )
    if not args.no_clone:
        report_clones(mid_game, args.only)


if __name__ == "__main__":
    main()
