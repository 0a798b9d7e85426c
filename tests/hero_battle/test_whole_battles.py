"""Whole Battles with mixes of optional rules: every compiled round adds up."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hb_helpers import GAME

from gladiatorium.core.match import make_bots, run_match

MIXES: list[dict[str, Any]] = [
    {},
    {"random_player": True, "teams": True, "anonymous_every": 3},
    {"zombies": True, "hand_of_god": True, "hand_of_god_every": 2, "resurrection_every": 5},
    {"double_hits_always": True, "guesses_per_round": 2, "public_guesses": True},
    {"heroes_per_player": 2, "random_player": True, "abstainers_get_no_move": True},
]


def check_round(report: dict[str, Any], hp_per_hit: int = 1) -> None:
    """HP after = HP before + the listed changes; in public rounds the hits listed
    per hero equal the hits posted, abstention hits and Random Player's hit."""
    for hero, hp in report["hp"].items():
        change = report["changes"].get(hero, {}).get("total", 0)
        assert hp == report["hp_before"][hero] + change, (report["round"], hero)
    if report["anonymous"]:
        return
    posted: Counter[str] = Counter()
    for move in report["moves"].values():
        posted.update(move.get("hits", []))
        if move.get("random_hit"):
            posted[move["random_hit"]] += 1
    if report["random_player_hit"]:
        posted[report["random_player_hit"]] += 1
    for hero in report["hp"]:
        listed = report["changes"].get(hero, {}).get("hits", 0)
        assert listed == -hp_per_hit * posted[hero], (report["round"], hero)


@pytest.mark.parametrize("options", MIXES)
def test_whole_battle_adds_up(options: dict[str, Any]) -> None:
    """From sign-ups to the last hero: bots in every seat, every round checked."""
    state = GAME.start(options, 12, seed=21)
    names = {s: ("inferrer", "hunter", "random-move")[i % 3] for i, s in enumerate(state.seats)}
    run_match(state, make_bots(GAME, 21, names), max_actions=10_000)
    assert state.outcome() is not None
    assert state.reports
    for report in state.reports:
        check_round(report)
