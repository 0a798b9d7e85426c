"""Whole Battles with mixes of optional rules: every compiled round matches a hand
calculation made from the round's public report and the moderator's secret lists."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hb_helpers import GAME

from gladiatorium.core.match import make_bots, run_match
from gladiatorium.games.hero_battle import HeroBattleState

MIXES: list[dict[str, Any]] = [
    {},
    {"random_player": True, "teams": True, "anonymous_every": 3},
    {"zombies": True, "hand_of_god": True, "hand_of_god_every": 2, "resurrection_every": 5},
    {"double_hits_always": True, "guesses_per_round": 2, "public_guesses": True},
    {"heroes_per_player": 2, "random_player": True, "abstainers_get_no_move": True},
    {"outing_kills": True, "nemesis_bonus": 5, "correct_guess_bonus": 2, "starting_hp": 8},
]


def expected_parts(state: HeroBattleState, report: dict[str, Any]) -> dict[str, Counter[str]]:
    """The HP changes of one round by hand: hits and heals as posted, abstention and
    Random Player hits, call-outs, nemesis bonuses to each player's lead hero."""
    opts = state.options
    parts: dict[str, Counter[str]] = {h: Counter() for h in report["hp"]}
    heal = opts.hp_per_heal * (2 if report["effect"] == "double-heals" else 1)
    for move in report["moves"].values():
        for hero in move.get("hits", []):
            parts[hero]["hits"] -= opts.hp_per_hit
        for hero in move.get("heals", []):
            parts[hero]["heals"] += heal
        if move.get("random_hit"):
            parts[move["random_hit"]]["hits"] -= opts.hp_per_hit
    if report["random_player_hit"]:
        parts[report["random_player_hit"]]["hits"] -= opts.hp_per_hit
    right = Counter(c["target"] for c in report["calls"] if c["correct"])
    for call in report["calls"]:
        if call["correct"]:
            extra = right[call["target"]] - 1
            bonus = max(0, opts.correct_guess_bonus - opts.shared_guess_reduction * extra)
            parts[call["caller"]]["guess"] += bonus
        else:
            parts[call["caller"]]["bad_call"] -= opts.bad_call_penalty
    for target in right:
        if state.heroes[target].player != "random":
            parts[target]["outing"] -= opts.outing_penalty
    bonus = opts.nemesis_bonus * (2 if report["effect"] == "double-nemesis-bonus" else 1)
    died = {d["hero"] for d in report["deaths"]}
    for seat, pair in state.nemeses.items():
        mine = sorted(h.name for h in state.heroes_of(seat))
        living = [h for h in mine if report["status"][h] == "alive"]
        count = len(died & set(pair))
        if living and count and bonus:
            parts[living[0]]["nemesis"] += bonus * count
    return parts


def check_round(state: HeroBattleState, report: dict[str, Any]) -> None:
    """HP after = HP before + changes; hits, heals, guesses and nemesis bonuses are the
    hand calculation's (hits only in public rounds; a killing call-out, teamwork and
    a Zombie's cancelled gains are taken as listed); no abstention hit lands on the
    abstainer's own hero unless that hero is a Zombie."""
    expected = expected_parts(state, report)
    for hero, hp in report["hp"].items():
        listed = report["changes"].get(hero, {})
        assert hp == report["hp_before"][hero] + listed.get("total", 0), (report["round"], hero)
        checked = ["heals", "guess", "bad_call", "outing", "nemesis"]
        checked += [] if report["anonymous"] else ["hits"]
        for part in checked:
            assert listed.get(part, 0) == expected[hero][part], (report["round"], hero, part)
    for seat, move in report["moves"].items():
        target = move.get("random_hit")
        if target is not None and state.heroes[target].player == seat:
            assert report["hp_before"][target] <= 0, (report["round"], seat, "own hero")


@pytest.mark.parametrize("options", MIXES)
def test_whole_battle_adds_up(options: dict[str, Any]) -> None:
    """From sign-ups to the last hero: bots in every seat, every round checked."""
    state = GAME.start(options, 12, seed=21)
    assert isinstance(state, HeroBattleState)
    names = {s: ("inferrer", "hunter", "random-move")[i % 3] for i, s in enumerate(state.seats)}
    run_match(state, make_bots(GAME, 21, names), max_actions=10_000)
    assert state.outcome() is not None
    assert state.reports
    for report in state.reports:
        check_round(state, report)
    kinds = Counter(p for r in state.reports for c in r["changes"].values() for p in c)
    assert kinds["hits"] and kinds["heals"] and kinds["nemesis"]
