"""Superhero Gladiators duels (the greedy bot on both sides, as ``gladiatorium duel``),
interleaved with python-chess random playouts (the anchor, as in ``playouts.py``):
after a warm-up, each round times the anchor, then a batch of duels. Reports the median
duels/s and the median anchor plies/s, so runs on a loaded machine compare by ratio.

Two figures in the same run, against the same anchor: COLD, the process's tables
(``gladiatorium.core.kept``) emptied before each timed batch, as a fresh
``gladiatorium duel`` starts (the figure a user sees); then WARM, each batch starting
with what the warm-up and the earlier rounds kept (duels of other seeds, met alike).

    .venv/bin/python benchmarks/duels.py [--games N] [--rounds R] [A B]
"""

from __future__ import annotations

import argparse
import itertools
from collections.abc import Callable

from gladiatorium.games import load
from gladiatorium.games.superhero_gladiators.commands.duel import duel_options, run_duel
from playouts import chess_playouts, cold_and_warm


def duels(heroes: list[str], games: int) -> Callable[[], int]:
    """A batch of ``games`` seeded duels on one core; returns the duels played. Each
    batch has its own run seed (1, 2, ...), so no batch replays the duels of another:
    what the bots recall comes from duels alike, not from the same duels again."""
    values, seeds = duel_options(heroes, [], None), itertools.count(1)

    def run() -> int:
        return int(run_duel(values, games, next(seeds), None, 1)["games"])

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("heroes", nargs="*", default=["cowboy", "barbarian"])
    parser.add_argument("--games", type=int, default=200, help="duels per round")
    parser.add_argument("--rounds", type=int, default=7, help="interleaved rounds (median)")
    parser.add_argument("--anchor-games", type=int, default=10, help="chess games per round")
    args = parser.parse_args()
    load()
    figures = cold_and_warm(
        chess_playouts(args.anchor_games), duels(args.heroes, args.games), args.rounds
    )
    for tables, (plies_rate, rate, _, _, ratio) in figures.items():
        print(
            f"{tables.upper()} {' v '.join(args.heroes)}: {rate:.1f} duels/s (median of "
            f"{args.rounds} rounds of {args.games}), python-chess {plies_rate:.0f} plies/s, "
            f"{ratio * 1000:.2f} duels per 1000 plies (median of the rounds' ratios)",
            flush=True,
        )


if __name__ == "__main__":
    main()
