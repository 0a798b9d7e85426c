"""Seeded games play exactly as they did when these digests were recorded (version
before the spends were handed out as ready-made values): the random bot's, the greedy
bot's and the planner's games, with one to five heroes and under options that change
what may be spent. A faster listing that offered other spends, or the same in another
order, would draw other actions from the same seed and fail here."""

from __future__ import annotations

import json
from typing import Any

import pytest

from contract import played_digest
from gladiatorium.games.super_dice_heroes import SuperDiceHeroes

GAME = SuperDiceHeroes()

#: options that change what may be spent, and when
HOUSE = {
    "may_waste_dice": True,
    "minions_last_resort": True,
    "ties": "bystanders",
    "dice_per_round": 6,
    "power_uses": 5,
    "reroll_power_doubles": False,
}

#: (bot, players, seed, options) -> (actions, digest of the actions, digest of the events)
RECORDED: dict[tuple[str, int, int, str], tuple[int, str, str]] = {
    ("random", 2, 0, "{}"): (108, "d009c2b1f49c9abb", "f0deff3ffe078f4a"),
    ("random", 2, 1, "{}"): (108, "de77f1f74178d0ce", "9f7c003bf4f36218"),
    ("random", 1, 0, "{}"): (54, "439ea489354c558e", "cedd8facac80f9cb"),
    ("random", 3, 2, "{}"): (160, "b62bda6f1652b2c6", "ef72d6918f3c0abb"),
    ("random", 5, 3, "{}"): (269, "be61407d3e75562e", "ebac35f3cdfe1895"),
    ("random", 3, 0, json.dumps(HOUSE)): (153, "cc99218fc8deecb3", "75e24279d68c04b3"),
    ("random", 4, 1, '{"dice_per_round": 2, "rounds": 5, "power_uses": 0}'): (
        65,
        "281f285cfe327c4a",
        "e5fc2a6967eaf165",
    ),
    ("greedy", 3, 0, "{}"): (156, "fa1faae9ef9c14c8", "fbd7f598f43822bd"),
    ("planner", 3, 0, '{"may_waste_dice": true, "minions_last_resort": true}'): (
        169,
        "4f5b4cf7fb016751",
        "95f7386ec8682194",
    ),
}


def played(bot: str, players: int, seed: int, options: dict[str, Any]) -> tuple[int, str, str]:
    return played_digest(GAME, GAME.start(options or None, players, seed), bot, seed)


@pytest.mark.parametrize(("bot", "players", "seed", "options"), list(RECORDED))
def test_a_seed_plays_the_recorded_game(bot: str, players: int, seed: int, options: str) -> None:
    recorded = RECORDED[(bot, players, seed, options)]
    assert played(bot, players, seed, json.loads(options)) == recorded
