"""The round trip of written positions, checked at any decision point of any game:
``write_position`` then ``load_position`` gives the same match (legal actions, every
seat's view, the same continuation for the same seed), and a seat's position holds
only what that seat may know."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from gladiatorium.core import Game, Observation, Seat, State
from gladiatorium.core.match import make_bots

#: actions played on after a round trip, on the match and on its written copy alike
CONTINUATION = 6


def loaded(game: Game[Any], state: State[Any], text: str, seed: int) -> State[Any]:
    """The match written in ``text``, loaded with the options and players of ``state``."""
    copy = game.load_position(state.options, state.players, seed, text, "round trip")
    copy.position = text
    return copy


def same_dice(state: State[Any], seed: int) -> State[Any]:
    """A copy of ``state`` whose dice are those a position loaded with ``seed`` rolls:
    its next dice (forced or queued) first, then the seed's stream."""
    copy = state.clone(reseed=seed)
    copy.rng.queue(state.rng.next_dice())
    return copy


def picture(state: State[Any]) -> dict[str, Any]:
    """What the round trip must keep: who is awaited, their legal actions in order,
    every seat's view and the spectators', the outcome."""
    return {
        "awaiting": list(state.awaiting()),
        "legal": {s: [str(a) for a in state.legal_actions(s)] for s in state.awaiting()},
        "views": {str(s): state.view(s) for s in (*state.seats, None)},
        "outcome": repr(state.outcome()),
    }


def differences(before: Any, after: Any, where: str) -> list[str]:
    """The first difference of two JSON-like values, by path (empty when equal)."""
    if json.dumps(before, sort_keys=True, default=repr) == json.dumps(
        after, sort_keys=True, default=repr
    ):
        return []
    if isinstance(before, dict) and isinstance(after, dict):
        for key in sorted(set(before) | set(after), key=str):
            found = differences(before.get(key), after.get(key), f"{where}.{key}")
            if found:
                return found
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for index, (one, two) in enumerate(zip(before, after, strict=True)):
            found = differences(one, two, f"{where}[{index}]")
            if found:
                return found
    return [f"{where}: {before!r:.300} != {after!r:.300}"]


def round_trip_problems(
    game: Game[Any], state: State[Any], seed: int, chooser: int = 0
) -> list[str]:
    """Everything the whole-truth position of ``state`` fails to keep: the picture, the
    text itself written again, and :data:`CONTINUATION` actions played on both with the
    same choices (events, picture after each)."""
    text = game.write_position(state)
    copy = loaded(game, state, text, seed)
    problems = differences(picture(state), picture(copy), "loaded")
    problems += differences(text, game.write_position(copy), "written again")
    original = same_dice(state, seed)
    choose = random.Random(chooser)
    for step in range(CONTINUATION):
        awaited = original.awaiting()
        if not awaited or problems:
            break
        seat = awaited[choose.randrange(len(awaited))]
        legal = list(original.legal_actions(seat))
        action = legal[choose.randrange(len(legal))]
        told = [e.to_json() for e in original.apply(seat, action)]
        told_copy = [e.to_json() for e in copy.apply(seat, action)]
        problems += differences(told, told_copy, f"step {step} ({seat} {action}) events")
        problems += differences(picture(original), picture(copy), f"step {step}")
    return problems


def seat_position_problems(game: Game[Any], state: State[Any], seat: Seat, seed: int) -> list[str]:
    """What the position written for ``seat`` gets wrong: loaded, it must give the seat
    the same view and legal actions; written from a state that differs only in what the
    seat may not know (the game's secret twin), it must be the same text."""
    text = game.write_position(state, seat)
    copy = loaded(game, state, text, seed)
    problems = differences(state.view(seat), copy.view(seat), f"seat {seat} view")
    problems += differences(
        [str(a) for a in state.legal_actions(seat)],
        [str(a) for a in copy.legal_actions(seat)],
        f"seat {seat} legal",
    )
    twin = game.secret_twin(state, seat)
    if twin is not None:
        problems += differences(text, game.write_position(twin, seat), f"seat {seat} twin text")
    return problems


def seeded_match(game: Game[Any], seed: int, players: int | None = None) -> Iterator[State[Any]]:
    """Every decision point of a seeded match of random bots (the state before each
    action; the final state last)."""
    state = game.start(None, players, seed)
    bots = make_bots(game, seed, dict.fromkeys(state.seats, "random"))
    while state.awaiting():
        yield state
        seat = state.awaiting()[0]
        state.apply(seat, bots[seat].choose(Observation(game, state, seat)))
    yield state


def every_step_problems(
    game: Game[Any],
    states: Iterable[State[Any]],
    seed: int,
    forced: Callable[[State[Any], int], State[Any]],
    forced_every: int,
    seats_every: int,
) -> list[str]:
    """What the round trip fails to keep at the first step of a match that fails:
    every step whole (loaded with ``seed + 500``); every ``forced_every`` steps the same
    with the next dice forced (``forced(state, step)``: a copy, its dice written once
    as ``dice:``; loaded with ``seed + 700``); every ``seats_every`` steps each seat's
    position. A match of one decision or none is a problem too (nothing was checked)."""
    steps = 0
    for step, state in enumerate(states):
        steps += 1
        found = round_trip_problems(game, state, seed + 500, step)
        if step % forced_every == 0:
            again = forced(state, step)
            if len(re.findall(r"^dice:", game.write_position(again), re.M)) != 1:
                found.append("the forced dice are not written once as dice:")
            found += round_trip_problems(game, again, seed + 700, step)
        if step % seats_every == 0:
            for seat in state.seats:
                found += seat_position_problems(game, state, seat, seed)
        if found:
            return [f"step {step}: {problem}" for problem in found]
    return [] if steps > 1 else ["the match had no decision to check"]
