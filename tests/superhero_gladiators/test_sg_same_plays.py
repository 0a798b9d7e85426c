"""Seeded matches play exactly as they did when these digests were recorded (before
the legal lists and the end of each action were made quicker): the random bot's and
the greedy bot's matches, in the default match (Cowboy v Perseus), other sample pairs,
teams of three on the colosseum, four teams on the chasm, and options that change
moves, blasts and copying on the pillars. A quicker listing that offered other
actions, or the same in another order, would draw other actions from the same seed
and fail here."""

from __future__ import annotations

from typing import Any

import pytest
from sample_matches import MATCHES, players

from contract import played_digest
from gladiatorium.games.superhero_gladiators import SuperheroGladiators

GAME = SuperheroGladiators()


#: (bot, seed, match) -> (actions, digest of the actions, digest of the events)
RECORDED: dict[tuple[str, int, str], tuple[int, str, str]] = {
    ("random", 0, "default"): (286, "586c2120361334c9", "3e6869aa53178eb9"),
    ("random", 1, "default"): (282, "0aa64078ca58d675", "215ff1862d644b6c"),
    ("random", 2, "default"): (284, "3b4de7e53b0db936", "cb7f6afed2676c98"),
    ("random", 0, "barbarian v fred"): (244, "22b088550dd34558", "42b810c409a16ef5"),
    ("random", 0, "wizard v stranger"): (402, "9116e975f368b0e2", "54f80f28e48293de"),
    ("random", 0, "boar v archer"): (362, "5640484f7bdcb2d9", "fd7de2bfce57c263"),
    ("random", 0, "threes on the colosseum"): (927, "680273cbd68f23b3", "9f44c812d80316b0"),
    ("random", 0, "four on the chasm"): (646, "10a52633f2360ef7", "029c480156c11943"),
    ("random", 0, "house rules on the pillars"): (644, "4c01f179813efc28", "137f6206493a2868"),
    ("greedy", 0, "default"): (18, "e8412ca65a3d1696", "4a33e4359f116663"),
    ("greedy", 5, "default"): (23, "d52741dc9458c963", "2a90df9096f144f0"),
    ("greedy", 0, "greedy wizards on the pillars"): (49, "131fc3ac9368e2a5", "a865fae02a85c531"),
}


def played(bot: str, seed: int, options: dict[str, Any]) -> tuple[int, str, str]:
    return played_digest(GAME, GAME.start(options or None, players(options), seed), bot, seed)


@pytest.mark.parametrize(("bot", "seed", "match"), list(RECORDED))
def test_a_seed_plays_the_recorded_match(bot: str, seed: int, match: str) -> None:
    assert played(bot, seed, MATCHES[match]) == RECORDED[(bot, seed, match)]
