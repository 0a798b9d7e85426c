"""Super Dice Heroes with a hundred heroes: how long one simulated round takes (all
100 bots spend the shared roll) and a whole 100-player game, per bot. Medians.

    .venv/bin/python benchmarks/super_dice_heroes_bench.py
    .venv/bin/python benchmarks/super_dice_heroes_bench.py --only planner --rounds-only

``--only BOT`` times that bot next to the random anchor; ``--rounds-only`` skips the
whole games.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from gladiatorium.core import Bot, Observation
from gladiatorium.core.match import make_bots
from gladiatorium.games import load
from gladiatorium.games.super_dice_heroes import GAME

PLAYERS = 100


def play_round(state: Any, bots: dict[str, Bot]) -> None:
    """Every awaited hero decides until the round resolves (or the game ends)."""
    start_round = state.round
    while state.awaiting() and state.round == start_round:
        seat = state.awaiting()[0]
        state.apply(seat, bots[seat].choose(Observation.of(state, seat)))


def round_seconds(bot: str, seed: int, round_: int = 5) -> float:
    """Time of round ``round_`` of a 100-bot game (earlier rounds played untimed)."""
    state = GAME.start(None, PLAYERS, seed)
    bots = make_bots(GAME, seed, dict.fromkeys(state.seats, bot))
    while state.round < round_:
        play_round(state, bots)
    begin = time.perf_counter()
    play_round(state, bots)
    return time.perf_counter() - begin


def game_seconds(bot: str, seed: int) -> float:
    begin = time.perf_counter()
    state = GAME.start(None, PLAYERS, seed)
    bots = make_bots(GAME, seed, dict.fromkeys(state.seats, bot))
    while state.awaiting():
        play_round(state, bots)
    return time.perf_counter() - begin


def median(values: list[float]) -> float:
    return statistics.median(values)


def main() -> None:
    """Round medians side by side, each as a ratio to the random bot's round measured in
    the same run (the anchor), so figures from different machines or loads compare."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("greedy", "planner"), help="time this bot only")
    parser.add_argument("--rounds-only", action="store_true", help="skip whole games")
    args = parser.parse_args()
    bots = ("random", args.only) if args.only else ("random", "greedy", "planner")
    load()
    print(f"super-dice-heroes, {PLAYERS} players (medians; ratio = x random round, same run)")
    anchor = 0.0
    for bot in bots:
        repeats = 3 if bot == "planner" else 5
        rounds = median([round_seconds(bot, seed) for seed in range(repeats)])
        anchor = anchor or rounds
        print(
            f"  one round, {bot:8}: {rounds * 1000:8.1f} ms  ({rounds * 10:.2f} ms per hero)"
            f"  x{rounds / anchor:6.1f}"
        )
    if args.rounds_only:
        return
    for bot in bots:
        whole = median([game_seconds(bot, seed) for seed in range(1 if bot == "planner" else 3)])
        print(f"  whole game, {bot:8}: {whole:7.2f} s")


if __name__ == "__main__":
    main()
