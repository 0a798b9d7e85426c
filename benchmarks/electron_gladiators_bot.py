"""The tactician against the random bot in Electron Gladiators, set-up by set-up
(issue 5: it must win at least 95% of games on every set-up).

For each shipped set-up, half the games have the tactician as seat 1 (moving first)
and half as seat 2. Prints, per set-up, the tactician's wins, draws and losses, its
win rate with a 95% Wilson interval, the mean match length and the time a game.

    nice .venv/bin/python benchmarks/electron_gladiators_bot.py --games 80 --jobs 2

One cell of the table from the command line (the same seeds, same games):

    .venv/bin/gladiatorium simulate electron-gladiators --games 40 --seed 5 \\
        --seat 1=tactician --seat 2=random --option setup=basic-1
"""

from __future__ import annotations

import argparse
import time

from gladiatorium.core.batches import Batch, run_batch, wilson_interval

SETUPS = ("basic-1", "basic-2", "deluxe-1", "deluxe-2")
SLUG = "electron-gladiators"


def measure(setup: str, games: int, seed: int, jobs: int) -> tuple[int, int, int, float]:
    """(wins, draws, losses, mean actions) of the tactician over ``games`` games,
    half of them from each seat."""
    wins = draws = losses = 0
    actions = 0
    for seat, other in (("1", "2"), ("2", "1")):
        count = games // 2 if seat == "1" else games - games // 2
        bots = {seat: "tactician", other: "random"}
        batch = Batch(SLUG, {"setup": setup}, 2, seed, bots)
        summary = run_batch(batch, count, jobs=jobs)
        wins += summary.wins[seat]
        losses += summary.wins[other]
        draws += summary.games - summary.wins[seat] - summary.wins[other]
        actions += summary.total_length
    return wins, draws, losses, actions / max(1, games)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games per set-up")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--setup", action="append", choices=SETUPS, help="only these")
    args = parser.parse_args()
    print(f"tactician v random, {args.games} games per set-up (half from each seat)")
    print(f"{'set-up':<10} {'wins':>5} {'draws':>5} {'losses':>6}  win rate  95% interval")
    for setup in args.setup or SETUPS:
        start = time.perf_counter()
        wins, draws, losses, mean = measure(setup, args.games, args.seed, args.jobs)
        elapsed = time.perf_counter() - start
        low, high = wilson_interval(wins, args.games)
        print(
            f"{setup:<10} {wins:>5} {draws:>5} {losses:>6}  {wins / args.games:>7.1%}"
            f"  {low:.1%}-{high:.1%}   {mean:.0f} actions a game,"
            f" {elapsed / args.games:.1f} s a game",
            flush=True,
        )


if __name__ == "__main__":
    main()
