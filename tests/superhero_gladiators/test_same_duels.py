"""Seeded duels play exactly as they did when these digests were recorded (version 7,
before the greedy bot kept its decisions by situation and the bot's world was made
faster): the greedy bot on sample pairs, teams of two and three on other maps, the
random bot and the search bot. A faster bot or world that chose another action, or
drew another die, anywhere in these games would fail here. The heroes are the version-7
samples (tests/version7_heroes/, as they were when the digests were recorded), so the
pins keep their meaning when the shipped samples are rebalanced."""

from __future__ import annotations

from pathlib import Path

import pytest

from contract import played_digest
from gladiatorium.games.superhero_gladiators import SuperheroGladiators
from gladiatorium.games.superhero_gladiators.commands.duel import duel_options, run_duel

GAME = SuperheroGladiators()
#: the version-7 sample heroes, named as the shipped samples are
VERSION_7 = Path(__file__).resolve().parent.parent / "version7_heroes"


def version7(team: str) -> str:
    """``1=cowboy,fred-the-giant`` -> the same team of version-7 hero files."""
    seat, _, names = team.partition("=")
    return seat + "=" + ",".join(str(VERSION_7 / f"{name}.yaml") for name in names.split(","))


#: two teams of three
THREES = (
    "1=cowboy,wizard-of-the-wild-hair-cult,perseus 2=barbarian,fred-the-giant,stranger-of-solarium"
)

#: (teams, map, bot, seed) -> (actions, digest of the actions, digest of the events)
RECORDED: dict[tuple[str, str, str, int], tuple[int, str, str]] = {
    ("1=cowboy 2=barbarian", "", "greedy", 0): (27, "a13793927cbbe8be", "348c4c7f5b2098de"),
    ("1=cowboy 2=barbarian", "", "greedy", 1): (40, "4329687cf3f725c4", "8cdb042b8493b732"),
    ("1=cowboy 2=barbarian", "", "greedy", 2): (30, "1ed8d8b64b8659fb", "3862a7a13781fa61"),
    ("1=barbarian 2=cowboy", "", "greedy", 0): (27, "a365a2d871bc068c", "131873f4f618553f"),
    ("1=barbarian 2=cowboy", "", "greedy", 1): (40, "b73a74e89bfcd27c", "2eeadc9a8f19571f"),
    ("1=barbarian 2=cowboy", "", "greedy", 2): (30, "f907f3d646aa17ba", "106dc3b49e886bef"),
    ("1=perseus 2=wizard-of-the-wild-hair-cult", "", "greedy", 0): (
        16,
        "fb1a98e364b6d5dc",
        "64b7bb0eaca7f9c8",
    ),
    ("1=perseus 2=wizard-of-the-wild-hair-cult", "", "greedy", 1): (
        14,
        "b2dffec6c43e550c",
        "deca00a5c17e8984",
    ),
    ("1=perseus 2=wizard-of-the-wild-hair-cult", "", "greedy", 2): (
        15,
        "a2de005ee502240c",
        "cf6cc121d649f7dc",
    ),
    ("1=giant-rubber-cement-archer 2=porcupine-boar-guy", "", "greedy", 0): (
        62,
        "1a4c8369f2a07556",
        "d86684367b18f500",
    ),
    ("1=giant-rubber-cement-archer 2=porcupine-boar-guy", "", "greedy", 1): (
        44,
        "61941ed4345b1af5",
        "e406f6484b56180a",
    ),
    ("1=giant-rubber-cement-archer 2=porcupine-boar-guy", "", "greedy", 2): (
        55,
        "2a46e7b1111c7f69",
        "5393a381209009b1",
    ),
    ("1=stranger-of-solarium 2=fred-the-giant", "", "greedy", 0): (
        36,
        "dc0c2adc47f45e50",
        "d8a4d3252100037c",
    ),
    ("1=stranger-of-solarium 2=fred-the-giant", "", "greedy", 1): (
        34,
        "2567d591f2da7f81",
        "9988c5872ad31a8f",
    ),
    ("1=stranger-of-solarium 2=fred-the-giant", "", "greedy", 2): (
        33,
        "8bb75fc627d0b65d",
        "a6e5a427494844c8",
    ),
    ("1=fred-the-giant 2=giant-rubber-cement-archer", "", "greedy", 0): (
        35,
        "c30b4247fe42cf92",
        "2f9ecb63cb2a54d8",
    ),
    ("1=fred-the-giant 2=giant-rubber-cement-archer", "", "greedy", 1): (
        35,
        "c30b4247fe42cf92",
        "5925c321c7182673",
    ),
    ("1=fred-the-giant 2=giant-rubber-cement-archer", "", "greedy", 2): (
        41,
        "b5e6f7c8c66e2446",
        "1fdc5dbbef398ebf",
    ),
    ("1=cowboy,fred-the-giant 2=perseus,barbarian", "pillars", "greedy", 0): (
        48,
        "88d4d3f25e74bf3a",
        "d42bd1ce374dd4f7",
    ),
    (
        "1=giant-rubber-cement-archer 2=stranger-of-solarium 3=porcupine-boar-guy",
        "colosseum",
        "greedy",
        0,
    ): (60, "a60c921aa90504cb", "6afef0c5d3664a40"),
    (
        THREES,
        "colosseum",
        "greedy",
        0,
    ): (72, "6b2f3aab78bd9642", "c6470082e5dd65f1"),
    ("1=cowboy,fred-the-giant 2=perseus,barbarian", "pillars", "greedy", 1): (
        257,
        "56d32dc68c81ee32",
        "5d7c84f8af2e0496",
    ),
    (
        "1=giant-rubber-cement-archer 2=stranger-of-solarium 3=porcupine-boar-guy",
        "colosseum",
        "greedy",
        1,
    ): (52, "ad5b392937ac4724", "5fdd47efdbdbdaa4"),
    (
        THREES,
        "colosseum",
        "greedy",
        1,
    ): (47, "105c4672094c73f2", "652eac7738d5d21a"),
    ("1=cowboy 2=perseus", "chasm", "random", 0): (282, "b6fde8ac67b3db1e", "26647d674cbd99eb"),
    ("1=wizard-of-the-wild-hair-cult 2=barbarian", "", "mcts:iterations=20", 0): (
        26,
        "a24b234ecdf632a3",
        "2606a64dcedb1f64",
    ),
}

#: the duels above that changed when an attacker beside its own area attack's target
#: square began to take half damage (C9), as they were recorded before: the option
#: ``area_spares_attacker`` plays them exactly so again
SPARED: dict[tuple[str, str, str, int], tuple[int, str, str]] = {
    ("1=perseus 2=wizard-of-the-wild-hair-cult", "", "greedy", 0): (
        16,
        "fa38f628cf8ef645",
        "6a588f8b74f569dd",
    ),
    ("1=perseus 2=wizard-of-the-wild-hair-cult", "", "greedy", 2): (
        10,
        "4ea951e10e31ac25",
        "011e8207816d8fca",
    ),
}

#: the wins by side and the mean turns of the batch below
BATCH: tuple[dict[str, int], float] = ({"Cowboy": 31, "Barbarian": 29}, 3.283333333333333)


def played(
    teams: str, map_name: str, bot: str, seed: int, **options: object
) -> tuple[int, str, str]:
    given = [version7(team) for team in teams.split(" ")]
    values = {**duel_options([], given, map_name or None), **options}
    state = GAME.start(GAME.make_options(values), len(values["teams"]), seed)
    return played_digest(GAME, state, bot, seed)


@pytest.mark.parametrize(("teams", "map_name", "bot", "seed"), list(RECORDED))
def test_a_seed_plays_the_recorded_duel(teams: str, map_name: str, bot: str, seed: int) -> None:
    assert played(teams, map_name, bot, seed) == RECORDED[(teams, map_name, bot, seed)]


@pytest.mark.parametrize(("teams", "map_name", "bot", "seed"), list(SPARED))
def test_the_attacker_spared_plays_as_before_c9_followed_the_text(
    teams: str, map_name: str, bot: str, seed: int
) -> None:
    spared = played(teams, map_name, bot, seed, area_spares_attacker=True)
    assert spared == SPARED[(teams, map_name, bot, seed)]
    assert spared != RECORDED[(teams, map_name, bot, seed)]


def test_a_batch_of_duels_ends_as_recorded() -> None:
    """``gladiatorium duel cowboy barbarian --games 60 --seed 0``: a batch's duels meet
    the same situations over and over, as the kept decisions do."""
    heroes = [str(VERSION_7 / "cowboy.yaml"), str(VERSION_7 / "barbarian.yaml")]
    values = duel_options(heroes, [], None)
    result = run_duel(values, 60, 0, None, 1)
    assert (result["wins"], result["mean_turns"]) == BATCH
