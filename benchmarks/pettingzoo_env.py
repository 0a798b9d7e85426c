"""What the PettingZoo environments cost: per game, agent steps per second of whole
episodes of masked random actions through the environment (an observation and a mask
read before every step), beside the actions per second of the same number of random-bot
games played on the engine alone.

    .venv/bin/python benchmarks/pettingzoo_env.py [--episodes N] [--only SLUG ...]

The environment needs the rl extra (the development install has it).
"""

from __future__ import annotations

import argparse
import time

from gladiatorium.core import games, get_game
from gladiatorium.core.match import make_bots, run_match
from gladiatorium.games import load
from gladiatorium.lab.pettingzoo_env import env


def environment_steps(slug: str, episodes: int) -> tuple[float, int]:
    """Seconds and agent steps of ``episodes`` episodes through the environment."""
    environment, steps = env(slug), 0
    start = time.perf_counter()
    for seed in range(episodes):
        environment.reset(seed=seed)
        for agent in environment.agent_iter():
            observation, _, terminated, truncated, _ = environment.last()
            if terminated or truncated:
                environment.step(None)
                continue
            environment.step(environment.action_space(agent).sample(observation["action_mask"]))
            steps += 1
    return time.perf_counter() - start, steps


def engine_actions(slug: str, episodes: int) -> tuple[float, int]:
    """Seconds and actions of ``episodes`` random-bot games on the engine alone."""
    game, actions = get_game(slug), 0
    start = time.perf_counter()
    for seed in range(episodes):
        state = game.start(None, None, seed)
        run_match(state, make_bots(game, seed, dict.fromkeys(state.seats, "random")))
        actions += len(state.history)
    return time.perf_counter() - start, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=20)
    parser.add_argument("--only", nargs="*", default=None)
    args = parser.parse_args()
    load()
    print(f"{'game':22} {'env steps/s':>12} {'engine actions/s':>17} {'ratio':>6}")
    for game in games():
        slug = game.info.slug
        if args.only and slug not in args.only:
            continue
        env_seconds, steps = environment_steps(slug, args.episodes)
        engine_seconds, actions = engine_actions(slug, args.episodes)
        env_rate, engine_rate = steps / env_seconds, actions / engine_seconds
        print(f"{slug:22} {env_rate:12,.0f} {engine_rate:17,.0f} {env_rate / engine_rate:6.2f}")


if __name__ == "__main__":
    main()
