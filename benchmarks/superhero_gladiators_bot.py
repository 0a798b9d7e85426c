"""Greedy bot against the random bot across the sample heroes (issue 3's >= 95% target).

``--mode pairs``: every ordered pair of different sample heroes, one hero a side (the
greedy bot plays the first), ``--games`` seeds each, seats alternating; on the default map.
``--mode teams``: ``--games`` matches of two teams of ``--size`` different sample heroes
drawn at random (seeded), seats alternating, on ``--map`` (default pillars).
``--mode mirror``: as teams, but both sides field the same drawn team (hero strength
cancels out, so the result measures the bot).

    .venv/bin/python benchmarks/superhero_gladiators_bot.py --mode pairs --games 10
    .venv/bin/python benchmarks/superhero_gladiators_bot.py --mode teams --games 400

``--seed S`` (not 0) draws other seeds for every match and team, to check that a
figure is not the luck of one set of seeds.

Prints wins, draws (by reason) and losses of the greedy bot. ``--infinite`` is a what-if:
every sample attack gets infinite uses (over budget), to show how many draws come from
heroes running out of attacks rather than from the bot. ``--no-gizmo`` is another: no
sample attack has a gizmo (over budget), so none can be broken, to show how many draws
come from a foe breaking every attack the greedy hero has.

    .venv/bin/python benchmarks/superhero_gladiators_bot.py --mode pairs --games 10 --no-gizmo

``--opponent passive`` replaces the random bot by one that never acts (it passes and
takes every hit): the greedy bot's wins against it are the ceiling its heroes' attacks
allow (a side whose attacks run out before the foe faints cannot win, whoever plays it).

    .venv/bin/python benchmarks/superhero_gladiators_bot.py --mode pairs --games 10 \
        --opponent passive
"""

from __future__ import annotations

import argparse
import itertools
from collections import Counter
from typing import Any

from gladiatorium.bots.random import RandomBot
from gladiatorium.core import Action, Observation, Rng, derive_seed
from gladiatorium.core.match import run_match
from gladiatorium.games.superhero_gladiators import GAME
from gladiatorium.games.superhero_gladiators.bots import GreedyBot
from gladiatorium.games.superhero_gladiators.hero_files import hero_data, sample_files
from gladiatorium.games.superhero_gladiators.map_files import map_text


def on_attacks(data: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """The hero with ``changes`` made to every attack (for the what-ifs, over budget)."""
    powers = [{**p, **changes} if p["type"] in ("close", "distance") else p for p in data["powers"]]
    return {**data, "powers": powers}


class PassiveBot:
    """Never acts: passes, takes every hit, places on the first square offered."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def choose(self, observation: Observation) -> Action:
        legal = observation.legal_actions
        return next((a for a in legal if str(a) in ("pass", "take hit")), legal[0])


OPPONENTS = {"random": RandomBot, "passive": PassiveBot}


def play(
    greedy: tuple[Any, ...],
    other: tuple[Any, ...],
    seed: int,
    seat: str,
    map_name: str,
    opponent: str = "random",
) -> str:
    """One match; the greedy bot's team sits on ``seat``. Returns win, loss or draw: why."""
    teams = (greedy, other) if seat == "1" else (other, greedy)
    options = {
        "teams": teams,
        "map": map_text(map_name),
        "map_name": map_name,
        "power_points": 100_000,
    }
    state = GAME.start(options, 2, seed)
    rest = "2" if seat == "1" else "1"
    foe = OPPONENTS[opponent](Rng(seed + 2))
    run_match(state, {seat: GreedyBot(Rng(seed + 1)), rest: foe})
    outcome = state.outcome()
    assert outcome is not None
    if outcome.draw:
        return "draw: " + outcome.reason.split(" (")[0]
    return "win" if seat in outcome.winners else "loss"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=("pairs", "teams", "mirror"), default="pairs")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--size", type=int, default=2)
    parser.add_argument("--map", default=None)
    parser.add_argument("--infinite", action="store_true")
    parser.add_argument("--no-gizmo", action="store_true")
    parser.add_argument("--opponent", choices=sorted(OPPONENTS), default="random")
    parser.add_argument("--seed", type=int, default=0, help="0: the documented figures")
    args = parser.parse_args()
    salt = ("bench",) if args.seed == 0 else ("bench", args.seed)
    samples = {p.stem: hero_data(str(p)) for p in sample_files()}
    if args.infinite:
        samples = {name: on_attacks(data, uses="infinite") for name, data in samples.items()}
    if args.no_gizmo:
        samples = {name: on_attacks(data, gizmo="none") for name, data in samples.items()}
    totals: Counter[str] = Counter()
    if args.mode == "pairs":
        for a, b in itertools.permutations(samples, 2):
            for i in range(args.games):
                seat = "1" if i % 2 == 0 else "2"
                seed = derive_seed(*salt, a, b, i)
                pair = ((samples[a],), (samples[b],))
                totals[play(*pair, seed, seat, args.map or "small", args.opponent)] += 1
    else:
        names = sorted(samples)
        for i in range(args.games):
            rng = Rng(derive_seed("bench-teams", *salt[1:], i))
            drawn = rng.sample(names, 2 * args.size)
            mine = tuple(samples[n] for n in drawn[: args.size])
            theirs = tuple(samples[n] for n in drawn[args.size :])
            if args.mode == "mirror":
                theirs = mine
            seat = "1" if i % 2 == 0 else "2"
            seed = derive_seed(*salt, i)
            totals[play(mine, theirs, seed, seat, args.map or "pillars", args.opponent)] += 1
    games = sum(totals.values())
    decided = totals["win"] + totals["loss"]
    print(f"greedy v {args.opponent} ({args.mode}), {games} games: {dict(sorted(totals.items()))}")
    print(
        f"  win rate {totals['win'] / games:.1%} of all games, "
        f"{totals['win'] / max(1, decided):.1%} of decided games"
    )


if __name__ == "__main__":
    main()
