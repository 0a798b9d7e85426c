"""Checks of the game contract, shared by the conformance suite and its own tests."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from gladiatorium.core import Game, Seat, State
from gladiatorium.core.match import make_bots

#: a random game longer than this is a game that does not end
ACTION_CAP = 20_000
#: states per random game at which the expensive checks run
SAMPLES = 12


def random_walk(game: Game[Any], seed: int) -> Iterator[tuple[State[Any], Seat]]:
    """Yield (state, seat to act) before each action of a seeded random game,
    then play that seat's random action; ends when the game is over."""
    state = game.start(None, None, seed)
    bots = make_bots(game, seed, dict.fromkeys(state.seats, "random"))
    for _ in range(ACTION_CAP):
        awaited = state.awaiting()
        if not awaited:
            return
        seat = awaited[0]
        yield state, seat
        state.apply(seat, bots[seat].choose(state, seat))
    raise AssertionError(f"{game.info.slug}: random game not over after {ACTION_CAP} actions")


def play_random(game: Game[Any], seed: int) -> State[Any]:
    state = game.start(None, None, seed)
    bots = make_bots(game, seed, dict.fromkeys(state.seats, "random"))
    for _ in range(ACTION_CAP):
        awaited = state.awaiting()
        if not awaited:
            return state
        state.apply(awaited[0], bots[awaited[0]].choose(state, awaited[0]))
    raise AssertionError(f"{game.info.slug}: random game not over after {ACTION_CAP} actions")


def sample_indices(length: int, samples: int = SAMPLES) -> set[int]:
    step = max(1, length // samples)
    return set(range(0, length, step))


def leaks(game: Game[Any], state: State[Any]) -> list[str]:
    """Every (seat, secret, place) where a secret of the seat shows in what it sees."""
    found = []
    for seat in (*state.seats, None):
        places = {
            "view": json.dumps(state.view(seat), default=str),
            "events": json.dumps([e.to_json() for e in state.events_for(seat)]),
            "render": game.render(state, seat),
        }
        for secret in state.secrets_for(seat):
            for place, text in places.items():
                if secret in text:
                    found.append(f"seat {seat}: {secret!r} in its {place}")
    return found
