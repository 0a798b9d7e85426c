"""Seeded games play exactly as they did when these digests were recorded (version 3,
before the move generation was made faster): the random bot's and the Marshal's games,
under the default rules and under options that change the turn and the judgement of
moves. A faster generation that offered other moves, or the same in another order,
would draw other actions from the same seed and fail here."""

from __future__ import annotations

import json
from typing import Any

import pytest

from contract import played_digest
from gladiatorium.games.gladiator_chess import GladiatorChess

GAME = GladiatorChess()

#: (bot, seed, options) -> (actions, digest of the actions, digest of the events)
RECORDED: dict[tuple[str, int, str], tuple[int, str, str]] = {
    ("random", 0, "{}"): (94, "7c86a8066a91262a", "95beffa6edb968cc"),
    ("random", 1, "{}"): (88, "a9d2b82030c457c8", "dead4d04d8d997d9"),
    ("random", 2, "{}"): (235, "9a1a69c627e2842c", "bbb005a6b9bcae4e"),
    ("random", 3, "{}"): (252, "686b58a5ad3e7e76", "e269a648c3efcbe9"),
    ("random", 4, "{}"): (357, "1520127172b63bca", "81ac6e322550cad3"),
    ("random", 5, "{}"): (155, "f88801031ca61cd1", "a8e48f2c37e9df1b"),
    ("random", 0, '{"order": "team-blocks"}'): (217, "2ea079d7eb415bbe", "0f46a74c013f2312"),
    ("random", 0, '{"champion_leaps": true, "fight_to_the_fall": true}'): (
        239,
        "da7b14bbc9443766",
        "d2544c107807592c",
    ),
    ("random", 0, '{"king_may_override": false}'): (231, "ce00d0fd34471443", "703a70a83bd49619"),
    ("marshal", 0, "{}"): (73, "a945fa33df73217a", "8b61cdb4da86d209"),
}


def played(bot: str, seed: int, options: dict[str, Any]) -> tuple[int, str, str]:
    return played_digest(GAME, GAME.start(options or None, None, seed), bot, seed)


@pytest.mark.parametrize(("bot", "seed", "options"), list(RECORDED))
def test_a_seed_plays_the_recorded_game(bot: str, seed: int, options: str) -> None:
    assert played(bot, seed, json.loads(options)) == RECORDED[(bot, seed, options)]
