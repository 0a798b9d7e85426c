"""Hero Battle bots: win rates in 12-player Battles against fields of the other bots.

For every bot B and every field bot F (the other two, and a mixed field of all three),
``--games`` Battles are played with one B among ``--players - 1`` Fs; B's seat rotates
through the table. A bot that plays no better than its field wins 1/players of the games
(8.3% at 12 players). Ties shared by k heroes count 1/k. Default rules, seeded.

    .venv/bin/python benchmarks/hero_battle_bots.py --games 240
"""

from __future__ import annotations

import argparse
import math
import time
from typing import Any

from gladiatorium.core import Rng, derive_seed
from gladiatorium.core.match import run_match
from gladiatorium.games.hero_battle import GAME
from gladiatorium.games.hero_battle.bots import BOTS

NAMES = list(BOTS)


def field_names(field: str, seats: list[str], seat: str, bot: str) -> dict[str, str]:
    """The field's bot for every seat but ``seat``; 'mixed' cycles through all three."""
    out = {}
    for index, other in enumerate(s for s in seats if s != seat):
        out[other] = NAMES[index % len(NAMES)] if field == "mixed" else field
    out[seat] = bot
    return out


def play(bot: str, field: str, games: int, players: int, seed: int) -> tuple[float, float]:
    """(share of wins, mean rounds) of one ``bot`` among a ``field``."""
    wins = 0.0
    rounds = 0
    for game in range(games):
        match_seed = derive_seed(seed, bot, field, game)
        state = GAME.start(None, players, match_seed)
        seat = state.player_seats[game % players]
        names = field_names(field, list(state.player_seats), seat, bot)
        names["moderator"] = "random-move"
        bots: dict[str, Any] = {
            s: BOTS[n](Rng(derive_seed(match_seed, "bot", s, n))) for s, n in names.items()
        }
        run_match(state, bots)
        outcome = state.outcome()
        assert outcome is not None
        if seat in outcome.winners:
            wins += 1 / len(outcome.winners)
        rounds += state.round
    return wins / games, rounds / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=120)
    parser.add_argument("--players", type=int, default=12)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"{args.players}-player Battles, {args.games} per line, chance = {1 / args.players:.1%}")
    print(f"{'bot':<12} {'field':<12} {'win rate':>9} {'95% +-':>7} {'rounds':>7}")
    start = time.perf_counter()
    for bot in NAMES:
        for field in [*(n for n in NAMES if n != bot), "mixed"]:
            rate, rounds = play(bot, field, args.games, args.players, args.seed)
            margin = 1.96 * math.sqrt(max(rate * (1 - rate), 1e-9) / args.games)
            print(f"{bot:<12} {field:<12} {rate:>9.1%} {margin:>7.1%} {rounds:>7.1f}")
    print(f"{time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
