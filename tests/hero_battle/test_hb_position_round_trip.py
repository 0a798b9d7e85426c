"""Every decision point of seeded Battles writes as a position and reads back as the
same Battle (tests/positions.py): a round started with its Hand of God effect, forced
abstainers and Random Player's hit, moves and guesses posted (and edited), the round
reports and guess results, the Battle over; with the next draws forced, written as the
position's ``dice:``; and a player's position leaves the other players' secrets open."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from gladiatorium.core import ForcedDiceExhausted, OptionsError, State
from gladiatorium.games.hero_battle import GAME
from positions import CONTINUATION, every_step_problems

#: short Battles of four (fewer than a forum Battle's eight: the rules hold for any
#: number with two nemeses each, and a round's moves stay few) under the options that
#: change what a round's start draws or what a position must keep
SHORT: dict[str, Any] = {"starting_hp": 4, "max_rounds": 2}
OPTION_SETS: dict[str, dict[str, Any]] = {
    "default": {},
    "hand-of-god": {
        "hand_of_god": True,
        "hand_of_god_every": 1,
        "random_player": True,
        "forced_abstainers": 2,
    },
    "zombies": {"zombies": True, "anonymous_every": 2, "resurrection_every": 3},
    "teams": {"teams": True, "public_guesses": True, "guesses_per_round": 2},
    "two-heroes": {"heroes_per_player": 2, "anonymous_after_death": True, "tie": "draw"},
}
PLAYERS = 4
SEEDS = range(10)
MATCHES = [(name, seed) for name in OPTION_SETS for seed in SEEDS]


def decision_points(name: str, seed: int) -> Iterator[State[Any]]:
    """Every decision point of a seeded Battle of random actions by any awaited seat
    (moves edited, guesses sent, the moderator closing early), its end last."""
    state = GAME.new_state(GAME.make_options({**SHORT, **OPTION_SETS[name]}), PLAYERS, seed)
    choose = random.Random(seed)
    while state.awaiting():
        yield state
        awaited = state.awaiting()
        seat = awaited[choose.randrange(len(awaited))]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[choose.randrange(len(legal))])
    yield state


def forced(state: State[Any], seed: int, chooser: int) -> State[Any]:
    """A copy of ``state`` whose next draws are forced: each the lowest its draw allows
    or one more, from a seeded Random, for the draws the round trip's continuation
    (tests/positions.py, the same ``chooser``) makes: found by playing it on with the
    dice forced so far until none is missing."""
    pick = random.Random(seed)
    dice: list[int] = []
    while len(dice) < 40:
        probe = state.clone()
        probe.rng.force(dice)
        try:
            _continue(probe, chooser)
        except ForcedDiceExhausted as err:  # "... a draw in LOW..HIGH"
            low, high = map(int, str(err).rsplit(" ", 1)[1].split(".."))
            dice.append(min(high, low + pick.randrange(2)))
            continue
        break
    copy = state.clone()
    copy.rng.queue([*dice, 0])
    return copy


def _continue(state: State[Any], chooser: int) -> None:
    """The continuation round_trip_problems plays (the same choices)."""
    choose = random.Random(chooser)
    for _ in range(CONTINUATION):
        awaited = state.awaiting()
        if not awaited:
            return
        seat = awaited[choose.randrange(len(awaited))]
        legal = list(state.legal_actions(seat))
        state.apply(seat, legal[choose.randrange(len(legal))])


@pytest.mark.parametrize(("name", "seed"), MATCHES)
def test_every_decision_point_round_trips(name: str, seed: int) -> None:
    problems = every_step_problems(
        GAME,
        decision_points(name, seed),
        seed,
        lambda state, step: forced(state, seed * 1000 + step, step),
        forced_every=4,
        seats_every=6,
    )
    assert problems == [], (name, seed)


def test_the_moderators_position_is_the_whole_truth() -> None:
    """The moderator knows every secret: that seat's position is the whole truth."""
    for step, state in enumerate(decision_points("hand-of-god", 3)):
        if step % 5 == 0:
            assert GAME.write_position(state, "moderator") == GAME.write_position(state)
    with pytest.raises(OptionsError, match="no seat '9'"):
        GAME.write_position(state, "9")
