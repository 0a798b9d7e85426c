"""Every decision point of seeded matches writes as a position and reads back as the
same match (tests/positions.py): the King's decision or a commander's move, a slot
the King let, commanders who forfeited their move, the last move's fights, a match
over; and with the next dice forced, written as the position's ``dice:``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from gladiatorium.core import Observation, Rng, State
from gladiatorium.core.match import make_bots
from gladiatorium.games.gladiator_chess import GladiatorChess
from positions import every_step_problems

GAME = GladiatorChess()

#: the armies close together, so that random matches fight, take queens and end
#: within a few turns
MELEE = """
white K f3
white Q g3
white KK c3
white MK j3
white S d4
white BK e4
white C h4
white S i4
white F e5
white W f5
white W g5
white SQ h5
black F e6 2
black W f6
black W g6
black SQ h6
black S d7
black BK e7
black C h7
black S i7
black KK c8
black K f8
black Q g8
black MK j8
"""
SHORT: dict[str, Any] = {"turn_limit": 4, "queen_hold_turns": 1}

#: the options that change what a slot offers or what a position must keep
OPTION_SETS: dict[str, dict[str, Any]] = {
    "default": {},
    "team-blocks": {"order": "team-blocks"},
    "no-override": {"king_may_override": False},
    "king-moves-any": {"king_slot_moves_any": True, "check_answer": "as-if-won"},
    "partial-heal": {"queen_heal_amount": 1, "fight_to_the_fall": True},
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
    enough for the fights of a few moves."""
    copy = state.clone()
    copy.rng.queue(Rng(seed).roll(12, 6))
    return copy


@pytest.mark.parametrize(("name", "seed"), MATCHES)
def test_every_decision_point_round_trips(name: str, seed: int) -> None:
    problems = every_step_problems(
        GAME,
        decision_points(name, seed),
        seed,
        lambda state, step: forced(state, seed * 1000 + step),
        forced_every=4,
        seats_every=16,
    )
    assert problems == [], (name, seed)


def test_the_matches_reach_the_decisions_a_position_must_write() -> None:
    """The seeded matches above pass through a slot the King let, forfeited moves,
    fights, a frozen piece, a captive Queen, a checkmate and the turn limit (the other
    endings: the scenarios of test_gc_positions.py)."""
    seen: set[str] = set()
    for name, seed in MATCHES:
        for state in decision_points(name, seed):
            for line in GAME.write_position(state).splitlines():
                seen.add(line if line.startswith("result") else line.split()[0])
    expected = {"let", "healed", "forfeited", "combat", "frozen", "captive", "offer"}
    assert expected <= seen
    assert {"result draw", "result white checkmate", "result black checkmate"} <= seen
