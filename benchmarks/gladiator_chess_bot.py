"""The Marshal bot against the random bot in Gladiator Chess (issue 4's >= 95% target).

The Marshal holds all four commanders of one team, the random bot the other four;
the colours alternate game by game. Prints wins, losses and draws of the Marshal with
a 95% (Wilson) interval on its win rate, the ways the games ended, how often its King
overrode a commander (issue 4: "uses overrides"), and the time per game and per decision.

    .venv/bin/python benchmarks/gladiator_chess_bot.py --games 100

The same figure from the command line, one colour at a time:

    .venv/bin/gladiatorium simulate gladiator-chess --games 100 --jobs 1 --seed 1 \\
        --seat black-king=random --seat black-queen=random \\
        --seat black-black-knight=random --seat black-kings-knight=random
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from gladiatorium.bots.random import RandomBot
from gladiatorium.core import Rng, derive_seed
from gladiatorium.core.batches import wilson_interval
from gladiatorium.core.match import run_match
from gladiatorium.games.gladiator_chess import GAME
from gladiatorium.games.gladiator_chess.actions import Let, Move
from gladiatorium.games.gladiator_chess.bots import Marshal
from gladiatorium.games.gladiator_chess.pieces import COMMANDERS, TEAMS, other, seat_of


def play(seed: int, team: str) -> tuple[str, str, int, Counter[str]]:
    """One match with the Marshal on ``team``: (win/loss/draw, reason, actions, and
    the Marshal King's decisions at override windows: 'let' or 'override')."""
    state = GAME.start(None, None, seed)
    marshal = Marshal(Rng(seed + 1))
    rand = RandomBot(Rng(seed + 2))
    bots = {seat_of(team, c): marshal for c in COMMANDERS}
    bots.update({seat_of(other(team), c): rand for c in COMMANDERS})
    run_match(state, bots)
    outcome = state.outcome()
    assert outcome is not None
    result = "draw" if outcome.draw else ("win" if outcome.team == team else "loss")
    king = seat_of(team, "king")
    decisions: Counter[str] = Counter()
    for seat, action in state.history:
        if seat == king and isinstance(action, Let):
            decisions["let"] += 1
        elif seat == king and isinstance(action, Move) and action.override:
            decisions["override"] += 1
    return result, outcome.reason, len(state.history), decisions


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100)
    args = parser.parse_args()
    results: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    decisions: Counter[str] = Counter()
    actions = 0
    start = time.perf_counter()
    for i in range(args.games):
        team = TEAMS[i % 2]
        result, reason, length, king = play(derive_seed("gc-bench", i), team)
        results[result] += 1
        reasons[f"{result}: {reason}"] += 1
        decisions.update(king)
        actions += length
    elapsed = time.perf_counter() - start
    low, high = wilson_interval(results["win"], args.games)
    print(f"marshal v random, {args.games} games: {dict(sorted(results.items()))}")
    print(
        f"  win rate {results['win'] / args.games:.1%} (95% interval {low:.1%}-{high:.1%}); "
        f"endings {dict(sorted(reasons.items()))}"
    )
    print(
        f"  the Marshal King at override windows: {decisions['override']} overrides, "
        f"{decisions['let']} lets ({decisions['override'] / args.games:.1f} overrides a game)"
    )
    print(
        f"  {elapsed / args.games * 1000:.0f} ms a game, "
        f"{elapsed / max(1, actions) * 1e6:.0f} us an action ({actions / args.games:.1f} a game)"
    )


if __name__ == "__main__":
    main()
