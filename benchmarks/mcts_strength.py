"""How strong ``mcts`` is in every game: against ``random`` and against the game's best
heuristic bot, seats rotated, with the heuristic against random as the anchor.

Each line plays ``--games`` games of one pairing: the first bot takes one side (one seat,
or in Gladiator Chess every commander of one team) and the second bot every other seat;
the first bot's side rotates through the sides game by game. A win counts only when the
first bot's seat is among the winners (a draw is not a win). In a game of more than two
sides (a Battle of eight, every player for themselves) the same pairings are played a
second way, head to head: the first bot holds every other side (four seats of eight),
the second bot the rest, alternating game by game, and the first bot wins when one of its
seats does (the fair share is a half, as between two players). Win rates come with their
95% Wilson interval, and the median seconds per game with its ratio to the anchor's.

    nice .venv/bin/python benchmarks/mcts_strength.py --games 20
    nice .venv/bin/python benchmarks/mcts_strength.py --game pig --games 100 --iterations 64
    nice .venv/bin/python benchmarks/mcts_strength.py --game hero-battle --games 96 --split one
    nice .venv/bin/python benchmarks/mcts_strength.py --game hero-battle --games 96 --split half \
        --random-only

``--random-only`` plays only ``mcts`` against ``random`` (no anchor, no heuristic line).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from dataclasses import dataclass
from typing import Any

from gladiatorium.core import Game, best_bot, derive_seed, games, get_game
from gladiatorium.core.batches import Batch, GameResult, run_batch
from gladiatorium.core.stats import WinTally
from gladiatorium.games import load

#: players per game: two where the game allows it, else its fewest
PLAYERS = {"hero-battle": 8}


@dataclass
class Line(WinTally):
    game: str
    first: str
    second: str
    #: the first bot's share of the sides: "1/8" (one seat among the second bot's), "4/8"
    held: str
    games: int
    wins: int
    draws: int
    median_s: float


def sides(game: Game[Any], players: int) -> list[list[str]]:
    """The seats that win together: a Gladiator Chess team's commanders, else one seat
    (Hero Battle's moderator plays no side)."""
    state = game.start(None, players, 0)
    if game.info.slug == "gladiator-chess":
        from gladiatorium.games.gladiator_chess.pieces import SEAT_ROLES

        teams: dict[str, list[str]] = {}
        for seat in state.seats:
            teams.setdefault(SEAT_ROLES[seat][0], []).append(seat)
        return list(teams.values())
    return [[s] for s in state.seats if s != "moderator"]


def pairing(slug: str, first: str, second: str, count: int, seed: int, half: bool = False) -> Line:
    """``count`` games of ``first`` (one side, rotating; with ``half``, every other side,
    alternating) against ``second`` (the rest)."""
    game = get_game(slug)
    players = PLAYERS.get(slug, max(2, game.info.min_players))
    all_sides = sides(game, players)
    seats = [s for side in all_sides for s in side]
    held = all_sides
    if half:
        held = [[s for side in all_sides[start::2] for s in side] for start in (0, 1)]
    wins = draws = 0
    seconds: list[float] = []
    for rotation, side in enumerate(held):
        share = count // len(held) + (rotation < count % len(held))
        if not share:
            continue
        names = {s: first if s in side else second for s in seats}
        stream = (seed, slug, first, second, rotation) + (("half",) if half else ())
        batch = Batch(slug, {}, players, derive_seed(*stream), names)
        clock = time.perf_counter()

        def tally(result: GameResult, side: list[str] = side) -> None:
            nonlocal wins, draws, clock
            wins += bool(set(side) & set(result.winners))
            draws += not result.winners and not result.all_lost
            now = time.perf_counter()
            seconds.append(now - clock)
            clock = now

        run_batch(batch, share, on_result=tally)
    taken = len(all_sides) // 2 if half else 1
    held_text = f"{taken}/{len(all_sides)}"
    return Line(slug, first, second, held_text, count, wins, draws, statistics.median(seconds))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10, help="games per pairing")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--iterations", type=int, help="mcts iterations (default: its own)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--split",
        choices=("one", "half", "both"),
        default="both",
        help="games of more than two sides: one side among the second bot's, half, or both",
    )
    parser.add_argument(
        "--random-only", action="store_true", help="only mcts against random (no anchor)"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    load()
    mcts = "mcts" if args.iterations is None else f"mcts:iterations={args.iterations}"
    slugs = args.game or [g.info.slug for g in games()]
    lines: list[Line] = []
    for slug in slugs:
        game = get_game(slug)
        heuristic = best_bot(game)
        many = len(sides(game, PLAYERS.get(slug, max(2, game.info.min_players)))) > 2
        splits = {"one": (False,), "half": (True,), "both": (False, True)}[args.split]
        for half in splits if many else (False,):
            anchor = None
            if heuristic != "random" and not args.random_only:
                anchor = pairing(slug, heuristic, "random", args.games, args.seed, half)
                lines.append(anchor)
            lines.append(pairing(slug, mcts, "random", args.games, args.seed, half))
            if heuristic != "random" and not args.random_only:
                lines.append(pairing(slug, mcts, heuristic, args.games, args.seed, half))
            if not args.json:
                for line in lines[-3 if anchor else -1 :]:
                    print(row(line, anchor), flush=True)
    if args.json:
        print(json.dumps([line.to_json() for line in lines], indent=2))


def row(line: Line, anchor: Line | None) -> str:
    low, high = line.interval
    ratio = line.median_s / anchor.median_s if anchor and anchor.median_s else 1.0
    return (
        f"| {line.game} | {line.first} | {line.second} | {line.held} | {line.games} "
        f"| {line.wins / line.games:.0%} [{low:.0%}, {high:.0%}] | {line.draws} "
        f"| {line.median_s:.2f} | {ratio:.1f} |"
    )


if __name__ == "__main__":
    main()
