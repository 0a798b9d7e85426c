"""Every decision point of seeded matches writes as a position and reads back as the
same match (tests/positions.py): the set-up's choices of power, a round with some
heroes' choices made and others' not, heroes done, the match over; with the next dice
forced, written as the position's ``dice:``; and a seat's position leaves the other
heroes' choices of the round open."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from gladiatorium.core import Observation, Rng, State
from gladiatorium.core.match import make_bots
from gladiatorium.games.super_dice_heroes import GAME
from positions import every_step_problems

#: short matches under the options that change what a position keeps
OPTION_SETS: dict[str, dict[str, Any]] = {
    "default": {"rounds": 3, "dice_per_round": 3},
    "no-waste": {"rounds": 2, "may_waste_dice": False, "power_uses": 1},
    "last-resort": {"rounds": 2, "minions_last_resort": True, "ties": "bystanders"},
}
PLAYERS = (1, 2, 3)
MATCHES = [
    (name, players, seed) for name in OPTION_SETS for players in PLAYERS for seed in range(6)
]


def decision_points(name: str, players: int, seed: int) -> Iterator[State[Any]]:
    """Every decision point of the seeded match of random bots (the state before each
    action, any awaited hero acting), its end last."""
    state = GAME.start(OPTION_SETS[name], players, seed)
    bots = make_bots(GAME, seed, dict.fromkeys(state.seats, "random"))
    turn = 0
    while state.awaiting():
        yield state
        awaited = state.awaiting()
        seat = awaited[(seed + turn) % len(awaited)]
        turn += 1
        state.apply(seat, bots[seat].choose(Observation(GAME, state, seat)))
    yield state


def forced(state: State[Any], seed: int) -> State[Any]:
    """A copy of ``state`` whose next dice are forced: d6s rolled from a seeded Rng,
    enough for the next round's roll."""
    copy = state.clone()
    copy.rng.queue(Rng(seed).roll(8, 6))
    return copy


@pytest.mark.parametrize(("name", "players", "seed"), MATCHES)
def test_every_decision_point_round_trips(name: str, players: int, seed: int) -> None:
    problems = every_step_problems(
        GAME,
        decision_points(name, players, seed),
        seed,
        lambda state, step: forced(state, seed * 1000 + step),
        forced_every=3,
        seats_every=5,
    )
    assert problems == [], (name, players, seed)
