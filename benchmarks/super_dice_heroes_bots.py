"""Bot strength in Super Dice Heroes: mean final honor of solo games per bot, with the
honor each location brings (the lab's evidence that every location is worth a visit).

    .venv/bin/python benchmarks/super_dice_heroes_bots.py --games 1000 --jobs 2

Players never interact (only the shared roll), so solo games measure a bot's score.
"""

from __future__ import annotations

import argparse
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from gladiatorium.core import derive_seed
from gladiatorium.core.match import make_bots, run_match
from gladiatorium.games import load
from gladiatorium.games.super_dice_heroes.game import SuperDiceHeroes


def play(args: tuple[str, int, dict[str, Any]]) -> dict[str, Any]:
    """One solo game of ``bot``; its score, power and honor per location."""
    bot, index, options = args
    load()
    game = SuperDiceHeroes()
    seed = derive_seed("sdh-bots", index)
    state: Any = game.start(options, 1, seed)
    run_match(state, make_bots(game, seed, {"1": bot}))
    hero = state.heroes["1"]
    return {
        "score": hero.score(state.sheet),
        "power": hero.power,
        "places": [hero.location_honor(state.sheet, n) for n in range(1, 7)],
        "dice": dice_per_location(state),
        "wild": hero.wild_earned,
        "bystanders": hero.bystanders,
    }


def dice_per_location(state: Any) -> list[int]:
    """Dice (rolled or wild) the hero spent helping or on minions, per location."""
    used = [0] * 6
    for event in state.events:
        if event.kind == "spend" and event.data["action"].startswith(HELPING):
            used[event.data["location"] - 1] += 1
    return used


HELPING = ("help", "wild help", "defeat", "wild defeat")


def summary(bot: str, games: int, jobs: int, options: dict[str, Any]) -> dict[str, Any]:
    start = time.perf_counter()
    tasks = [(bot, i, options) for i in range(games)]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(play, tasks, chunksize=20))
    else:
        results = [play(t) for t in tasks]
    scores = [r["score"] for r in results]
    places = [statistics.mean(r["places"][n] for r in results) for n in range(6)]
    dice = [statistics.mean(r["dice"][n] for r in results) for n in range(6)]
    visited = [sum(1 for r in results if r["places"][n] > 0) / games for n in range(6)]
    powers: dict[str, list[int]] = {}
    for r in results:
        powers.setdefault(r["power"], []).append(r["score"])
    return {
        "bot": bot,
        "games": games,
        "mean": statistics.mean(scores),
        "sd": statistics.pstdev(scores),
        "median": statistics.median(scores),
        "min": min(scores),
        "max": max(scores),
        "places": places,
        "dice": dice,
        "scoring_share": visited,
        "wild": statistics.mean(r["wild"] for r in results),
        "bystanders": statistics.mean(r["bystanders"] for r in results),
        "by_power": {p: (len(v), statistics.mean(v)) for p, v in sorted(powers.items())},
        "seconds": time.perf_counter() - start,
    }


NAMES = ["City Hall", "Hospital", "Downtown", "Powerplant", "Warehouse", "Church"]

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--bots", default="planner,greedy,random")
    args = parser.parse_args()
    for name in args.bots.split(","):
        s = summary(name, args.games, args.jobs, {})
        half = 1.96 * s["sd"] / s["games"] ** 0.5
        print(
            f"{name:8} mean {s['mean']:6.1f} +-{half:.1f} (sd {s['sd']:.1f}, median "
            f"{s['median']}, {s['min']}-{s['max']}) over {s['games']} solo games, "
            f"{s['seconds']:.0f}s"
        )
        print(
            "   honor per location: "
            + ", ".join(
                f"{n} {v:.1f} ({share:.0%} of games)"
                for n, v, share in zip(NAMES, s["places"], s["scoring_share"], strict=True)
            )
        )
        print(
            "   honor per die spent there (dice a game): "
            + ", ".join(
                f"{n} {v / d if d else 0:.2f} ({d:.1f})"
                for n, v, d in zip(NAMES, s["places"], s["dice"], strict=True)
            )
        )
        print(f"   wild dice earned {s['wild']:.2f}, bystanders {s['bystanders']:.2f}")
        print(
            "   by power: "
            + ", ".join(f"{p} {mean:.1f} (n={n})" for p, (n, mean) in s["by_power"].items())
        )
