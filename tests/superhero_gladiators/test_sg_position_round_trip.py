"""Every decision point of seeded matches writes as a position and reads back as the
same match (tests/positions.py): a hero placing, a hero's action on its segment with
its movement already rolled, hits waiting for their defences, a copied attack held, a
hidden gizmo being revealed, the match over; with the next dice forced, written as the
position's ``dice:``; and a seat's position keeps what the seat may not know out."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gladiatorium.core import Observation, Rng, State
from gladiatorium.core.match import make_bots
from gladiatorium.games.superhero_gladiators import GAME
from gladiatorium.games.superhero_gladiators.hero_files import hero_to_data, load_hero_file
from positions import every_step_problems

#: the version-7 samples: their seeded matches reach every decision a position writes
#: (with the version-8 Wizard, none of the copies matches below reaches a grapple)
VERSION_7 = Path(__file__).resolve().parent.parent / "version7_heroes"


def team(*stems: str) -> list[dict[str, Any]]:
    """A team of version-7 sample heroes, as option data."""
    heroes = [load_hero_file(VERSION_7 / f"{stem}.yaml").hero for stem in stems]
    return [hero_to_data(hero) for hero in heroes if hero is not None]


#: duels of the samples (the default match: the shipped ones), under the options that
#: change what a position keeps: the default (Perseus' hidden Harpe), two a side, and the
#: Wizard's copy power
OPTION_SETS: dict[str, dict[str, Any]] = {
    "default": {"turn_limit": 4},
    "pairs": {
        "teams": [team("stranger-of-solarium", "fred-the-giant"), team("cowboy", "perseus")],
        "turn_limit": 2,
    },
    "copies": {
        "teams": [team("wizard-of-the-wild-hair-cult"), team("barbarian")],
        "turn_limit": 4,
        "copy_on_any_hit": True,
    },
}
SEEDS = range(17)
MATCHES = [(name, seed) for name in OPTION_SETS for seed in SEEDS]


def decision_points(name: str, seed: int) -> Iterator[State[Any]]:
    """Every decision point of the seeded match of random bots (the state before each
    action), its end last."""
    state = GAME.start(OPTION_SETS[name], None, seed)
    bots = make_bots(GAME, seed, dict.fromkeys(state.seats, "random"))
    while state.awaiting():
        yield state
        seat = state.awaiting()[0]
        state.apply(seat, bots[seat].choose(Observation(GAME, state, seat)))
    yield state


def forced(state: State[Any], seed: int) -> State[Any]:
    """A copy of ``state`` whose next dice are forced: d20s rolled from a seeded Rng."""
    copy = state.clone()
    copy.rng.queue(Rng(seed).roll(10, 20))
    return copy


@pytest.mark.parametrize(("name", "seed"), MATCHES)
def test_every_decision_point_round_trips(name: str, seed: int) -> None:
    problems = every_step_problems(
        GAME,
        decision_points(name, seed),
        seed,
        lambda state, step: forced(state, seed * 1000 + step),
        forced_every=4,
        seats_every=8,
    )
    assert problems == [], (name, seed)
