"""Every decision point of seeded matches writes as a position and reads back as the
same match (tests/positions.py): a turn's start, a move under way (the mover, the
points spent, a Scout's free turn), the move or the attack made, a Scout's dodge
pending, the quiet-turn count, a match over; and with the next dice forced, written as
the position's ``dice:``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from eg_helpers import GAME, setup_text

from gladiatorium.core import Observation, Rng, State
from gladiatorium.core.match import make_bots
from positions import every_step_problems

#: the two sides close together on a small patch of the arena, a Scout and a flyer
#: each, so that random matches fight, dodge, fly and end within a few turns
MELEE = setup_text(
    [
        "1 HT2 H8 S",
        "1 LT J8 S",
        "1 SC K9 SE",
        "1 MQ G9 -",
        "1 INV L7 -",
        "2 MT2 H13 N",
        "2 MT1 K13 NW",
        "2 SC I12 N",
        "2 MQ L12 -",
        "2 INV F13 -",
    ],
    obstacles="I10 J11 G11",
    walls="K11",
)
SHORT: dict[str, Any] = {"max_turns": 14, "draw_after_quiet_turns": 6}

#: the options that change what a turn offers or what a position must keep
OPTION_SETS: dict[str, dict[str, Any]] = {
    "default": {},
    "free-turn-is-a-move": {"scout_free_turn_is_a_move": True, "scout_attack_angle": 90},
    "old-flyers": {"flyers_pass_vehicles": False, "inverter_field_is_attack": False},
    "paid-turns": {"scout_free_turns": False, "overcome": "greater-or-equal"},
    "self-spotting": {"self_spotting": True, "mosquito_attacks_mosquitos": True},
}
SEEDS = range(10)
MATCHES = [(name, seed) for name in OPTION_SETS for seed in SEEDS]


def decision_points(name: str, seed: int) -> Iterator[State[Any]]:
    """Every decision point of the seeded match of random bots under ``name``'s options
    (the state before each action), its end last."""
    state = GAME.start({**SHORT, **OPTION_SETS[name]}, None, seed, position=MELEE)
    bots = make_bots(GAME, seed, dict.fromkeys(state.seats, "random"))
    while state.awaiting():
        yield state
        seat = state.awaiting()[0]
        state.apply(seat, bots[seat].choose(Observation(GAME, state, seat)))
    yield state


def forced(state: State[Any], seed: int) -> State[Any]:
    """A copy of ``state`` whose next dice are forced: d6s rolled from a seeded Rng,
    enough for the attacks on Scouts and Mosquitos of a few turns."""
    copy = state.clone()
    copy.rng.queue(Rng(seed).roll(6, 6))
    return copy


@pytest.mark.parametrize(("name", "seed"), MATCHES)
def test_every_decision_point_round_trips(name: str, seed: int) -> None:
    problems = every_step_problems(
        GAME,
        decision_points(name, seed),
        seed,
        lambda state, step: forced(state, seed * 1000 + step),
        forced_every=3,
        seats_every=10,
    )
    assert problems == [], (name, seed)


def test_the_matches_reach_the_decisions_a_position_must_write() -> None:
    """The seeded matches above pass through a move under way, a Scout's free turn, the
    move and the attack made, a dodge pending, losses, quiet turns and three endings
    (the others: the scenarios of test_eg_positions.py)."""
    seen: set[str] = set()
    for name, seed in MATCHES:
        for state in decision_points(name, seed):
            for line in GAME.write_position(state).splitlines():
                seen.add(line if line.startswith(("result", "free-turn")) else line.split()[0])
    expected = {"quiet", "lost-this-turn", "mover", "spent", "move-over", "attacked", "dodge"}
    assert expected <= seen
    assert {"free-turn", "free-turn last"} <= seen
    assert {"result draw quiet-turns", "result draw turn-limit", "result 1 knockout"} <= seen
